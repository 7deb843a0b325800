#pragma once
// A machine config assembled from layers — a preset, a file, `--set key=value`, the command's flags — with every
// value checked as it is set, and every error naming the key and where it was set (file and line, or the flag).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "hcemu/config.hpp"
#include "hcemu/config_keys.hpp"

namespace hcemu::cli {

// Where a setting came from: a file and line, or a command-line flag (line 0).
struct Origin {
  std::string file;
  int line = 0;
};

using Value = KeyValue;

// The key closest to a misspelt one (edit distance), or empty when none is close enough to suggest.
std::string nearest_key(std::string_view unknown, const std::vector<std::string>& candidates);
std::string nearest_config_key(std::string_view unknown);

// A resolved machine config (δ' for its own d), the emulator settings, and how δ' follows the dimension, so that
// the same machine can be run on cubes of other dimensions (`hcemu fit`): at_dimension(d).
using MachineFamily = MachineSetup;

class ConfigBuilder {
 public:
  // Its settings run the machine where the command's machines run (process_spread: under mpirun, over the ranks).
  ConfigBuilder();

  // Throws ConfigError naming the key and the origin: unknown key (with the nearest valid one), wrong type,
  // value out of range (the key's row in hcemu/config_keys.hpp), or a dimension that some engine cannot run.
  void set(std::string_view key, const Value& value, const Origin& origin);
  // `--set key=value`: the text is read as the key's type, then checked exactly as a file's value.
  void set_text(std::string_view key, std::string_view text, const Origin& origin);

  // The config as set so far: δ' = delta_msg_per_d·d when that is set, then MachineConfig::validate().
  MachineConfig resolve() const;
  const EmulatorSettings& settings() const { return setup_.settings; }
  MachineFamily family() const { return {resolve(), setup_.settings, setup_.delta_msg_per_d}; }

  const MachineSetup& setup() const { return setup_; }
  void set_name(std::string name) { setup_.config.name = std::move(name); }
  const Origin* origin_of(std::string_view key) const;

  // Descriptive fields of a preset or file (not machine parameters).
  std::string source;
  std::string summary;

 private:
  MachineSetup setup_;
  std::map<std::string, Origin, std::less<>> origins_;
};

}  // namespace hcemu::cli
