#pragma once
// Transpose of an n x n matrix of `element_bytes`-byte elements distributed over the nodes.
// Every kernel here is a collective: every node calls it, in the same order as its other collectives, and it
// talks in a tag space of its own (CollectiveScope, hcemu/node.hpp), so its messages never meet the caller's.
#include <cstddef>
#include <functional>
#include <span>

#include "hcemu/kernels/exchange.hpp"
#include "hcemu/node.hpp"

namespace hcemu::kernels {

// Any complete exchange of exchange.hpp (send, recv, m), e.g. a lambda around multiphase_exchange.
using ExchangeFn = std::function<void(Node&, std::span<const std::byte>, std::span<std::byte>, std::size_t)>;

// Row distribution (Nicol & Bokhari 1994 Figure 1; Stout & Wagar 1990 §7.1): node p holds rows
// [p·n/2^d, (p+1)·n/2^d) of the matrix, row-major, in `rows`; on return `out` holds the same rows of the transpose.
// Node p packs the sub-block (its rows) x (the columns of node q), transposed, as block q (one permutation of its
// share, charged ρ); `exchange` delivers block q to q; node q unpacks the blocks into its rows (a second
// permutation). n must be a multiple of 2^d.
void row_transpose(Node& node, std::span<const std::byte> rows, std::span<std::byte> out, std::size_t n,
                   std::size_t element_bytes, const ExchangeFn& exchange);

// Block (checkerboard) distribution on a 2^c x 2^c grid, d = 2c: node a·2^c + b holds block M_{a,b} (rows
// [a·n/2^c, ...), columns [b·n/2^c, ...)), row-major, in `block`; on return `out` holds (M^T)_{a,b} = (M_{b,a})^T.
// Johnsson & Ho (1987) §4.6, one-port: for each bit i of the grid coordinates, the nodes whose row and column bit
// i differ send their block across the row dimension i + c to a node whose two bits agree, which forwards it across
// the column dimension i: the block has swapped bit i of its row and column coordinates. 2c = d steps of one
// block each, then the local transpose. Throws UsageError for odd d.
void johnsson_ho_transpose(Node& node, std::span<const std::byte> block, std::span<std::byte> out, std::size_t n,
                           std::size_t element_bytes);

// The same block distribution and result, for all-port (link-bound) machines: Stout & Wagar (1990) §7.2, MATRIX
// TRANSPOSITION (stored by submatrices), L.C. INVERSION on every logically connected subcube at once. The nodes
// whose grid coordinates differ in the same k bit positions (and agree elsewhere) form a k-dimensional subcube
// whose logical links are pairs of length-2 paths; the transpose is an INVERSION in each, its k stages pipelined
// as one stream per physical link cut into `packets` packets (the paper's kp), intermediates forwarding each
// packet one send behind. Every directed link carries `packets` packets of about m/2/packets bytes (m the block),
// so under all-port the time is (packets + 1) one-hop packet times, plus ρ for staging the block and for the local
// transpose (model::stout_wagar_transpose_time). Correct under every port model. Throws UsageError for odd d, or
// for packets < d (the paper's p >= 2 packets per stage) when d > 0.
void stout_wagar_transpose(Node& node, std::span<const std::byte> block, std::span<std::byte> out, std::size_t n,
                           std::size_t element_bytes, int packets);

}  // namespace hcemu::kernels
