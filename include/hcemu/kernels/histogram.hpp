#pragma once
// Histogram (Stout & Wagar 1990 §8), a reduce-scatter: every node counts its own values into `bins` bins, and node
// i ends with the global counts of its block of bins, [i·b, min((i+1)·b, bins)) with b = ⌈bins/2^d⌉ (the paper's
// bins i·m/2^d .. (i+1)·m/2^d - 1 when 2^d divides the number of bins).
// Every kernel here is a collective: every node calls it, in the same order as its other collectives, and it
// talks in a tag space of its own (CollectiveScope, hcemu/node.hpp), so its messages never meet the caller's.
//
// Value v counts in bin v mod bins. Counts are 32-bit: the paper's unit-length item is kHistogramBinBytes = 4
// bytes. `owned` must hold model::histogram_owned_bins(d, bins, id) counts. Counting a value charges one flop,
// adding a received count to one's own another (Node::compute); the paper counts local work as free, so t_a = 0
// gives its times.
//
// When 2^d (recursive halving) or d·2^d (symmetrized) does not divide the bins, every block is padded with empty
// bins to that multiple and the padding travels with the data: the messages keep one size, and the times stay
// those of the closed forms in hcemu/model/collectives.hpp with bins rounded up.
#include <cstddef>
#include <cstdint>
#include <span>

#include "hcemu/node.hpp"

namespace hcemu::kernels {

// Recursive halving (Stout & Wagar §8, the unsymmetric version), made for one-port machines: stage k = 1..d
// exchanges with the neighbour across dimension d - k the half of the still-held blocks that the neighbour's side
// owns, and adds what arrives: Σ_k T(4·bins/2^k), (1 - 2^-d)·4τ·bins + dλ.
void recursive_halving_histogram(Node& node, std::span<const std::uint32_t> values, std::size_t bins,
                                 std::span<std::uint32_t> owned);

// Stout & Wagar §8 HISTOGRAM, for all-port machines: every block is cut into d sub-blocks; sub-block group g runs
// recursive halving through dimensions g-1, g-2, ... (mod d), so that in each stage the d groups use d different
// links: Σ_s T(4·bins/(d·2^s)), (1 - 2^-d)·4τ·bins/d + dλ.
void symmetrized_histogram(Node& node, std::span<const std::uint32_t> values, std::size_t bins,
                           std::span<std::uint32_t> owned);

}  // namespace hcemu::kernels
