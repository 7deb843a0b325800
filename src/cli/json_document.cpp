#include "cli/json_document.hpp"

#include <unistd.h>

#include <array>
#include <chrono>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

#include "cli/build_info.hpp"
#include "cli/commands.hpp"

namespace hcemu::cli {

namespace {

std::vector<std::string>& command_line() {
  static std::vector<std::string> words;
  return words;
}

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

void set_command_line(int argc, const char* const* argv) {
  command_line().assign(argv, argv + argc);
}

nlohmann::json run_context(std::string_view command, const MachineSetup* machine) {
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
  j["command"] = command;
  j["command_line"] = command_line();
  j["ranks"] = process_ranks();
  j["config"] = machine ? nlohmann::json(machine->config.name) : nlohmann::json(nullptr);
  j["engine"] = machine ? nlohmann::json(to_string(machine->settings.engine)) : nlohmann::json(nullptr);
  j["workers"] = machine ? nlohmann::json(machine->settings.workers) : nlohmann::json(nullptr);
  j["timing"] = machine ? nlohmann::json(to_string(machine->settings.timing)) : nlohmann::json(nullptr);
  return j;
}

nlohmann::json json_document(std::string_view command, const MachineSetup* machine, std::string_view key,
                             nlohmann::json payload) {
  nlohmann::json j;
  j["schema_version"] = kJsonSchemaVersion;
  j["context"] = run_context(command, machine);
  j[std::string(key)] = std::move(payload);
  return j;
}

}  // namespace hcemu::cli
