#include "cli/machine_options.hpp"

#include <charconv>

#include <CLI/CLI.hpp>

#include "cli/cli_error.hpp"
#include "cli/config_loader.hpp"

namespace hcemu::cli {

void MachineOptions::add_to(CLI::App& app, bool with_sync) {
  app.add_option("--config", config, "A preset (ipsc860, ipsc-yale, linkbound) or a TOML file")
      ->capture_default_str();
  app.add_option("--set", sets, "Override one config key: --set key=value (repeatable)")      ->type_name("KEY=VALUE")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("-d,--dim", d, "Cube dimension: 2^d nodes, 0..13 (default: the config's)")->type_name("D");
  app.add_option("--timing", timing, "virtual, wall or native (default: the config's, virtual)");
  app.add_option("--ports", ports, "one, half, k:N or all");
  app.add_option("--switching", switching, "circuit or store_and_forward");
  app.add_option("--protocol", protocol, "forced or unforced");
  app.add_option("--time-scale", time_scale, "Wall timing: real seconds per model second, >= 1");
  if (with_sync)
    app.add_option("--sync", sync, "Exchange synchronisation: none, barrier or pairwise (Nicol & Bokhari §4)")
        ->capture_default_str();
}

MachineConfig MachineOptions::build() const { return build_family().config; }

MachineFamily MachineOptions::build_family() const {
  ConfigBuilder builder;
  apply_config(builder, config);
  for (const auto& assignment : sets) apply_assignment(builder, assignment);
  const auto flag = [&](const char* key, const char* name, const std::string& text) {
    if (!text.empty()) builder.set_text(key, text, Origin{std::string(name) + " " + text, 0});
  };
  flag("d", "-d", d);
  flag("timing", "--timing", timing);
  flag("ports", "--ports", ports);
  flag("switching", "--switching", switching);
  flag("protocol", "--protocol", protocol);
  flag("time_scale", "--time-scale", time_scale);
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

std::string partition_label(const std::vector<int>& partition) {
  if (partition.empty()) return "";
  std::string label = "(";
  for (std::size_t i = 0; i < partition.size(); ++i) label += (i ? "," : "") + std::to_string(partition[i]);
  return label + ")";
}

}  // namespace hcemu::cli
