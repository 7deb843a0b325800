#pragma once
// The LogGP model (Alexandrov, Ionescu, Schauser & Scheiman 1995) as hcemu applies it under switching = loggp
// (docs/model.md §12): its four parameters in exact time, one message's times, and the closed forms of a ping-pong,
// the Direct complete exchange and the binomial-tree broadcast. The timing layer computes every LogGP transfer from
// LogGP::from, so the emulator and these forms agree to the picosecond.
//
// With T(k) = 2o + L + (k-1)G, one k-byte message from the start of its send to the end of its receive, and
// P = 2^d, the forms below are the ones LogGP papers give for these patterns (docs/model.md §12 compares them with
// LogGOPSim's): the kernels never let a node's o, g or G hold up its next message when g <= 2o + L, which the key
// loggp_gap requires.
#include <cstddef>

#include "hcemu/config.hpp"
#include "hcemu/time.hpp"

namespace hcemu::model {

// L, o, g, G rounded once to whole picoseconds (hcemu::from_us), as the timing layer rounds them.
struct LogGP {
  Time L = 0, o = 0, g = 0, G = 0;

  static LogGP from(const MachineConfig& config);

  // (k-1)G: the bytes after the first. A message of no bytes is sent as a one-byte one would be (LogP's short
  // message). Throws TimeOverflow past the model's range, as every time below.
  Time bytes_after_first(std::size_t bytes) const;
  // How long a message holds its sender's output and its receiver's input: max(o, g + (k-1)G), the wait before
  // the node's next send (or next receive) may start.
  Time hold(std::size_t bytes) const;
  // T(k) = o + (k-1)G + L + o: from the start of the send to the end of its receive, on free ports.
  Time message(std::size_t bytes) const;
};

// Node 0 sends `bytes` to `partner` and receives as many back, `round_trips` times; the partner receives, then
// sends: 2·round_trips·T(k), the LogGP round trip 2L + 4o + 2(k-1)G each. Nothing changes with the port model.
Time loggp_ping_pong_time(const MachineConfig& config, std::size_t bytes, int round_trips = 1);

// kernels::direct_exchange (Bokhari 1993 §2.2) of m-byte blocks: P - 1 steps, each one send and one receive per
// node, (P - 1)·T(m). Under `half` ports a node's receive waits for its own send to leave the shared port:
// (P - 1)·max(T(m), 2·hold(m)).
Time loggp_direct_exchange_time(const MachineConfig& config, std::size_t m);

// kernels::sbt_broadcast (Johnsson & Ho 1987 §3.2): the node farthest from the root, 2^d - 1 relative to it, gets
// the message over d sends that each come first in their sender's order, d·T(m) = log2(P)·(2o + L + (m-1)G).
// Every other node is served earlier: a node's i-th send starts i·hold(m) after its receive, and hold(m) <= T(m).
Time loggp_binomial_broadcast_time(const MachineConfig& config, std::size_t m);

}  // namespace hcemu::model
