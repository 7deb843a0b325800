// A run as the Chrome trace event format (Perfetto, chrome://tracing), and the reporter that puts several runs in
// one file. The tracks of a run are laid out in chrome_trace_tracks.cpp.
#include <ostream>
#include <sstream>

#include "hcemu/report_json.hpp"
#include "hcemu/reporter.hpp"
#include "report/chrome_trace_tracks.hpp"
#include "report/trace_event_writer.hpp"

namespace hcemu {

nlohmann::json to_chrome_trace(const RunReport& r) {
  std::ostringstream text;
  ChromeTraceReporter trace(text);
  trace.report("", r);
  trace.finish();
  return nlohmann::json::parse(text.str());
}

struct ChromeTraceReporter::Events {
  explicit Events(std::ostream& out) : writer(out) {}
  detail::TraceEventWriter writer;
};

ChromeTraceReporter::ChromeTraceReporter(std::ostream& out) : out_(out), events_(std::make_unique<Events>(out)) {}
ChromeTraceReporter::~ChromeTraceReporter() = default;

void ChromeTraceReporter::report(std::string_view label, const RunReport& run) {
  // Several runs share one file: each becomes its own process, so that their tracks do not mix.
  detail::write_run_tracks(events_->writer, run, label, ++runs_);
}

void ChromeTraceReporter::finish() {
  events_->writer.finish();
  out_.flush();
  runs_ = 0;
}

}  // namespace hcemu
