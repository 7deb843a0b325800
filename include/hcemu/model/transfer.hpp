#pragma once
// Closed-form times of single transfers (docs/model.md §3 and §4), the building blocks of every kernel's
// prediction. The emulator's timing layer applies the same rules transfer by transfer, so on free resources
// the two agree to the picosecond. The other costs of a node's calls (compute, copy, barrier) are in
// hcemu/model/costs.hpp.
#include <cstddef>

#include "hcemu/config.hpp"
#include "hcemu/time.hpp"

namespace hcemu::model {

// From the start of a message of `bytes` over `hops` hops, on free resources, to the end of its arrival, with the
// config's switching (docs/model.md §3). circuit: its packets back to back, each λ + δ' + δ·h + τ·L.
// store_and_forward: packet p takes hop i when it has fully arrived from hop i-1 and packet p-1 has left the link:
// end[p][i] = max(end[p][i-1], end[p-1][i]) + λ + τ·L_p.
Time message_time(const MachineConfig& config, std::size_t bytes, int hops);

// How long the message holds the sender's output resource: circuit, the whole message; store-and-forward,
// all its packets' first hops. A blocking send returns this long after the transfer starts.
Time sender_hold(const MachineConfig& config, std::size_t bytes, int hops);

// How long the message holds the receiver's input resource: circuit, the whole message; store-and-forward,
// all its packets' last hops.
Time receiver_hold(const MachineConfig& config, std::size_t bytes, int hops);

// A pairwise exchange of `bytes` each way with a partner `hops` away, both starting at the same moment on
// free resources, as Node::exchange does it: one transfer time with full-duplex ports (one, k:N, all), and
// under `half` the receive waits for the node's own send to leave the port.
Time pairwise_exchange_time(const MachineConfig& config, std::size_t bytes, int hops);

// Whether the closed forms built on these times (every kernel's prediction and lower bound) describe the machine:
// they are written for circuit and store-and-forward switching, and under switching = loggp (docs/model.md §12) they
// do not; hcemu/model/loggp.hpp holds LogGP's own.
inline bool transfer_forms_apply(const MachineConfig& config) { return config.switching != Switching::loggp; }

}  // namespace hcemu::model
