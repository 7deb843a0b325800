#pragma once
// The even spreading of Stout & Wagar (1990) §3 O.C. SEND 3 made exact (include/hcemu/model/even_spread.hpp): the
// message is cut into L = lcm(1..n) units. The node at the corner holds all units in order; in stage k every node of
// C_k splits what it holds into n - k consecutive equal chunks, the i-th chunk to its i-th up-neighbour (ascending
// dimension), and every node of C_{k+1} holds the chunks of its k + 1 lower neighbours, concatenated in ascending
// order of the dimension that separates them. A node never has to rearrange what it received; only the far corner,
// which holds every unit but in another order, has to put them back in place.
#include <cstdint>
#include <vector>

namespace hcemu::kernels::detail {

// The order of the units as the far corner of the n-cube holds them: entry p is the index of the unit at position p.
// Identity for n <= 2.
std::vector<std::uint32_t> spread_final_order(int n);

}  // namespace hcemu::kernels::detail
