#include "report/json_context.hpp"

#include <unistd.h>

#include <array>
#include <chrono>
#include <ctime>
#include <fstream>
#include <iterator>
#include <thread>

#include "report/build_info.hpp"

namespace hcemu::detail {

namespace {

std::string host_name() {
  std::array<char, 256> name{};
  if (::gethostname(name.data(), name.size() - 1) != 0) return "";
  return name.data();
}

// "2024-05-01T12:34:56Z": ISO 8601 in UTC, to the second.
std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text.data();
}

nlohmann::json text_or_null(std::string_view text) {
  return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(std::string(text));
}

}  // namespace

std::vector<std::string> own_command_line() {
  std::ifstream file("/proc/self/cmdline", std::ios::binary);
  const std::string all{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  std::vector<std::string> words;
  for (std::size_t from = 0; from < all.size();) {  // each word ends in a NUL
    const std::size_t end = std::min(all.find('\0', from), all.size());
    words.push_back(all.substr(from, end - from));
    from = end + 1;
  }
  return words;
}

nlohmann::json json_context(const ContextSource& source) {
  const BuildInfo& build = build_info();
  nlohmann::json j;
  j["hcemu_version"] = build.version;
  j["git_commit"] = text_or_null(build.git_commit);
  j["build_type"] = build.build_type;
  j["compiler"] = build.compiler;
  j["mpi_built"] = build.mpi;
  j["host"] = host_name();
  j["hardware_threads"] = std::thread::hardware_concurrency();
  j["date"] = utc_now();
  j["command"] = text_or_null(source.command);
  j["command_line"] = source.command_line;
  j["ranks"] = source.ranks;
  const auto or_null = [](bool known, auto value) { return known ? nlohmann::json(value) : nlohmann::json(nullptr); };
  j["config"] = or_null(source.config != nullptr, source.config ? source.config->name : "");
  j["engine"] = or_null(source.settings != nullptr, source.settings ? to_string(source.settings->engine) : "");
  j["workers"] = or_null(source.settings != nullptr, source.settings ? source.settings->workers : 0);
  j["timing"] = or_null(source.settings != nullptr, source.settings ? to_string(source.settings->timing) : "");
  return j;
}

}  // namespace hcemu::detail
