#pragma once
// Closed forms of the broadcast, all-to-all broadcast and histogram kernels (include/hcemu/kernels/broadcast.hpp,
// allgather.hpp, histogram.hpp), each cited to its paper (Stout & Wagar 1990; Johnsson & Ho 1987).
//
// Every form is built from the single-transfer times of model/transfer.hpp: T(L) = message_time(L bytes, 1 hop),
// λ + δ' + δ + τL per packet under circuit and λ + τL per packet under store-and-forward. All these kernels only
// talk to neighbours, so the two switching models differ only in that per-transfer overhead. With
// store-and-forward (or δ = δ' = 0), no packet limit and ρ = t_a = 0 each form reduces to the paper's, with the
// paper's start-up β (Stout & Wagar) or τ (Johnsson & Ho) read as λ.
//
// A form that holds for one port model only returns nullopt for the others: the kernels still run there, but the
// papers give no time for it.
#include <cstddef>
#include <optional>

#include "hcemu/config.hpp"
#include "hcemu/time.hpp"

namespace hcemu::model {

// ----- One-to-all broadcast of m bytes -----------------------------------------------------------------------------

// Binomial spanning tree (Johnsson & Ho §3.2, SBT-b(1,1) of Table 1; Stout & Wagar §2 BROADCAST 1): d steps, each
// one whole-message transfer, d·T(m) = d(λ + δ' + δ + τm) (docs/model.md §9). Holds for every port model: no node
// ever has more than one transfer in flight that the next step waits for.
Time sbt_broadcast_time(const MachineConfig& config, std::size_t m);

// Stout & Wagar §2 BROADCAST 2 (BROADCAST 1 symmetrized over d packets of m/d bytes): d·T(m/d), which is
// τm + dλ with δ = δ' = 0 (docs/model.md §9). When d does not divide m the packets are ⌈m/d⌉ and ⌊m/d⌋ bytes and the
// time is d·max T(packet): every stage lasts as long as its longest packet and one longest packet crosses d
// links in a row. All-port only.
std::optional<Time> symmetrized_broadcast_time(const MachineConfig& config, std::size_t m);

// BROADCAST 3A (Stout & Wagar §2), the systolic wave: d packets of s = ⌈m/d⌉ bytes (the last padded), d + 1 stages
// of one packet time, (d + 1)·T(s), the paper's ((d + 1)/d)τm + (d + 1)β; T(m) for d = 1 (stage 1 would only send
// back to the root), 0 for d = 0. All-port only.
std::optional<Time> systolic_broadcast_time(const MachineConfig& config, std::size_t m);

// BROADCAST 4 (Stout & Wagar §2): g groups of d packets each run BROADCAST 3A (the last group 3B), pipelined so
// that d + g - 1 stages of one packet time each suffice. The kernel uses one packet size, ⌈m/(dg)⌉, padding the
// last packets (the paper's fixed-packet-size form, whose bound (d + m/(ds) - 1)(τs + β) it meets).
std::size_t pipelined_broadcast_packet_bytes(int d, std::size_t m, int groups);
// (d + g - 1)·T(⌈m/(dg)⌉); 0 for d = 0. All-port only.
std::optional<Time> pipelined_broadcast_time(const MachineConfig& config, std::size_t m, int groups);
// The g in [1, ⌈m/d⌉] of least (d + g - 1)·T(⌈m/(dg)⌉), the fewest such; g = 1 for d <= 1. The paper's optimum
// sqrt((d-1)τm / (dβ)) (β = the per-transfer overhead λ + δ' + δ) ignores the rounding of the packet up to whole
// bytes, and rounding it can miss (d = 3, β = 20, τ = 1, m = 3600: 10.95 rounds to 11, packets of 110 bytes and
// 13·130 = 1690 µs; g = 10 takes 12·140 = 1680): the search reads the form itself at the least g of each packet
// size, O(sqrt(m/d)) values. The form is BROADCAST 4's on all ports; the kernel runs the same g on every port model.
int optimal_broadcast_groups(const MachineConfig& config, std::size_t m);

// n edge-disjoint spanning binomial trees (Johnsson & Ho §3.4, nESBT-b(n,1) of Table 1): the message is cut into
// d pieces (⌈m/d⌉ or ⌊m/d⌋ bytes), piece k goes down tree k (root -> root ^ 2^k, then a binomial tree of height
// d), pipelined in chunks of at most `chunk` bytes. The trees use disjoint directed links, so each root-to-leaf
// path is a pipeline of its own: the last chunk of a piece reaches the deepest level H (d + 1, or 1 for d = 1) at
// Σ_c T(chunk_c) + (H - 1)·max_c T(chunk_c). With full chunks of B bytes that is the paper's
// (M/n + nB) t_c + (⌈M/(nB)⌉ + n) τ, including a shorter last chunk. The time is the slowest piece's. A piece of
// 0 bytes sends nothing unless m = 0, when every piece sends one empty chunk. All-port; and one-port (nESBT-b(1,1),
// Table 1) where every chunk has one size, B bytes: (⌈m/B⌉ + H - 1)·T(B), the root's chunks one after the other and
// the last one H - 1 more links down, (M + nB) t_c + (⌈M/B⌉ + n) τ (chunks of unequal size queue behind one another
// at a node's single input port, and there it gives none; nor with a port overlap, docs/model.md §14).
std::optional<Time> nesbt_broadcast_time(const MachineConfig& config, std::size_t m, std::size_t chunk);
// B_opt = (1/n)·sqrt(Mτ/t_c) of Table 1 in bytes, sqrt(m·β/τ)/d (β = λ + δ' + δ), kept in [1, ⌈m/d⌉] and not
// above the machine's packet size when it has one.
std::size_t optimal_nesbt_chunk(const MachineConfig& config, std::size_t m);

// ----- All-to-all broadcast (every node's m bytes to every node) ----------------------------------------------------

// Recursive doubling (Johnsson & Ho §4.2, SBT-b(1,N) of Table 2): in step i = 0..d-1 a pairwise exchange of
// 2^i·m bytes across dimension i: Σ_i pairwise_exchange_time(2^i·m). Holds for every port model.
Time recursive_doubling_allgather_time(const MachineConfig& config, std::size_t m);

// Stout & Wagar §6 COMPLETE BROADCAST (BROADCAST 2 from every node at once, batched): in stage k every link
// carries 2^k pieces of one packet index, 2^k·⌈m/d⌉ or 2^k·⌊m/d⌋ bytes, so Σ_k max T(2^k·piece), which is
// (2^d - 1)τm/d + dλ with δ = δ' = 0 and d | m. Plus ρ·2^d·m: the kernel works in a relative, rotated layout
// (own message copied in, the 2^d - 1 others copied out by source), local work the paper counts as free.
// All-port only.
std::optional<Time> completed_allgather_time(const MachineConfig& config, std::size_t m);

// ----- Histogram (reduce-scatter of bins) ---------------------------------------------------------------------------

// Bins are 32-bit counts: the paper's unit-length item is 4 bytes, so its τ is 4τ here and its m is the number of
// bins. Node i owns bins [i·b, min((i+1)·b, bins)), b = ⌈bins/2^d⌉ (the paper's m/2^d when 2^d divides bins).
inline constexpr std::size_t kHistogramBinBytes = 4;
std::size_t histogram_block_bins(int d, std::size_t bins);  // b = ⌈bins/2^d⌉
// The bins of node `node`'s block that exist: b, fewer for the last nodes when 2^d does not divide bins.
std::size_t histogram_owned_bins(int d, std::size_t bins, int node);
// The symmetrized version cuts each block into d sub-blocks of ⌈b/d⌉ bins (d >= 1).
std::size_t histogram_subblock_bins(int d, std::size_t bins);

// Recursive halving (Stout & Wagar §8, the unsymmetric version): stage k = 1..d exchanges 2^(d-k) blocks of b bins
// with the neighbour across dimension d - k and adds them. Σ_k [pairwise_exchange_time(4b·2^(d-k)) +
// t_a·b·2^(d-k)] + t_a·items (counting the node's `items` values into bins). With 2^d | bins and t_a = 0 on a
// one-port (or all-port) machine: (1 - 2^-d)·4τ·bins + dλ. Holds for every port model.
Time recursive_halving_histogram_time(const MachineConfig& config, std::size_t bins, std::size_t items);

// Stout & Wagar §8 HISTOGRAM (recursive halving symmetrized over d groups of sub-blocks, group g taking the
// dimensions g-1, g-2, ... in turn): stage s = 1..d sends on every link 2^(d-s) sub-blocks of c = ⌈b/d⌉ bins.
// Σ_s [T(4c·2^(d-s)) + t_a·d·c·2^(d-s)] + t_a·items, which is (1 - 2^-d)·4τ·bins/d + dλ (docs/model.md §9) with
// d·2^d | bins, δ = δ' = 0 and t_a = 0. All-port only.
std::optional<Time> symmetrized_histogram_time(const MachineConfig& config, std::size_t bins, std::size_t items);

}  // namespace hcemu::model
