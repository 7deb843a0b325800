#pragma once
// `--trace FILE.json`: the Chrome trace event format (Perfetto, chrome://tracing, Chrome DevTools) of one or several
// runs, with what narrows it (`--trace-nodes`, `--trace-window`) and its size told before a large one is written.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "hcemu/report.hpp"
#include "report/chrome_trace_tracks.hpp"

namespace hcemu::cli {

struct LabelledReport {
  std::string label;  // "direct", "multiphase (2,3)"
  const RunReport* report;
};

// Past this the command says how large the file will be, and which filters would shrink it, before writing it.
inline constexpr std::uint64_t kLargeTraceBytes = 100'000'000;

struct TraceOptions {
  std::string path;
  std::string nodes;   // --trace-nodes: "0,3,5-7"
  std::string window;  // --trace-window: "T0:T1" in µs of the run's time

  bool wanted() const { return !path.empty(); }
  // --trace, --trace-nodes and --trace-window on `command`; the filters need --trace.
  void add_to(CLI::App& command);
  // The filter for a machine of `nodes` nodes; a UsageError naming the option for a node not on it or a bad window.
  // The command calls it before the runs, so that a typo does not wait for them.
  hcemu::detail::TraceFilter filter(int nodes) const;
};

// The node list of --trace-nodes: "0,3,5-7" (decimal, ranges inclusive, in any order) on a machine of `nodes` nodes.
std::vector<bool> parse_node_list(const std::string& text, int nodes);
// The window of --trace-window: "T0:T1" in microseconds, each with at most six decimals (the model's picoseconds),
// either end left out for the run's start or end; T0 <= T1. Throws UsageError naming the option.
std::pair<Time, Time> parse_time_window(const std::string& text);

// The file's estimated size in words, with the filters that would shrink it below `limit`, when it would pass
// `limit`; "" if not.
std::string large_trace_warning(const TraceOptions& options, const std::vector<LabelledReport>& runs,
                                std::uint64_t limit = kLargeTraceBytes);

// One process per run (named by its label), tracks per node and link (docs/traces.md), narrowed by the options'
// filter; a large file is announced by `warn` first (large_trace_warning) and written all the same. Throws
// OutputError if the file cannot be written, leaving any earlier file at the path as it was; the command checks the
// path before the runs (check_writable, cli/option_checks.hpp).
void write_chrome_trace(const TraceOptions& options, const std::vector<LabelledReport>& runs,
                        const std::function<void(const std::string&)>& warn);

}  // namespace hcemu::cli
