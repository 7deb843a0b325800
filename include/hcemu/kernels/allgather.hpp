#pragma once
// All-to-all broadcast (allgather, Stout & Wagar's "complete broadcast", Saad & Schultz's "total exchange"): every
// node's m bytes to every node.
// Every kernel here is a collective: every node calls it, in the same order as its other collectives, and it
// talks in a tag space of its own (CollectiveScope, hcemu/node.hpp), so its messages never meet the caller's.
//
// `all` holds 2^d blocks of m bytes, indexed by source node. On entry block `node.id()` holds this node's message
// (in place, as MPI_IN_PLACE: nothing is copied for it); on return every block holds its source's message.
//
// The closed forms are in hcemu/model/collectives.hpp; docs/kernels/allgather.md compares them with the emulator.
#include <cstddef>
#include <span>

#include "hcemu/node.hpp"

namespace hcemu::kernels {

// Recursive doubling (Johnsson & Ho 1987 §4.2, SBT-b(1,N)), made for one-port machines: in step i = 0..d-1 a
// pairwise exchange across dimension i of the 2^i blocks gathered so far, which lie next to each other in `all`.
// Σ_i T(2^i·m): (2^d - 1)τm + dλ.
void recursive_doubling_allgather(Node& node, std::span<std::byte> all, std::size_t m);

// Stout & Wagar (1990) §6 COMPLETE BROADCAST, for all-port machines: BROADCAST 2 run from every node at once,
// batched: in stage k each node sends on each link one packet of 2^k pieces of m/d bytes.
// (2^d - 1)τm/d + dλ, plus ρ·2^d·m to copy the node's own message into the relative working layout and every
// other message out of it (local work the paper counts as free).
void completed_allgather(Node& node, std::span<std::byte> all, std::size_t m);

}  // namespace hcemu::kernels
