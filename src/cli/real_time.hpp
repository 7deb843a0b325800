#pragma once
// Runs under wall or native timing, where a node's clock is partly or wholly the host's own time (docs/model.md §8):
// what keeps a FORCED machine from losing messages there, what to say when it still does, and which of the model's
// columns still apply.
#include <string>
#include <string_view>

#include "cli/config_builder.hpp"

namespace hcemu::cli {

// Under wall or native timing a FORCED machine (docs/model.md §5) loses a message whenever the sender's host thread
// runs ahead of the receiver's post by more than the model's margin between a send and its arrival (native has
// none: every cost is zero), and the kernel waiting for it deadlocks. Unless the command line set the protocol
// (`protocol_given`), such a machine runs UNFORCED. Returns the note that says so (empty when nothing changed).
std::string make_forced_safe_in_real_time(MachineFamily& family, bool protocol_given);

// The options that avoid a FORCED loss under wall or native timing, as a sentence to append to the error of a run
// that deadlocked or lost messages; empty under virtual timing or UNFORCED, where a loss is the model's own.
std::string real_time_forced_fix(const MachineConfig& config, const EmulatorSettings& settings);

// Native timing measures the host's own threads and queues, which the configured machine's closed forms and lower
// bounds do not describe: a run under it has neither, and the fastest row is the fastest measured. (Wall timing runs
// the configured machine's rules in real time, so its predictions stand.)
bool measures_the_host(const EmulatorSettings& settings);
inline constexpr std::string_view kNoModelUnderNativeTiming =
    "native timing measures the host, which the configured machine's closed forms and lower bounds do not describe";

}  // namespace hcemu::cli
