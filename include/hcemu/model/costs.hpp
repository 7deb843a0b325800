#pragma once
// The exact model time of each call a kernel makes on its node (docs/model.md §2 to §6), so that a user predicts a
// run to the picosecond without the emulator's internals. Each parameter of the config is rounded once to whole
// picoseconds (from_us) and then multiplied, as the emulator charges it: node.compute(n) costs n · from_us(flop),
// which is not from_us(n · flop) (flop = 1.5e-6 µs, n = 64: 64 · 2 ps = 128 ps, where from_us(9.6e-5) = 96 ps).
// Virtual and wall timing charge these; native timing charges nothing but the host's own time.
#include <cstddef>
#include <cstdint>

#include "hcemu/config.hpp"
#include "hcemu/model/transfer.hpp"  // one transfer: message_time, sender_hold, receiver_hold
#include "hcemu/time.hpp"

namespace hcemu::model {

// Node::compute(flops): t_a per flop, plus the fixed overhead of a call (compute_overhead, docs/model.md §14).
Time compute_time(const MachineConfig& config, std::uint64_t flops);

// docs/model.md §14: a transfer that holds a port (output or input) for `hold` frees it port_overlap·hold early for
// the node's next transfer (rounded down to whole picoseconds); 0 under ports = all, which has no shared port, and
// under LogGP.
Time port_overlap_time(const MachineConfig& config, Time hold);

// Node::copy of `bytes`, and Node::permute moving `bytes`: ρ per byte.
Time copy_time(const MachineConfig& config, std::size_t bytes);

// Node::barrier: every node leaves at the latest entry clock plus Q(d) = barrier_a + barrier_b·d, each rounded
// to picoseconds before the sum.
Time barrier_time(const MachineConfig& config);

// Under UNFORCED, a receive posted after its message's first byte arrived completes this much later than its
// transfer: the copy of `bytes` out of the system buffer (sys_copy per byte; docs/model.md §5).
Time late_receive_copy_time(const MachineConfig& config, std::size_t bytes);

}  // namespace hcemu::model
