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

namespace hcemu::cli {

// Where a setting came from: a file and line, or a command-line flag (line 0).
struct Origin {
  std::string file;
  int line = 0;
};

using Value = std::variant<std::int64_t, double, bool, std::string>;

// What a config key is, for `hcemu configs --keys` and docs/configs.md.
struct KeyInfo {
  std::string_view name;
  std::string_view type;  // "microseconds", "integer", "bytes", "string", "boolean", "number"
  std::string_view meaning;
};

const std::vector<KeyInfo>& config_keys();
bool is_config_key(std::string_view key);
// The key closest to a misspelt one (edit distance), or empty when none is close enough to suggest.
std::string nearest_key(std::string_view unknown, const std::vector<std::string>& candidates);
std::string nearest_config_key(std::string_view unknown);

// A resolved machine config and how its δ' follows the dimension (delta_msg_per_d), so that the same machine can be
// run on cubes of other dimensions (`hcemu fit`).
struct MachineFamily {
  MachineConfig config;
  EmulatorSettings settings;
  std::optional<double> delta_msg_per_d;
  MachineConfig at_dimension(int d) const;
};

class ConfigBuilder {
 public:
  ConfigBuilder() = default;

  // Throws ConfigError naming the key and the origin: unknown key (with the nearest valid one), wrong type,
  // value out of range.
  void set(std::string_view key, const Value& value, const Origin& origin);
  // `--set key=value`: the text is read as the key's type, then checked exactly as a file's value.
  void set_text(std::string_view key, std::string_view text, const Origin& origin);

  // The config as set so far: δ' = delta_msg + delta_msg_per_d·d, then MachineConfig::validate().
  MachineConfig resolve() const;
  const EmulatorSettings& settings() const { return settings_; }
  MachineFamily family() const { return {resolve(), settings_, delta_msg_per_d_}; }

  const MachineConfig& raw() const { return config_; }
  void set_name(std::string name) { config_.name = std::move(name); }
  std::optional<double> delta_msg_per_d() const { return delta_msg_per_d_; }
  const Origin* origin_of(std::string_view key) const;

  // Descriptive fields of a preset or file (not machine parameters).
  std::string source;
  std::string summary;

 private:
  MachineConfig config_;
  EmulatorSettings settings_;
  std::optional<double> delta_msg_per_d_;
  std::map<std::string, Origin, std::less<>> origins_;
};

}  // namespace hcemu::cli
