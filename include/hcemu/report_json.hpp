#pragma once
// A run report, a machine config and emulator settings as JSON (nlohmann/json), and a run as a Chrome trace. Apart
// from hcemu/report.hpp so that only the code that writes JSON pulls nlohmann/json in.
#include <nlohmann/json.hpp>

#include "hcemu/config.hpp"
#include "hcemu/report.hpp"

namespace hcemu {

// Every key of the config's scope in hcemu/config_keys.hpp with the value in effect (lambda0 unset: lambda's), and
// the config's name.
void to_json(nlohmann::json& j, const MachineConfig& config);
void to_json(nlohmann::json& j, const EmulatorSettings& settings);
nlohmann::json to_json(const RunReport& report);
void to_json(nlohmann::json& j, const RunReport& report);
void to_json(nlohmann::json& j, const EngineStats& stats);
// One run in the Chrome trace event format (Perfetto, chrome://tracing), as ChromeTraceReporter writes it
// (hcemu/reporter.hpp); parsed back, so its times are doubles.
nlohmann::json to_chrome_trace(const RunReport& report);

}  // namespace hcemu
