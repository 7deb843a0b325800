#pragma once
// Reductions over real values: Johnsson & Ho (1987) §4.5, "one-to-all reduction is the reverse of broadcast on the
// SBT", and the all-to-all reduction, "the reverse of all-to-all broadcast", which their matrix multiplications use
// to sum partial products (§5.1, algorithm 4; §5.2, algorithms 2-5).
//
// The operation is any associative and commutative one on blocks of doubles (a sum by default, or max, min, ...):
// `combine(into, from)` sets into[k] = into[k] ⊕ from[k]. The kernels combine in the order their trees deliver,
// which is not the order of node ids, so the operation must not depend on the order of its operands. Every combine
// of b elements charges flops_per_element·b flops (Node::compute, t_a each).
//
// The closed forms are in hcemu/model/primitives.hpp; docs/kernels/reduction.md describes them.
//
// Every kernel here is a collective: every node calls it, in the same order as its other collectives, and it
// talks in a tag space of its own (CollectiveScope, hcemu/node.hpp), so its messages never meet the caller's.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

#include "hcemu/kernels/subcube.hpp"
#include "hcemu/node.hpp"

namespace hcemu::kernels {

using Combine = std::function<void(std::span<double> into, std::span<const double> from)>;

// into[k] += from[k].
void add_into(std::span<double> into, std::span<const double> from);

struct Reduction {
  Combine combine = add_into;
  std::uint64_t flops_per_element = 1;
};

// One-to-all reduction (the reverse binomial spanning tree, SBT-b(1,1) backwards): every node passes `data`, the
// same number of elements everywhere; on return the root's `data` holds the combination of all nodes' data (the
// others' `data` is used as workspace). Node r (relative to the root) takes the partial results of its children
// r ^ 2^t, t = d-1 down to h(r) + 1, then sends its own up across h(r): d steps of one message and one combine,
// d·(T(8b) + t_a·f·b), on every port model.
void sbt_reduce(Node& node, std::span<double> data, int root, const Reduction& reduction = {});

// All-to-all reduction (reduce-scatter) by recursive halving, inside `cube` (SBT-b(1,N) backwards, as in the
// paper's algorithm 4 code): `data` holds 2^dims blocks of `block` doubles, block j this node's contribution to the
// node of coordinate j; on return `out` (block doubles) holds the combination of every node's block for this one.
// Step k = 1..dims exchanges, across the subcube's dimension dims - k, the half of the blocks still held that belong
// to the other side, and combines the half that arrives into the half kept: Σ_k [pairwise exchange of
// 8·block·2^(dims-k) bytes + t_a·f·block·2^(dims-k)]. `data` is used as workspace.
void recursive_halving_reduce_scatter(Node& node, std::span<double> data, std::size_t block, std::span<double> out,
                                      const Reduction& reduction = {}, Subcube cube = {});

// All-to-all reduction along N translated Spanning Balanced n-Trees (SBnT-b(n,N) backwards), for all-port machines,
// inside `cube`: the partial block for destination t climbs t's tree, deepest nodes first; a node adds what its
// children in t's tree sent before passing the sum to its parent. In step s = 1..n port i carries
// model::sbnt_broadcast_loads(n)[n - s][i] blocks. Each block sent is packed with Node::copy (ρ·8·block), each block
// received combined into the node's partial sum (t_a·f·block). Same buffers as above.
void sbnt_reduce_scatter(Node& node, std::span<double> data, std::size_t block, std::span<double> out,
                         const Reduction& reduction = {}, Subcube cube = {});

// The two all-to-all reductions summing blocks of 4-byte floats, one addition (flop) per element combined: the
// matrix multiplications in the single precision of Johnsson & Ho's iPSC code (docs/kernels/matmul.md, Units).
// Blocks of `block` floats, otherwise as above.
void recursive_halving_reduce_scatter(Node& node, std::span<float> data, std::size_t block, std::span<float> out,
                                      Subcube cube = {});
void sbnt_reduce_scatter(Node& node, std::span<float> data, std::size_t block, std::span<float> out,
                         Subcube cube = {});

}  // namespace hcemu::kernels
