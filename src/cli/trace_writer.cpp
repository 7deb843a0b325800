#include "cli/trace_writer.hpp"

#include <fstream>

#include <nlohmann/json.hpp>

#include "cli/cli_error.hpp"

namespace hcemu::cli {

namespace {
// The events of one run's trace, whether the core wrote them as a bare array or as {"traceEvents": [...]}.
nlohmann::json events_of(const nlohmann::json& trace) {
  if (trace.is_array()) return trace;
  if (trace.is_object() && trace.contains("traceEvents")) return trace["traceEvents"];
  return nlohmann::json::array();
}
}  // namespace

void write_chrome_trace(const std::string& path, const std::vector<LabelledReport>& runs) {
  std::ofstream file(path);
  if (!file) throw UsageError("--trace " + path + ": cannot open the file for writing");
  if (runs.size() == 1) {
    file << to_chrome_trace(*runs.front().report).dump() << '\n';
    if (!file) throw UsageError("--trace " + path + ": writing the file failed");
    return;
  }
  nlohmann::json events = nlohmann::json::array();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    nlohmann::json run_events = events_of(to_chrome_trace(*runs[i].report));
    // Several runs share one file: each becomes its own process so that their node tracks do not mix.
    for (auto& event : run_events) event["pid"] = i;
    events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", i}, {"args", {{"name", runs[i].label}}}});
    for (auto& event : run_events) events.push_back(std::move(event));
  }
  file << nlohmann::json{{"traceEvents", events}, {"displayTimeUnit", "ns"}}.dump() << '\n';
  if (!file) throw UsageError("--trace " + path + ": writing the file failed");
}

}  // namespace hcemu::cli
