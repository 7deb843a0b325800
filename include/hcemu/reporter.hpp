#pragma once
// Writing run reports, one format per reporter, as Google Benchmark keeps console_reporter.cc, json_reporter.cc and
// csv_reporter.cc behind one BenchmarkReporter: report() once for each run, under a label, then finish().
#include <iosfwd>
#include <memory>
#include <string_view>

#include "hcemu/report.hpp"

namespace hcemu {

class Reporter {
 public:
  virtual ~Reporter() = default;
  // One run, named by `label` ("direct", "multiphase (2,3)"; may be empty for a single run).
  virtual void report(std::string_view label, const RunReport& run) = 0;
  // After the last run: what the format writes at its end.
  virtual void finish() {}
};

// The readable table (RunReport::print): the label, then the run's summary, per-node and contended-link tables.
class ConsoleReporter : public Reporter {
 public:
  explicit ConsoleReporter(std::ostream& out) : out_(out) {}
  void report(std::string_view label, const RunReport& run) override;

 private:
  std::ostream& out_;
  bool first_ = true;
};

// The runs as one JSON document of the shape every `hcemu ... --json` prints (docs/cli.md, "JSON output"):
//   {"context": {...}, "runs": [{"label": ..., "report": {...}}, ...], "schema_version": 5}
// `context` has the fields of the command's, with `command` null and `command_line` this program's; its machine
// fields (config, engine, workers, timing, ranks) are the first run's. Each run's `report` is to_json of it
// (hcemu/report_json.hpp), without `nodes` and `links` unless `per_node`. Written as the runs come, not held.
class JsonReporter : public Reporter {
 public:
  explicit JsonReporter(std::ostream& out, bool per_node = false);
  ~JsonReporter() override;
  void report(std::string_view label, const RunReport& run) override;
  void finish() override;  // ends the document (after no runs: an empty `runs`); the next report() starts another

 private:
  void open(const RunReport* first);
  struct Document;  // the document being written
  std::ostream& out_;
  bool per_node_;
  std::unique_ptr<Document> document_;
};

// The Chrome trace event format (Perfetto, chrome://tracing) of every run in one file, written as the runs come: one
// process per run, named by its label; in it each node's program, its ports and the links it drives as tracks of
// their own, each message a flow from its send to its receive, each FORCED discard an instant (docs/traces.md).
// Times are microseconds, written exactly (the model's picoseconds have six decimal places).
class ChromeTraceReporter : public Reporter {
 public:
  explicit ChromeTraceReporter(std::ostream& out);
  ~ChromeTraceReporter() override;
  void report(std::string_view label, const RunReport& run) override;
  void finish() override;

 private:
  struct Events;  // the file's writer
  std::ostream& out_;
  std::unique_ptr<Events> events_;
  int runs_ = 0;
};

}  // namespace hcemu
