#pragma once
// One run laid out as tracks of a Chrome trace (docs/traces.md says how to read them): one process per run, and in
// it, for every node, its program ("node 5": the blocking calls, barriers, copies and compute, one after another),
// its output and input ports ("node 5 out", "node 5 in"), and every directed link it drives that carried something
// ("link 5->4", and "link 5->4 waits" where transfers waited for it). Spans that overlap go on lanes of their own
// ("node 5 out 2"), so that the slices of every track nest. Each message received is a flow from its send to its
// receive; each FORCED discard an instant on the receiving node's program, and in a deadlocked run's report each
// blocked node's operation an instant where its program stuck.
#include <string_view>

#include "hcemu/report.hpp"
#include "report/trace_event_writer.hpp"

namespace hcemu::detail {

void write_run_tracks(TraceEventWriter& writer, const RunReport& run, std::string_view label, int pid);

}  // namespace hcemu::detail
