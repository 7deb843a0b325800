#pragma once
// Complete exchange: every node sends a distinct m-byte block to every node (all-to-all personalized).
// Every kernel here is a collective: every node calls it, in the same order as its other collectives, and it
// talks in a tag space of its own (CollectiveScope, hcemu/node.hpp), so its messages never meet the caller's.
//
// Buffers, for every algorithm: `send` holds 2^d blocks of m bytes, block j addressed to node j; on return `recv`
// holds 2^d blocks of m bytes, block j the one node j addressed to this node (block id of node j). This is the
// transpose of the 2^d x 2^d matrix of blocks that Bokhari (1993) §2.3 takes as the meaning of the exchange.
//
// The node's own block is copied from `send` to `recv` without a ρ charge: in the papers' model the self-addressed
// block ("dummy self-addressed message", Nicol & Bokhari 1994 §2.4) never moves, and their closed forms have no
// term for it. For d = 0 that copy is all there is, and the time is 0.
#include <cstddef>
#include <span>
#include <vector>

#include "hcemu/model/sync.hpp"
#include "hcemu/node.hpp"

namespace hcemu::kernels {

struct ExchangeOptions {
  Sync sync = Sync::none;  // Nicol & Bokhari (1994) §4: none, barrier, pairwise
};

// Direct exchange (Bokhari 1993 §2.2): 2^d - 1 steps; in step j the partner is id ^ j (the XOR schedule, free of
// contention under e-cube routing). The multiphase exchange with the partition (d).
void direct_exchange(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m,
                     const ExchangeOptions& options = {});

// Standard exchange (Bokhari 1993 §2.1, after Johnsson & Ho), as its pseudocode reads: d steps through bits d-1 .. 0,
// each sending 2^(d-1) blocks to the neighbour across that bit, each followed by a shuffle of all 2^d blocks charged
// ρ·2^d·m. Its data and times are those of multiphase_exchange with the partition (1, ..., 1).
void standard_exchange(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m,
                       const ExchangeOptions& options = {});

// Multiphase complete exchange (Bokhari 1993 §2.3, Nicol & Bokhari 1994 §2.4) for a partition (d_1..d_k) of d, in
// the order given: phase i is a Direct exchange of effective blocks of m·2^(d-d_i) bytes inside the subcubes that
// span bits [lo_i, lo_i + d_i), lo_i = d - (d_1 + ... + d_i) (the first phase spans the highest bits), followed,
// when k > 1, by the shuffle of all 2^d blocks. Throws UsageError if the parts are not positive or do not sum to d.
void multiphase_exchange(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m,
                         std::span<const int> partition, const ExchangeOptions& options = {});

// Multiphase with the partition the planner finds optimal for this machine, m and sync
// (hcemu::model::optimal_partition). Returns the partition used.
std::vector<int> auto_exchange(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m,
                               const ExchangeOptions& options = {});

// Stout & Wagar (1990) §6 COMPLETE EXCHANGE for all-port (link-bound) machines: the completed DISTRIBUTE 1. The
// message with relative address r = s ^ t, h = popcount(r), is cut into h pieces; piece i starts in stage d - h
// and crosses the dimensions of r one per stage in the order rotated by i (O.C. SEND 2 routing). Each stage every
// node sends one batched packet on each of its d links. With m divisible by lcm(1..d) every link carries the same
// load in every stage and the time is 2^(d-1)·τm + dλ (all-port, δ = δ' = 0), plus ρ for the packing, which
// the paper counts as free (so ρ = 0 gives the paper's formula). Runs on any port model; only all-port gives
// that time. `options.sync` is ignored: each stage waits for its own packets, which keeps the stages in step.
void all_port_exchange(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m,
                       const ExchangeOptions& options = {});

}  // namespace hcemu::kernels
