#pragma once
// Every key of a machine config, declared once (in the manner of SimGrid's config::Flag): its name, the papers'
// symbol, its unit, its range, its default, one line of documentation, and whether it belongs to the machine of the
// papers or to the emulator. Validation (MachineConfig::validate, EmulatorSettings::validate), config files and
// `--set`, `hcemu configs --keys`, the JSON of a config, the command line's machine flags and the docs' key tables
// are all read off this one list (src/common/config_keys.cpp).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "hcemu/config.hpp"

namespace hcemu {

// A value as a config file or `--set` writes it.
using KeyValue = std::variant<std::int64_t, double, bool, std::string>;

// Where a key's value lives: the machine of the papers (MachineConfig, what node.config() shows), how the emulator
// runs it (EmulatorSettings), or a config file's own way of writing the machine, resolved into MachineConfig when the
// dimension is known (MachineSetup::delta_msg_per_d).
enum class KeyScope { machine, emulator, file };

// How a key is written: what a file or `--set` may give for it.
enum class KeyType { time, integer, bytes, number, boolean, choice };

std::string_view to_string(KeyScope);  // "machine", "emulator", "file"
std::string_view to_string(KeyType);   // "time", "integer", "bytes", "number", "boolean", "choice"

// What a config file describes: the machine, how the emulator runs it, and the keys that follow the dimension.
struct MachineSetup {
  MachineConfig config;
  EmulatorSettings settings;
  // Nicol & Bokhari (1994) §4 measure δ' = 5.15 µs × d: when set, δ' = delta_msg_per_d · d at whatever d the run
  // uses (config.delta_msg is then ignored).
  std::optional<double> delta_msg_per_d;

  // config with δ' resolved for its own d, or for `d`.
  MachineConfig resolved() const { return at_dimension(config.d); }
  MachineConfig at_dimension(int d) const;
};

namespace detail {
class KeyBinding;
}

class ConfigKey {
 public:
  std::string_view name;    // as files, `--set` and JSON spell it: "tau"
  std::string_view symbol;  // the papers' symbol, "τ", or empty
  std::string_view flag;    // the command line's shorthand, "-d,--dim" or "--ports", or empty (only `--set`)
  std::string_view doc;     // one line
  KeyScope scope;
  KeyType type;

  std::string unit() const;          // "µs", "bytes", "s", or empty
  std::string range() const;         // "0 .. 1e9", "0..16", "one, half, k:N or all", ">= 1"
  std::string default_text() const;  // the value a default-constructed MachineSetup holds, as a file writes it

  // Reads a file's or `--set`'s value into the setup; throws ConfigError naming the key for a value of the wrong
  // type or out of range.
  void set(MachineSetup& setup, const KeyValue& value) const;
  // The text of `--set key=TEXT` as the value of this key's type (an integer for d, "all" for ports); text that is
  // none of them stays a string, so that set() names the type that was expected.
  KeyValue read(std::string_view text) const;
  // The value in effect, as a file writes it (lambda0 unset: lambda's); nullopt for delta_msg_per_d unset.
  std::optional<KeyValue> get(const MachineSetup& setup) const;
  // Throws ConfigError naming the key when the value held is out of range (scope machine or emulator only).
  void check(const MachineConfig& config) const;
  void check(const EmulatorSettings& settings) const;

  ConfigKey(std::string_view name, std::string_view symbol, std::string_view flag, std::string_view doc,
            std::shared_ptr<const detail::KeyBinding> binding);

 private:
  std::shared_ptr<const detail::KeyBinding> binding_;
};

// Every key, in the order of docs/configs.md: the machine's, the file's, the emulator's.
const std::vector<ConfigKey>& config_keys();
// The key of that name, or nullptr.
const ConfigKey* find_config_key(std::string_view name);

}  // namespace hcemu
