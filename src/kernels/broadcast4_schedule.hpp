#pragma once
// The schedule of Stout & Wagar's (1990) §2 BROADCAST 4 (groups of BROADCAST 3A waves, the last group 3B), shared by
// the broadcasts BROADCAST 4 and 3A (broadcast_pipelined.cpp) and by ARBITRARY SEND 2 (long_send_broadcast.cpp),
// which is BROADCAST 4 stopped once the destination has every packet. Addresses are relative to the root; see
// broadcast_pipelined.cpp for the schedule itself and docs/kernels/broadcast.md for why it is conflict-free.
#include <algorithm>
#include <bit>
#include <climits>
#include <cstdint>
#include <vector>

#include "broadcast_cube.hpp"

namespace hcemu::kernels::detail {

struct Broadcast4Step {
  int stage;
  int packet;  // group q, index i: q·d + i
};

struct Broadcast4Arrival {
  int stage = INT_MAX;
  int dim = -1;
};

// How the last group ends: BROADCAST 3B (BROADCAST 4's choice, one stage fewer) or 3A like the others, which
// with one group is BROADCAST 3A itself, d + 1 stages.
enum class LastWave { b3, a3 };

// The stages of the schedule: d + g - 1, or d + g with the last group in 3A.
inline int broadcast4_stages(int d, int g, LastWave last = LastWave::b3) { return d + g - (last == LastWave::b3); }

// Every packet that node u (relative to the root) sends across dimension `dim` in the paper's schedule, repeats
// included.
inline void broadcast4_sends(std::uint32_t u, int dim, int d, int g, std::vector<Broadcast4Step>& out,
                             LastWave last = LastWave::b3) {
  out.clear();
  const int j = std::popcount(u);
  const bool down = (u & dim_bit(dim)) != 0;
  const int index = (u == 0 || down) ? dim : next_one(u, dim, d);
  const bool b3 = last == LastWave::b3;
  for (int q = 0; q < g; ++q) {
    if (b3 && q == g - 1 && j == d) continue;  // the stage d that BROADCAST 3B drops
    out.push_back({q + j, q * d + index});
  }
  if (b3 && j <= d - 2) out.push_back({g + j, (g - 1) * d + (index + 1) % d});  // 3B's second wave, on Q_index
}

// For every packet, the first stage (and link) in which the schedule delivers it to node v; none for the root.
inline std::vector<Broadcast4Arrival> broadcast4_first_arrivals(std::uint32_t v, int d, int g,
                                                                LastWave last = LastWave::b3) {
  std::vector<Broadcast4Arrival> first(static_cast<std::size_t>(d * g));
  if (v == 0) return first;
  std::vector<Broadcast4Step> steps;
  for (int e = 0; e < d; ++e) {
    broadcast4_sends(v ^ dim_bit(e), e, d, g, steps, last);
    for (const Broadcast4Step& s : steps) {
      Broadcast4Arrival& a = first[static_cast<std::size_t>(s.packet)];
      if (s.stage < a.stage) a = {s.stage, e};
    }
  }
  return first;
}

}  // namespace hcemu::kernels::detail
