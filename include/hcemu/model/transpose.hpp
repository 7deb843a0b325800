#pragma once
// Closed forms of the matrix transposes in hcemu::kernels (include/hcemu/kernels/transpose.hpp).
// Local rearrangement is charged ρ per byte in hcemu; the papers count it as free, so ρ = 0 gives their formulas.
#include <cstddef>
#include <optional>

#include "hcemu/config.hpp"
#include "hcemu/time.hpp"

namespace hcemu::model {

// Row-distributed n x n matrix of `element_bytes` elements, n/2^d rows per node: a complete exchange of blocks of
// m = (n/2^d)^2·element_bytes (Stout & Wagar §7.1; Nicol & Bokhari Figure 1) between two local permutations of
// all 2^d·m bytes (packing the transposed sub-blocks, then unpacking them into rows):
// exchange + 2ρ·2^d·m. `exchange` is the exchange's own closed form for that m.
Time row_transpose_time(const MachineConfig& config, std::size_t n, std::size_t element_bytes, Time exchange);

// The block size m of the row transpose's exchange: (n/2^d)^2·element_bytes.
std::size_t row_transpose_block_bytes(int d, std::size_t n, std::size_t element_bytes);

// Johnsson & Ho (1987) §4.6, square grid 2^(d/2) x 2^(d/2), one-port: 2·log2(2^(d/2)) = d
// nearest-neighbour steps each moving one whole block B = (n/2^(d/2))^2·element_bytes, then one local transpose:
// d·t(B) + ρ·B, t = one-hop message_time (the paper's d(B·t_c + τ) with B ≤ B_m). Holds for every port model,
// since each node sends or receives one block per step. nullopt for odd d.
std::optional<Time> johnsson_ho_transpose_time(const MachineConfig& config, std::size_t n, std::size_t element_bytes);

// The block each node of the grid holds: (n/2^(d/2))^2·element_bytes.
std::size_t grid_block_bytes(int d, std::size_t n, std::size_t element_bytes);

// Stout & Wagar (1990) §7.2, MATRIX TRANSPOSITION stored by submatrices, as
// kernels::stout_wagar_transpose runs it with P = `packets` packets per physical link, all-port. Every directed link
// carries the half block H = B/2 as P packets L_0 <= ... <= L_(P-1) (nearly equal, smaller first), back to back;
// intermediates forward each one slot behind, so the last packet arrives after
//   Σ_j t(L_j) + t(L_(P-1)),  t = the one-hop message_time (λ + τL store-and-forward; λ + δ' + δ + τL circuit),
// plus ρB to stage the block and ρB for the local transpose (d = 0: the local transpose alone, ρB). When 2P divides
// B this is (P + 1)·t(B/(2P)): with t = τL + β it is the paper's L.C. INVERSION time (kp + 1)(τm/(2kp) + β), m = B,
// and at the paper's optimum kp = sqrt(τm/(2β)) its τN²/2^(d+1) + 2·sqrt(βτ/2^(d+1))·N + β (N² = 2^d·m).
// nullopt for odd d, ports other than `all` (d > 0), odd B, packets < d, and where a packet could wait for its
// data (the formula assumes none does): unless H = 0 it needs H >= d/2, 2·ceil(H/P) <= floor(H/(d/2)) (the paper's
// p >= 2 packets per stage, rounded) and t(floor(H/P)) <= t(ceil(H/P)).
std::optional<Time> stout_wagar_transpose_time(const MachineConfig& config, std::size_t n, std::size_t element_bytes,
                                               int packets);

// The packet count, between d and max(d, 64), for which stout_wagar_transpose_time is least (among those it gives a
// time for; the paper's optimum kp = sqrt(τm/(2β)) rounded into that range when it gives none). 0 for d = 0.
int stout_wagar_packets(const MachineConfig& config, std::size_t n, std::size_t element_bytes);

}  // namespace hcemu::model
