#include "cli/config_loader.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <toml++/toml.h>

#include "cli/cli_error.hpp"
#include "cli/presets.hpp"
#include "hcemu/errors.hpp"

namespace hcemu::cli {

namespace {

// Presets and files may name a `base`; a chain longer than this is surely a cycle.
constexpr int kMaxBaseDepth = 8;

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

void apply_config_at_depth(ConfigBuilder& builder, std::string_view name_or_file, int depth);

void apply_toml_at_depth(ConfigBuilder& builder, std::string_view text, const std::string& path, int depth) {
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
    if (depth >= kMaxBaseDepth)
      throw ConfigError("base", "too many nested bases (is there a cycle?)", path, origin_of(*base).line);
    std::filesystem::path base_path = *name;
    // A relative file is relative to the file that names it; a preset name stays as it is.
    if (!find_preset(*name) && base_path.is_relative() && !path.empty())
      base_path = std::filesystem::path(path).parent_path() / base_path;
    apply_config_at_depth(builder, find_preset(*name) ? *name : base_path.string(), depth + 1);
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

void apply_config_at_depth(ConfigBuilder& builder, std::string_view name_or_file, int depth) {
  if (const PresetFile* preset = find_preset(name_or_file)) {
    apply_toml_at_depth(builder, preset->text, preset->path, depth);
    return;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(std::string(name_or_file), ec))
    throw UsageError("'" + std::string(name_or_file) + "' is a directory, not a preset or a TOML file");
  std::ifstream in{std::string(name_or_file)};
  if (!in) {
    std::string hint = nearest_key(name_or_file, preset_names());
    std::string presets;
    for (const auto& n : preset_names()) presets += (presets.empty() ? "" : ", ") + n;
    throw UsageError("no preset or readable file named '" + std::string(name_or_file) + "'" +
                     (hint.empty() ? "" : "; did you mean '" + hint + "'?") + " (presets: " + presets + ")");
  }
  std::ostringstream text;
  text << in.rdbuf();
  apply_toml_at_depth(builder, text.str(), std::string(name_or_file), depth);
}

}  // namespace

void apply_toml(ConfigBuilder& builder, std::string_view text, const std::string& path) {
  apply_toml_at_depth(builder, text, path, 0);
}

void apply_config(ConfigBuilder& builder, std::string_view name_or_file) {
  apply_config_at_depth(builder, name_or_file, 0);
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
