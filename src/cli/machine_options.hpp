#pragma once
// The machine options shared by `run`, `plan`, `sweep` and `fit`: a preset or file, `--set` overrides, and the
// flags that are shorthands for single keys (each key's `flag` in hcemu/config_keys.hpp). Layers apply in that
// order, so a flag beats `--set`, which beats the file.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "cli/config_builder.hpp"
#include "hcemu/config.hpp"
#include "hcemu/model/sync.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace hcemu::cli {

struct MachineOptions {
  std::string config{"ipsc860"};
  std::vector<std::string> sets;
  std::map<std::string, std::string, std::less<>> flags;  // key -> the text its flag was given; empty: not given
  std::string sync{"none"};

  // `with_sync`: whether the command takes --sync (an option of the exchange, not of the machine).
  void add_to(CLI::App& app, bool with_sync = true);

  // Preset or file, then every --set, then the flags. Throws ConfigError / UsageError.
  MachineConfig build() const;
  MachineFamily build_family() const;  // the config, the emulator settings and how δ' follows d
  // Whether --set or a flag changed lambda while the preset or file's own lambda0 stayed: a zero-byte message then
  // keeps the file's start-up, which the run's header says.
  bool lambda_changed_but_not_lambda0() const;
  // Whether the command line set the key, by its flag or by --set (not only the preset or file).
  bool given(std::string_view key) const;
  Sync parsed_sync() const;
};

// Where `placing_early` was asked for but cannot apply (docs/engine.md, "Placing while others run"): the note that
// says why, for stderr; empty where it applies or was not asked for.
std::string placing_early_unused(const EmulatorSettings& settings);

// "d = 12 (4096 nodes, torus 64 x 64)", "d = 6 (64 nodes)": the machine's size as the commands' headers show it.
std::string machine_shape(const MachineConfig& config);
// The topology with its sides: "cube", "torus:64x64" (the JSON's "topology").
std::string topology_name(const MachineConfig& config);

// "2,3" -> {2, 3}. Throws UsageError.
std::vector<int> parse_partition(const std::string& text);
// A list parameter's value (--grid 1,2): integers >= 0 separated by commas; `flag` names it in the error.
std::vector<int> parse_list(const std::string& flag, const std::string& text);
std::string partition_label(const std::vector<int>& partition);  // "(2,3)", or "" when empty

}  // namespace hcemu::cli
