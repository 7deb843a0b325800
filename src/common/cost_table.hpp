#pragma once
// Internal picosecond arithmetic: the closed forms of src/model and the timing layer compute from it. Users predict
// a cost with the public functions of hcemu/model/costs.hpp, which compute from the same table.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "hcemu/config.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/time.hpp"

namespace hcemu {

// docs/model.md §2 in exact time: every parameter rounded once to whole picoseconds. The timing layer and the
// closed forms both compute from this, so that the emulator and the model agree to the picosecond.
struct CostTable {
  // Every product of a per-byte time and a size is taken wide and checked: τ·L alone passes 2^63 for τ = 1e9 µs and a
  // few MiB.
  __extension__ typedef __int128 Wide;
  Time lambda = 0, lambda0 = 0, tau = 0, delta_hop = 0, delta_msg = 0, rho = 0;
  Time barrier_a = 0, barrier_b = 0, flop = 0, sys_copy = 0;
  Time lambda_short = 0, tau_short = 0;  // docs/model.md §13: packets of 1..short_limit bytes
  Time compute_overhead = 0, split_copy = 0;  // docs/model.md §14: per compute call; per byte of a split message
  std::size_t packet = 0, short_limit = 0;
  // docs/model.md §14: the share of a port hold that the node's next transfer may overlap, in millionths.
  static constexpr std::int64_t kOverlapUnit = 1000000;
  std::int64_t port_overlap = 0;

  static CostTable from(const MachineConfig&);

  bool is_short(std::size_t bytes) const { return bytes != 0 && bytes <= short_limit; }
  // A packet's start-up: λ0 for zero bytes, λs for 1..short_limit bytes (docs/model.md §13), λ otherwise.
  Time startup(std::size_t bytes) const { return bytes == 0 ? lambda0 : is_short(bytes) ? lambda_short : lambda; }
  // Whether a message of `bytes` is split into packets, and so pays split_copy on every byte (docs/model.md §14).
  bool is_split(std::size_t bytes) const { return packet != 0 && bytes > packet; }
  // A packet's time on a link: τ per byte, τs for a short packet, plus σ per byte when its message is `split`.
  Wide bytes_time(std::size_t bytes, bool split) const {
    return (static_cast<Wide>(is_short(bytes) ? tau_short : tau) + (split ? split_copy : Time{0})) *
           static_cast<Wide>(bytes);
  }
  // The largest start-up and per-byte time a packet may pay, for bounds.
  Time max_startup() const { return std::max({lambda, lambda0, short_limit != 0 ? lambda_short : Time{0}}); }
  std::size_t packet_count(std::size_t bytes) const {
    return (packet == 0 || bytes == 0) ? 1 : (bytes + packet - 1) / packet;
  }
  // Size of packet `i` (0-based) of a message of `bytes`: all full but the last.
  std::size_t packet_bytes(std::size_t bytes, std::size_t i) const {
    if (packet == 0 || bytes == 0) return bytes;
    const std::size_t count = packet_count(bytes);
    return i + 1 < count ? packet : bytes - packet * (count - 1);
  }
  // docs/model.md §3, circuit: one packet over h hops holds its route for λ + δ' + δ·h + τ·L (+ σ·L, §14, when
  // its message is `split`).
  Time circuit_packet(std::size_t bytes, int hops, bool split) const {
    return within_range(static_cast<Wide>(startup(bytes)) + delta_msg + static_cast<Wide>(delta_hop) * hops +
                        bytes_time(bytes, split));
  }
  // Until the first byte reaches the receiver: λ + δ' + δ·h.
  Time circuit_first_byte(std::size_t bytes, int hops) const { return startup(bytes) + delta_msg + delta_hop * hops; }
  // docs/model.md §3, store-and-forward: each hop of one packet is λ + τ·L on one link (+ σ·L, §14, when its
  // message is `split`).
  Time hop_packet(std::size_t bytes, bool split) const {
    return within_range(static_cast<Wide>(startup(bytes)) + bytes_time(bytes, split));
  }
  Time copy(std::size_t bytes) const { return within_range(static_cast<Wide>(rho) * bytes); }
  // docs/model.md §6 and §14: one Node::compute call of `flops`, t_a per flop plus the call's fixed overhead.
  Time compute(std::uint64_t flops) const {
    return within_range(static_cast<Wide>(flop) * flops + compute_overhead, "a computation");
  }
  // docs/model.md §14: how much earlier than the end of a hold of `hold` the port is free for the node's next
  // transfer: the overlap's share of it, rounded down to whole picoseconds.
  Time overlap(Time hold) const { return overlap_of(hold, port_overlap); }
  static Time overlap_of(Time hold, std::int64_t millionths) {
    if (millionths == 0) return 0;  // the default: no 128-bit division on every transfer's hold
    return static_cast<Time>(Wide{hold} * millionths / kOverlapUnit);
  }

  static Time within_range(Wide t, const char* what = "one transfer") {
    if (t > kTimeLimit)
      throw TimeOverflow(std::string(what) + " would take more than the model's range of 2^62 ps (about 53 days)");
    return static_cast<Time>(t);
  }
  // a + b and a·n for the closed forms, checked the same way (times within range, so neither can overflow Wide).
  static Time add(Time a, Time b) { return within_range(Wide{a} + b, "the case's closed form"); }
  static Time times(Time a, long long n) { return within_range(Wide{a} * n, "the case's closed form"); }
  Time barrier(int d) const { return barrier_a + barrier_b * d; }
};

}  // namespace hcemu
