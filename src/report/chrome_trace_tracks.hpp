#pragma once
// One run laid out as tracks of a Chrome trace (docs/traces.md says how to read them): one process per run, and in
// it, for every node, its program ("node 5": the blocking calls, barriers, copies and compute, one after another),
// its output and input ports ("node 5 out", "node 5 in"), and every directed link it drives that carried something
// ("link 5->4", and "link 5->4 waits" where transfers waited for it). Spans that overlap go on lanes of their own
// ("node 5 out 2"), so that the slices of every track nest. Each message received is a flow from its send to its
// receive; each FORCED discard an instant on the receiving node's program, and in a deadlocked run's report each
// blocked node's operation an instant where its program stuck.
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

#include "hcemu/report.hpp"
#include "report/trace_event_writer.hpp"

namespace hcemu::detail {

// What of a run goes into the file (`--trace-nodes`, `--trace-window`, docs/traces.md "Smaller traces"): the tracks
// of the listed nodes and of the links they drive, and of those the slices that touch the window, whole; an instant
// inside it. A message's arrow is written when both its slices are.
struct TraceFilter {
  std::vector<bool> nodes;  // by node id; empty: every node
  Time from = std::numeric_limits<Time>::min(), to = std::numeric_limits<Time>::max();  // the window, both ends in

  bool keeps_node(int node) const {
    return nodes.empty() || (node >= 0 && static_cast<std::size_t>(node) < nodes.size() && nodes[node]);
  }
  bool keeps_span(Time start, Time end) const { return start <= to && end >= from; }
  bool keeps_instant(Time at) const { return keeps_span(at, at); }
};

void write_run_tracks(TraceEventWriter& writer, const RunReport& run, std::string_view label, int pid,
                      const TraceFilter& filter = {});

// About how many bytes write_run_tracks writes for `run` (within about 10% on the kernels' runs), without
// writing it: counted from the run's spans, at the average size of each kind of event.
std::uint64_t estimated_trace_bytes(const RunReport& run, const TraceFilter& filter = {});

}  // namespace hcemu::detail
