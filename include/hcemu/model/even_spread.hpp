#pragma once
// The even spreading of Stout & Wagar (1990) §3, O.C. SEND 3, as hcemu's kernels cut a message to do it exactly.
//
// A message goes from corner 0 of an n-cube to the opposite corner 2^n - 1. In stage k the nodes at distance k
// (C_k, C(n, k) of them) hold the data evenly and each sends an equal share up each of its n - k links to C_{k+1}:
// every such link carries m / (n·C(n-1, k)) (the paper's τm/(C(d-1,k)·d) + β per stage). To make those shares whole,
// the message is cut into lcm(1..n) units of ⌈m / lcm(1..n)⌉ bytes, the last units padded with zeros: a link of stage
// k then carries lcm(1..n) / (n·C(n-1, k)) units (a whole number, since lcm(1..n) = n·lcm_k C(n-1, k)). When
// lcm(1..n) divides m there is no padding and the stage loads are the paper's.
//
// DISTRIBUTE 1 and 2 (§5) spread every message the same way, a message for a node at distance h through the h-cube
// it spans with node 0.
#include <cstddef>
#include <cstdint>

namespace hcemu::model {

// C(n, k); 0 when k < 0 or k > n.
std::uint64_t binomial(int n, int k);

// lcm(1, 2, ..., n); 1 for n <= 1.
std::size_t lcm_up_to(int n);

// The units a message crossing an n-cube is cut into: lcm(1..n) (1 for n = 0).
inline std::size_t spread_units(int n) { return lcm_up_to(n); }
// The bytes of one unit: ⌈m / lcm(1..n)⌉.
std::size_t spread_unit_bytes(std::size_t m, int n);
// The message with its padding: lcm(1..n)·⌈m / lcm(1..n)⌉.
inline std::size_t spread_padded_bytes(std::size_t m, int n) { return spread_units(n) * spread_unit_bytes(m, n); }
// The units one link carries in stage k = 0..n-1: lcm(1..n) / (n·C(n-1, k)).
std::size_t spread_edge_units(int n, int k);
// The bytes one link carries in stage k: spread_edge_units(n, k)·spread_unit_bytes(m, n).
inline std::size_t spread_edge_bytes(std::size_t m, int n, int k) {
  return spread_edge_units(n, k) * spread_unit_bytes(m, n);
}

// K_d = Σ_{k=0..d} 1/C(d, k) of Stout & Wagar §3, the factor of O.C. SEND 3's τm/d term (K_{d-1}). Its first values
// are 1, 2, 5/2, 8/3, 8/3, 13/5 (the printed "2 2/3" for d = 5 is an OCR slip: see docs/kernels/long_send.md).
double stout_wagar_k(int d);

}  // namespace hcemu::model
