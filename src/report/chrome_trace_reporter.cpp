// A run as the Chrome trace event format (Perfetto, chrome://tracing), and the reporter that puts several runs in
// one file.
#include <ostream>

#include "hcemu/report_json.hpp"
#include "hcemu/reporter.hpp"

namespace hcemu {

nlohmann::json to_chrome_trace(const RunReport& r) {
  using nlohmann::json;
  json events = json::array();
  for (std::size_t i = 0; i < r.nodes.size(); ++i)
    events.push_back({{"name", "thread_name"},
                      {"ph", "M"},
                      {"pid", 0},
                      {"tid", i},
                      {"args", {{"name", "node " + std::to_string(i)}}}});
  for (const auto& s : r.trace) {
    json args = {{"bytes", s.bytes}, {"tag", s.tag}};
    if (s.peer >= 0) args["peer"] = s.peer;
    std::string name = s.kind;
    if (s.peer >= 0) name += (s.kind == "send" ? " to " : " from ") + std::to_string(s.peer);
    // Trace event times are microseconds.
    events.push_back({{"name", name},
                      {"cat", s.kind},
                      {"ph", "X"},
                      {"pid", 0},
                      {"tid", s.node},
                      {"ts", to_us(s.start)},
                      {"dur", to_us(s.end - s.start)},
                      {"args", std::move(args)}});
  }
  return {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ns"}};
}

struct ChromeTraceReporter::Events {
  nlohmann::json events = nlohmann::json::array();
};

ChromeTraceReporter::ChromeTraceReporter(std::ostream& out) : out_(out), events_(std::make_unique<Events>()) {}
ChromeTraceReporter::~ChromeTraceReporter() = default;

void ChromeTraceReporter::report(std::string_view label, const RunReport& run) {
  // Several runs share one file: each becomes its own process, so that their node tracks do not mix.
  const int pid = runs_++;
  events_->events.push_back(
      {{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", std::string(label)}}}});
  nlohmann::json trace = to_chrome_trace(run);
  for (auto& event : trace["traceEvents"]) {
    event["pid"] = pid;
    events_->events.push_back(std::move(event));
  }
}

void ChromeTraceReporter::finish() {
  out_ << nlohmann::json{{"traceEvents", std::move(events_->events)}, {"displayTimeUnit", "ns"}}.dump() << '\n';
  events_->events = nlohmann::json::array();
  runs_ = 0;
}

}  // namespace hcemu
