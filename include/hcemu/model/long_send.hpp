#pragma once
// Closed forms of the long-message sends of include/hcemu/kernels/long_send.hpp: one node's m bytes to one other
// node, Stout & Wagar (1990) §3 (opposite-corner sends) and §4 (arbitrary sends). docs/kernels/long_send.md derives
// each one and compares it with the emulator.
//
// n is the distance between source and destination (popcount(src ^ dst)); the opposite corner of the paper is
// n = d. T(L) is one L-byte message to a neighbour, model::message_time(L bytes, 1 hop): λ + τL per packet under
// store-and-forward, λ + δ' + δ + τL under circuit; Stout & Wagar's packet time τL + β is T(L) with β = λ
// (store-and-forward, δ = δ' = 0). The spread sends cut the message into units (model/even_spread.hpp) and end with
// one local copy of the m bytes into place at the destination, charged ρ·m (free in the paper).
//
// A form written for all-port (link-bound) nodes returns nullopt on the other port models: the kernels still run
// there, but the paper gives no time for them.
#include <cstddef>
#include <optional>

#include "hcemu/config.hpp"
#include "hcemu/time.hpp"

namespace hcemu::model {

// popcount(src ^ dst).
int pair_distance(int src, int dst);

// The plain send: one message over n hops, routed by the machine (e-cube). Holds for every port model.
Time direct_send_time(const MachineConfig& config, std::size_t m, int n);

// O.C. SEND 1 (§3): the whole message crosses the n dimensions one stage each, forwarded by the kernel: n·T(m),
// dτm + dβ for n = d. Holds for every port model.
Time oc_send_1_time(const MachineConfig& config, std::size_t m, int n);

// O.C. SEND 2 (§3): n packets (⌈m/n⌉ or ⌊m/n⌋ bytes) on n link-disjoint paths, packet i crossing dimensions i, i+1,
// ... (mod n): n·T(⌈m/n⌉), τm + nβ when n divides m; empty packets are not sent (0 for m = 0). All-port.
std::optional<Time> oc_send_2_time(const MachineConfig& config, std::size_t m, int n);

// The unit of O.C. SEND 3/4 with g groups: ⌈m / (g·lcm(1..n))⌉ bytes; a group is lcm(1..n) units.
std::size_t oc_send_unit_bytes(std::size_t m, int n, int groups);

// O.C. SEND 4 (§3, and ARBITRARY SEND 1 of §4 at distance n < d): g groups of O.C. SEND 3, each started when the
// previous one's first stage has left the source. Stage k of a group puts ℓ_k = spread_edge_units(n, k)·u bytes on
// each link (u = oc_send_unit_bytes); stage 0 is the longest and sets the pace:
//   (g - 1)·T(ℓ_0) + Σ_{k<n} T(ℓ_k) + ρ·m,
// which is (g + K_{n-1} - 1)·τm/(ng) + (g + n - 1)β when g·lcm(1..n) divides m and ρ = 0. All-port.
std::optional<Time> oc_send_4_time(const MachineConfig& config, std::size_t m, int n, int groups);
// O.C. SEND 3 (§3) is O.C. SEND 4 with one group: Σ_k T(ℓ_k) + ρm, K_{n-1}·τm/n + nβ. All-port.
std::optional<Time> oc_send_3_time(const MachineConfig& config, std::size_t m, int n);
// The g >= 1 of least oc_send_4_time (the fewest such; 1 for n <= 1). The paper's optimum
// sqrt((K_{n-1} - 1)·τm / (nβ)) ignores the padding to g·lcm(1..n) units, and rounding it can miss by a lot (d = 6,
// β = 20, τ = 1, m = 6000: it gives 9, 1552 µs; 10 takes 1460): the search reads the closed form itself, at the least
// g of each unit ⌈m / (g·lcm(1..n))⌉ (for one unit, more groups only cost), so it looks at O(sqrt(m)) values.
int optimal_oc_send_groups(const MachineConfig& config, std::size_t m, int n);

// X.O.C. SEND 2 (§4) with g groups (X.O.C. SEND 1 is g = 1), for 1 <= n <= d - 1: the source hands each group of
// G = lcm(1..n)·u bytes across a dimension j outside src ^ dst to the corner of a parallel n-cube, O.C. SEND 3
// carries it to the opposite corner, which hands it across j to the destination. The entry hop T(G) sets the pace:
//   (g + 1)·T(G) + Σ_{k<n} T(ℓ_k) + ρ·m,
// which is (gn + n + K_{n-1})·τm/(gn) + (g + n + 1)β in the paper's terms. nullopt for n = 0 or n = d (no
// dimension to step out along), or ports other than all.
std::optional<Time> xoc_send_time(const MachineConfig& config, std::size_t m, int n, int groups);
// The g >= 1 of least xoc_send_time, searched as optimal_oc_send_groups does (the paper's optimum is
// sqrt((n + K_{n-1})·τm / (nβ)), without the padding).
int optimal_xoc_send_groups(const MachineConfig& config, std::size_t m, int n);

// ARBITRARY SEND 2 (§4): BROADCAST 4 (Stout & Wagar §2, g groups of d packets of s = ⌈m/(dg)⌉ bytes) stopped once
// the destination has the message: it has it after n + g + 1 stages for 1 <= n <= d - 2 and after d + g - 1 for
// n >= d - 1, each stage one packet time: stages·T(s). 0 for n = 0. All-port.
std::optional<Time> arbitrary_send_2_time(const MachineConfig& config, std::size_t m, int n, int groups);
// The stage count above.
int arbitrary_send_2_stages(int d, int n, int groups);
// The g in [1, ⌈m/d⌉] of least arbitrary_send_2_time, searched as optimal_oc_send_groups does over the packet
// ⌈m/(dg)⌉ (the paper's optimum: sqrt((n + 1)τm/(dβ)) for 1 <= n <= d - 2, sqrt((d - 1)τm/(dβ)) for n >= d - 1).
int optimal_arbitrary_send_2_groups(const MachineConfig& config, std::size_t m, int n);

// ARBITRARY SEND 3 (§4): the message is cut into d parts (⌈m/d⌉ or ⌊m/d⌋ bytes); parts 0..n-1 together go by
// O.C. SEND 4 with `groups` groups through the n-cube spanned by src ^ dst, each other part by X.O.C. SEND 2 with
// `xoc_groups` groups through its own parallel n-cube, all on disjoint links at once:
//   max(O.C. SEND 4 of the n parts, X.O.C. SEND 2 of each other part) + ρ·m
// (the destination puts all units in place once, at the end). All-port.
std::optional<Time> arbitrary_send_3_time(const MachineConfig& config, std::size_t m, int n, int groups,
                                          int xoc_groups);
// The bytes of the O.C. part and of the largest X.O.C. part.
std::size_t arbitrary_send_3_oc_bytes(int d, std::size_t m, int n);
std::size_t arbitrary_send_3_xoc_bytes(int d, std::size_t m, int n);

// The exchanges of kernels::oc_exchange and arbitrary_exchange (§3, §4): both sends at once, on disjoint directed
// links, each destination putting its units in place at its own node: one send's time. All-port.
inline std::optional<Time> oc_exchange_time(const MachineConfig& config, std::size_t m, int n, int groups) {
  return oc_send_4_time(config, m, n, groups);
}
inline std::optional<Time> arbitrary_exchange_time(const MachineConfig& config, std::size_t m, int n, int groups,
                                                   int xoc_groups) {
  return arbitrary_send_3_time(config, m, n, groups, xoc_groups);
}

}  // namespace hcemu::model
