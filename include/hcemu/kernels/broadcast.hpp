#pragma once
// One-to-all broadcast: the root's m bytes to every node.
// Every kernel here is a collective: every node calls it, in the same order as its other collectives, and it
// talks in a tag space of its own (CollectiveScope, hcemu/node.hpp), so its messages never meet the caller's.
//
// Every node calls the kernel with the same `message` size and the same root; on the root `message` holds the
// data, on return every node's `message` holds it. A root other than 0 is the XOR translation of the root-0
// schedule (Stout & Wagar 1990 §2: "any algorithm for node 0 runs for node s by XOR-ing every node id with s").
// Every receive is posted before anything is sent, so the kernels also run under FORCED.
//
// The closed forms are in hcemu/model/collectives.hpp; docs/kernels/broadcast.md compares them with the emulator.
#include <cstddef>
#include <span>

#include "hcemu/node.hpp"

namespace hcemu::kernels {

// Binomial spanning tree (Johnsson & Ho 1987 §3.2, Stout & Wagar §2 BROADCAST 1): in step t = 0..d-1 every node
// that has the message sends it across dimension t, so the root's first send goes to the largest subtree. Made
// for one-port machines: d whole-message transfers, d(λ + δ' + δ + τm).
void sbt_broadcast(Node& node, std::span<std::byte> message, int root);

// Stout & Wagar §2 BROADCAST 2, for all-port machines: the message is cut into d packets (⌈m/d⌉ bytes first, then
// ⌊m/d⌋); packet i follows the binomial tree whose dimension order is i, i+1, ..., i+d-1 (mod d), so in every
// stage the d packets use d different dimensions: τm + dλ.
void symmetrized_broadcast(Node& node, std::span<std::byte> message, int root);

// Stout & Wagar §2 BROADCAST 3A, for all-port machines: the message is cut into d packets P_0..P_{d-1} of
// s = ⌈m/d⌉ bytes (the last padded); in stage k = 0..d only the nodes at distance k from the root send, one packet
// on each link: the root P_z across every z, a node n P_w down across each of its 1-bits w and P_{next_n(z)} up
// across each 0-bit z. Every node at distance k has its packets after stage k + 1 (the root's opposite corner after
// stage d - 1): (d + 1)(τs + λ) for d >= 2, τm + λ for d = 1.
void systolic_broadcast(Node& node, std::span<std::byte> message, int root);

// Stout & Wagar §2 BROADCAST 4, for all-port machines: the message is cut into `groups` groups of d packets of
// s = ⌈m/(d·groups)⌉ bytes (the last packets padded); group q runs the systolic wave BROADCAST 3A starting in stage
// q, the last group BROADCAST 3B, whose second wave takes the stage that a group `groups` would have used.
// (d + g - 1)(τs + λ). Throws UsageError unless 1 <= groups and d·groups packets can be numbered by an int.
void pipelined_broadcast(Node& node, std::span<std::byte> message, int root, int groups);

// n edge-disjoint spanning binomial trees (Johnsson & Ho §3.4), for all-port machines: piece k of the message
// (⌈m/d⌉ or ⌊m/d⌋ bytes) goes to root ^ 2^k and from there down a binomial tree with dimension order k+1, ...,
// k-1, k; the d trees share no directed link. Each piece is pipelined in chunks of at most `chunk` bytes
// (0: one chunk per piece).
void nesbt_broadcast(Node& node, std::span<std::byte> message, int root, std::size_t chunk);

}  // namespace hcemu::kernels
