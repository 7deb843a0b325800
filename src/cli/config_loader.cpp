#include "cli/config_loader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>

#include <toml++/toml.h>

#include "cli/cli_error.hpp"
#include "cli/presets.hpp"
#include "hcemu/errors.hpp"

namespace hcemu::cli {

namespace {

// Presets and files may name a `base`, and that one a base of its own: at most this many deep. A cycle is found
// apart, by the files in the chain.
constexpr std::size_t kMaxBaseDepth = 8;

// A config file is a regular file of at most this many bytes: /dev/zero would be read until the host runs out of
// memory, and a FIFO would block.
constexpr std::size_t kMaxConfigBytes = std::size_t{1} << 20;

// The files and presets that name each other as `base`, first the one given: where each came from, and what tells
// a file apart from another spelling of the same path.
struct BaseChain {
  std::vector<std::string> shown, identity;
  std::string text() const {
    std::string out;
    for (const auto& name : shown) out += (out.empty() ? "" : " -> ") + name;
    return out;
  }
};

std::string identity_of(const std::string& name_or_file) {
  if (find_preset(name_or_file)) return "preset " + name_or_file;
  std::error_code ec;
  const auto canonical = std::filesystem::weakly_canonical(name_or_file, ec);
  return ec ? name_or_file : canonical.string();
}

// The text of a config file, refusing anything but a regular file of at most kMaxConfigBytes. Opened without
// blocking, so that a FIFO is refused instead of waited on; the size is checked again as it is read, in case the file
// grows.
std::string read_config_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    std::string hint = nearest_key(path, preset_names());
    std::string presets;
    for (const auto& n : preset_names()) presets += (presets.empty() ? "" : ", ") + n;
    throw UsageError("no preset or readable file named '" + path + "'" +
                     (hint.empty() ? "" : "; did you mean '" + hint + "'?") + " (presets: " + presets + ")");
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat about {};
  if (::fstat(fd, &about) != 0) throw UsageError("'" + path + "': cannot read the file: " + std::strerror(errno));
  if (S_ISDIR(about.st_mode)) throw UsageError("'" + path + "' is a directory, not a preset or a TOML file");
  if (!S_ISREG(about.st_mode)) {
    const std::string kind = S_ISFIFO(about.st_mode)   ? "a FIFO"
                             : S_ISCHR(about.st_mode)  ? "a character device"
                             : S_ISBLK(about.st_mode)  ? "a block device"
                             : S_ISSOCK(about.st_mode) ? "a socket"
                                                       : "not a regular file";
    throw UsageError("'" + path + "' is " + kind + ": a config must be a regular TOML file");
  }
  const auto too_big = [&] {
    return UsageError("'" + path + "' is larger than 1 MiB, the most a config file may be");
  };
  if (static_cast<std::uintmax_t>(about.st_size) > kMaxConfigBytes) throw too_big();
  std::string text(kMaxConfigBytes + 1, '\0');
  std::size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw UsageError("'" + path + "': cannot read the file: " + std::strerror(errno));
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got > kMaxConfigBytes) throw too_big();
  text.resize(got);
  return text;
}

const std::vector<std::string>& descriptive_keys() {
  static const std::vector<std::string> keys = {"name", "source", "summary", "base"};
  return keys;
}

std::vector<std::string> all_file_keys() {
  std::vector<std::string> keys = descriptive_keys();
  for (const ConfigKey& key : config_keys()) keys.emplace_back(key.name);
  return keys;
}

std::string node_kind(const toml::node& node) {
  if (node.is_table()) return "a table";
  if (node.is_array()) return "an array";
  return "a date or time";
}

void apply_config_in_chain(ConfigBuilder& builder, std::string_view name_or_file, BaseChain& chain);

void apply_toml_in_chain(ConfigBuilder& builder, std::string_view text, const std::string& path, BaseChain& chain) {
  toml::table table;
  try {
    table = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    std::ostringstream out;
    out << path << ":" << e.source().begin.line << ": not valid TOML: " << e.description();
    throw UsageError(out.str());
  }
  const auto origin_of = [&](const toml::node& node) { return Origin{path, static_cast<int>(node.source().begin.line)}; };

  // `base` first, so that this file's keys override it whatever their order.
  if (const toml::node* base = table.get("base")) {
    auto name = base->value<std::string>();
    if (!name) throw ConfigError("base", "must be a string naming a preset or file", path, origin_of(*base).line);
    std::filesystem::path base_path = *name;
    // A relative file is relative to the file that names it; a preset name stays as it is.
    if (!find_preset(*name) && base_path.is_relative() && !path.empty())
      base_path = std::filesystem::path(path).parent_path() / base_path;
    const std::string next = find_preset(*name) ? *name : base_path.string();
    const std::string identity = identity_of(next);
    for (const auto& seen : chain.identity)
      if (seen == identity)
        throw ConfigError("base", "the bases form a cycle: " + chain.text() + " -> " + next, path,
                          origin_of(*base).line);
    if (chain.shown.size() > kMaxBaseDepth)
      throw ConfigError("base",
                        "bases may nest at most " + std::to_string(kMaxBaseDepth) +
                            " deep, and this chain goes deeper: " + chain.text() + " -> " + next,
                        path, origin_of(*base).line);
    apply_config_in_chain(builder, next, chain);
  }
  if (table.contains("delta_msg") && table.contains("delta_msg_per_d"))
    throw ConfigError("delta_msg_per_d", "set either delta_msg or delta_msg_per_d, not both", path,
                      origin_of(*table.get("delta_msg_per_d")).line);

  std::string name = std::filesystem::path(path).stem().string();
  for (auto&& [key, node] : table) {
    std::string_view k = key.str();
    Origin origin = origin_of(node);
    if (k == "base") continue;
    if (k == "name" || k == "source" || k == "summary") {
      auto text_value = node.value<std::string>();
      if (!text_value || !node.is_string())
        throw ConfigError(std::string(k), "must be a string", origin.file, origin.line);
      if (k == "name") name = *text_value;
      else if (k == "source") builder.source = *text_value;
      else builder.summary = *text_value;
      continue;
    }
    if (!find_config_key(k)) {
      std::string hint = nearest_key(k, all_file_keys());
      throw ConfigError(std::string(k),
                        hint.empty() ? "unknown key (`hcemu configs --keys` lists the valid ones)"
                                     : "unknown key; did you mean '" + hint + "'?",
                        origin.file, origin.line);
    }
    Value value;
    if (auto i = node.as_integer()) value = i->get();
    else if (auto x = node.as_floating_point()) value = x->get();
    else if (auto b = node.as_boolean()) value = b->get();
    else if (auto s = node.as_string()) value = s->get();
    else throw ConfigError(std::string(k), "must be a single value, got " + node_kind(node), origin.file, origin.line);
    builder.set(k, value, origin);
  }
  builder.set_name(name);
}

void apply_config_in_chain(ConfigBuilder& builder, std::string_view name_or_file, BaseChain& chain) {
  const std::string name(name_or_file);
  chain.shown.push_back(name);
  chain.identity.push_back(identity_of(name));
  if (const PresetFile* preset = find_preset(name_or_file)) {
    apply_toml_in_chain(builder, preset->text, preset->path, chain);
  } else {
    apply_toml_in_chain(builder, read_config_file(name), name, chain);
  }
  chain.shown.pop_back();
  chain.identity.pop_back();
}

}  // namespace

void apply_toml(ConfigBuilder& builder, std::string_view text, const std::string& path) {
  BaseChain chain{{path}, {identity_of(path)}};
  apply_toml_in_chain(builder, text, path, chain);
}

void apply_config(ConfigBuilder& builder, std::string_view name_or_file) {
  BaseChain chain;
  apply_config_in_chain(builder, name_or_file, chain);
}

void apply_assignment(ConfigBuilder& builder, std::string_view assignment) {
  auto eq = assignment.find('=');
  Origin origin{"--set " + std::string(assignment), 0};
  if (eq == std::string_view::npos || eq == 0)
    throw UsageError("--set " + std::string(assignment) + ": expected key=value");
  auto trim = [](std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
  };
  builder.set_text(trim(assignment.substr(0, eq)), trim(assignment.substr(eq + 1)), origin);
}

MachineConfig load_config(std::string_view name_or_file) {
  ConfigBuilder builder;
  apply_config(builder, name_or_file);
  return builder.resolve();
}

}  // namespace hcemu::cli
