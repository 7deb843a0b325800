#pragma once
// Suh, Shin & An's complete exchange on a 2^d x 2^d torus: T1 (3d - 3 start-ups, §3.1), T2 (3·2^(d-2), §3.2) and
// the configurable T1.x (§4; T1.1 and, as docs/kernels/torus.md reads it, x >= 2). One family: T2 is x = 0, T1 is
// x = d - 3 (hcemu/model/torus_exchange.hpp has the schedule and the data rule, hcemu/model/torus_exchange_cost.hpp
// the time).
//
// Buffers as for every complete exchange (kernels/exchange.hpp): `send` holds node.size() blocks of m bytes, block j
// for node j; on return block i of `recv` is the block node i addressed to this node. Node (x, y) of the torus is
// node id y·2^d + x (docs/model.md §1), and `shape` must be that square torus with shape.nodes() == node.size().
//
// Each step is a pairwise exchange, or a one-way send (the concentration steps and the send phase), with the
// step's partner, carrying the blocks the data rule says in canonical order. The node keeps its blocks in a pool
// of its arena: it copies `send` in first (ρ per byte), packs every outgoing message with `permute` (ρ per byte)
// and gathers `recv` out of the pool at the end (ρ per byte); received messages land in the pool where they are.
// options.sync applies to every step (Nicol & Bokhari 1994 §4):
//   none: every receive of the whole exchange is posted before the first step, and the steps run as soon as their
//         messages allow (they may overlap, and contend, unlike the paper's synchronous steps);
//   barrier: the step's receive is posted, then a global barrier, then the transfer;
//   pairwise: as barrier, and a zero-byte exchange with the step's partner before the transfer.
// Each exchange is a collective with a tag space of its own (CollectiveScope, hcemu/node.hpp).
#include <cstddef>
#include <span>

#include "hcemu/kernels/exchange.hpp"
#include "hcemu/model/torus.hpp"
#include "hcemu/node.hpp"

namespace hcemu::kernels {

using model::TorusShape;

// T1: the fewest start-ups (x = d - 3 for d >= 4; for d <= 3 T1 is T2).
void torus_t1_exchange(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m,
                       const TorusShape& shape, const ExchangeOptions& options = {});

// T2: every node active, no send phase, the fewest bytes (x = 0).
void torus_t2_exchange(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m,
                       const TorusShape& shape, const ExchangeOptions& options = {});

// T1.x, 0 <= x <= max(0, d - 3): x concentration phases (data gathered onto SG_(x+1)(1), a 2^-x fraction of the
// nodes), then T2's turn-taking among those nodes, then an x-step send phase. Throws UsageError for another x.
void torus_t1x_exchange(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m, int x,
                        const TorusShape& shape, const ExchangeOptions& options = {});

}  // namespace hcemu::kernels
