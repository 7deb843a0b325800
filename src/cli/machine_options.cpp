#include "cli/machine_options.hpp"

#include <CLI/CLI.hpp>
#include <cctype>
#include <charconv>

#include "cli/cli_error.hpp"
#include "cli/config_loader.hpp"
#include "cli/presets.hpp"

namespace hcemu::cli {

void MachineOptions::add_to(CLI::App& app, bool with_sync) {
  std::string presets;
  for (const auto& name : preset_names()) presets += (presets.empty() ? "" : ", ") + name;
  app.add_option("--config", config, "A preset (" + presets + ") or a TOML file")->capture_default_str();
  app.add_option("--set", sets,
                 "Override one config key: --set key=value (repeatable; hcemu configs --keys). A preset's own lambda0 "
                 "stays when only lambda is set")
      ->type_name("KEY=VALUE")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  for (const ConfigKey& key : config_keys()) {
    if (key.flag.empty()) continue;
    std::string help = std::string(key.doc) + "; " + key.range();
    help.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(help.front())));
    if (!key.unit().empty()) help += " " + key.unit();
    help += " (key " + std::string(key.name) + "; default: the config's)";
    std::string type = std::string(key.name);
    for (char& c : type) c = c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    app.add_option(std::string(key.flag), flags[std::string(key.name)], help)->type_name(type);
  }
  if (with_sync)
    app.add_option("--sync", sync, "Exchange synchronisation: none, barrier or pairwise (Nicol & Bokhari §4)")
        ->capture_default_str();
}

MachineConfig MachineOptions::build() const { return build_family().config; }

MachineFamily MachineOptions::build_family() const {
  ConfigBuilder builder;
  apply_config(builder, config);
  for (const auto& assignment : sets) apply_assignment(builder, assignment);
  for (const ConfigKey& key : config_keys()) {
    auto given = flags.find(key.name);
    if (given == flags.end() || given->second.empty()) continue;
    // The origin names the flag as its first spelling: "-d 6", "--ports all".
    const std::string flag(key.flag.substr(0, key.flag.find(',')));
    builder.set_text(key.name, given->second, Origin{flag + " " + given->second, 0});
  }
  return builder.family();
}

Sync MachineOptions::parsed_sync() const { return parse_sync(sync); }

std::vector<int> parse_partition(const std::string& text) {
  std::vector<int> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto comma = text.find(',', start);
    std::string_view piece(text.data() + start, (comma == std::string::npos ? text.size() : comma) - start);
    int part = 0;
    auto [end, ec] = std::from_chars(piece.data(), piece.data() + piece.size(), part);
    if (piece.empty() || ec != std::errc() || end != piece.data() + piece.size() || part < 1)
      throw UsageError("--partition " + text + ": expected positive integers separated by commas, like 2,3");
    parts.push_back(part);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return parts;
}

std::vector<int> parse_list(const std::string& flag, const std::string& text) {
  std::vector<int> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto comma = text.find(',', start);
    std::string_view piece(text.data() + start, (comma == std::string::npos ? text.size() : comma) - start);
    int part = 0;
    auto [end, ec] = std::from_chars(piece.data(), piece.data() + piece.size(), part);
    if (piece.empty() || ec != std::errc() || end != piece.data() + piece.size() || part < 0)
      throw UsageError(flag + " " + text + ": expected integers >= 0 separated by commas, like 1,2");
    parts.push_back(part);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return parts;
}

std::string partition_label(const std::vector<int>& partition) {
  if (partition.empty()) return "";
  std::string label = "(";
  for (std::size_t i = 0; i < partition.size(); ++i) label += (i ? "," : "") + std::to_string(partition[i]);
  return label + ")";
}

}  // namespace hcemu::cli
