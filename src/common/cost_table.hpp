#pragma once
// Internal picosecond arithmetic: the closed forms of src/model and the timing layer compute from it. Users predict
// a cost with the public functions of hcemu/model/costs.hpp, which compute from the same table.
#include <cstddef>
#include <string>

#include "hcemu/config.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/time.hpp"

namespace hcemu {

// docs/model.md §2 in exact time: every parameter rounded once to whole picoseconds. The timing layer and the
// closed forms both compute from this, so that the emulator and the model agree to the picosecond.
struct CostTable {
  Time lambda = 0, lambda0 = 0, tau = 0, delta_hop = 0, delta_msg = 0, rho = 0;
  Time barrier_a = 0, barrier_b = 0, flop = 0, sys_copy = 0;
  std::size_t packet = 0;

  static CostTable from(const MachineConfig&);

  Time startup(std::size_t bytes) const { return bytes == 0 ? lambda0 : lambda; }
  std::size_t packet_count(std::size_t bytes) const {
    return (packet == 0 || bytes == 0) ? 1 : (bytes + packet - 1) / packet;
  }
  // Size of packet `i` (0-based) of a message of `bytes`: all full but the last.
  std::size_t packet_bytes(std::size_t bytes, std::size_t i) const {
    if (packet == 0 || bytes == 0) return bytes;
    const std::size_t count = packet_count(bytes);
    return i + 1 < count ? packet : bytes - packet * (count - 1);
  }
  // docs/model.md §3, circuit: one packet over h hops holds its route for λ + δ' + δ·h + τ·L.
  Time circuit_packet(std::size_t bytes, int hops) const {
    return within_range(static_cast<Wide>(startup(bytes)) + delta_msg + static_cast<Wide>(delta_hop) * hops +
                        static_cast<Wide>(tau) * bytes);
  }
  // Until the first byte reaches the receiver: λ + δ' + δ·h.
  Time circuit_first_byte(std::size_t bytes, int hops) const { return startup(bytes) + delta_msg + delta_hop * hops; }
  // docs/model.md §3, store-and-forward: each hop of one packet is λ + τ·L on one link.
  Time hop_packet(std::size_t bytes) const {
    return within_range(static_cast<Wide>(startup(bytes)) + static_cast<Wide>(tau) * bytes);
  }
  Time copy(std::size_t bytes) const { return within_range(static_cast<Wide>(rho) * bytes); }

  // Every product of a per-byte time and a size is taken wide and checked: τ·L alone passes 2^63 for τ = 1e9 µs and a
  // few MiB.
  __extension__ typedef __int128 Wide;
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
