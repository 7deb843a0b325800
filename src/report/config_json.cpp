// A machine config and emulator settings as JSON: every key of their scope in hcemu/config_keys.hpp.
#include <variant>

#include "hcemu/config_keys.hpp"
#include "hcemu/report_json.hpp"

namespace hcemu {

namespace {
// The keys of one scope (hcemu/config_keys.hpp), each with the value in effect.
nlohmann::json keys_of(KeyScope scope, const MachineSetup& setup) {
  nlohmann::json j = nlohmann::json::object();
  for (const ConfigKey& key : config_keys())
    if (auto value = key.get(setup); key.scope == scope && value)
      std::visit([&](const auto& v) { j[std::string(key.name)] = v; }, *value);
  return j;
}
}  // namespace

void to_json(nlohmann::json& j, const MachineConfig& c) {
  j = keys_of(KeyScope::machine, MachineSetup{c, {}, {}});
  j["name"] = c.name;
}

void to_json(nlohmann::json& j, const EmulatorSettings& s) { j = keys_of(KeyScope::emulator, MachineSetup{{}, s, {}}); }

}  // namespace hcemu
