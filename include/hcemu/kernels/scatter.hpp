#pragma once
// Scatter and gather: one node's distinct block for every node, and back. Stout & Wagar (1990) §5 call them
// distributing and collecting (Saad & Schultz "scatter", Ho & Johnsson "personalized communication"); Johnsson &
// Ho (1987) §4.3 one-to-all personalized communication.
//
// Scatter: on the root `blocks` holds 2^d blocks of m bytes, block t for node t (other nodes may pass an empty
// span); on return every node's `block` (m bytes; every node passes one, which gives m) holds its block. Gather: every
// node's `block` holds its m bytes; on return the root's `blocks` holds them, block t from node t. The root's own
// block is copied without a ρ charge (it does not travel). A root other than 0 is the XOR translation of the root-0
// schedule. Every receive is posted before anything is sent, so all of them also run under FORCED.
//
// The closed forms are in hcemu/model/scatter.hpp; docs/kernels/scatter.md compares them with the emulator.
//
// Every kernel here is a collective: every node calls it, in the same order as its other collectives, and it
// talks in a tag space of its own (CollectiveScope, hcemu/node.hpp), so its messages never meet the caller's.
#include <cstddef>
#include <span>

#include "hcemu/node.hpp"

namespace hcemu::kernels {

// DISTRIBUTE 1 (Stout & Wagar §5), for all-port machines: the message for a node at distance h goes by O.C. SEND 3
// through the h-cube it spans with the root, spread evenly (lcm(1..h) units, padded), starting in stage d - h so that
// every message arrives in stage d - 1; in each stage a node batches, per link, everything that crosses it (one
// packet, packed at ρ per byte). (2^d - 1)τm/d + dβ when the units divide m and ρ = 0.
void distribute_1(Node& node, std::span<const std::byte> blocks, std::span<std::byte> block, int root = 0);

// DISTRIBUTE 2 (§5), for all-port machines: the root sends the classes in k (about d/log2 d) waves instead of d, the
// farthest classes first; at distance 1 each wave is cut into one wavelet per class, farthest first, and each
// wavelet continues like DISTRIBUTE 1. (2^d - 1)τm/d + kβ once m is large enough for the wavelets to clear distance 1
// before the next wave arrives (model::distribute_2_waves says which classes each wave carries).
void distribute_2(Node& node, std::span<const std::byte> blocks, std::span<std::byte> block, int root = 0);

// SBT-p (Johnsson & Ho §4.3, SBT-p(1,1) of Table 3), made for one-port machines: recursive halving; the root first
// sends the 2^(d-1) blocks of the far half-cube across dimension d-1, and every node that has 2^e blocks passes on
// half of them across dimension e - 1: Σ_i T(2^i·m), (N - 1)M·t_c + nτ.
void sbt_scatter(Node& node, std::span<const std::byte> blocks, std::span<std::byte> block, int root = 0);

// SBnT-p (Johnsson & Ho §4.3, SBnT-p(n,1) of Table 3), for all-port machines: each block follows its path down the
// spanning balanced n-tree (model/spanning_trees.hpp), leaving the root in step d - h for a node at depth h, so that
// all arrive in step d - 1; each step every node sends each child one packet with the blocks for that child's
// subtree.
void sbnt_scatter(Node& node, std::span<const std::byte> blocks, std::span<std::byte> block, int root = 0);

// SBT-p(n,1) (Johnsson & Ho §4.3, Table 3), for all-port machines: sbnt_scatter's schedule down the binomial tree of
// dimension order 0, 1, ..., n - 1. The root's link to its largest subtree (N/2 nodes) carries C(n-1, n-1-t) blocks in
// step t: (1/2)NM element transfers, "the transmission time can be reduced by at most a factor of 2".
void pipelined_sbt_scatter(Node& node, std::span<const std::byte> blocks, std::span<std::byte> block, int root = 0);

// COLLECT (§5): DISTRIBUTE 1 run backwards, for all-port machines.
void collect_1(Node& node, std::span<const std::byte> block, std::span<std::byte> blocks, int root = 0);
// DISTRIBUTE 2 run backwards, for all-port machines.
void collect_2(Node& node, std::span<const std::byte> block, std::span<std::byte> blocks, int root = 0);
// SBT-p run backwards (Johnsson & Ho §4.5's reduction tree, without the arithmetic), for one-port machines: in step
// e = 0..d-1 the nodes whose lowest 1-bit (relative to the root) is e send the 2^e blocks they have gathered across
// dimension e.
void sbt_gather(Node& node, std::span<const std::byte> block, std::span<std::byte> blocks, int root = 0);

}  // namespace hcemu::kernels
