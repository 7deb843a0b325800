#pragma once
// Lower bounds on the time of every kernel family: no algorithm for the problem, on this machine, can be faster.
// docs/lower_bounds.md derives each one.
//
// They follow Stout & Wagar (1990) §9: pick a set S of directed links (or of a node's ports) that a load of a bytes
// must cross; some member carries at least ⌈a/|S|⌉ bytes and is busy at least T(⌈a/|S|⌉), T(L) = message_time(L bytes,
// 1 hop) (λ + τL per packet under store-and-forward, λ + δ' + δ + τL under circuit; the paper's τa/|S| + β). Beside
// that bandwidth term come start-up terms: a byte must travel as far as its destination (store-and-forward: h hops of
// at least λ + τ each; circuit: λ + δ' + δh + τ), and, under circuit switching, data that one node has and every node
// needs (or the reverse) can reach at most c + 1 times as many nodes per transfer time, c the channels a node sends on
// (Johnsson & Ho's (1987) nτ of T_lb(1,1) for one-port). Bandwidth and start-up terms cannot be added, only maximized
// (Stout & Wagar §5, DISTRIBUTE 2): each function returns the largest of its terms. Local work (ρ, t_a, barriers) only
// adds time, so the bounds leave it out. An empty message (m = 0) or a one-node machine gives 0.
//
// The channels of a node: 1 for `one` (a send port and a receive port) and `half` (one port both ways, so its sends and
// receives add up), min(N, d) for `k:N`, d for `all` (its links).
#include <cstddef>
#include <cstdint>
#include <span>

#include "hcemu/config.hpp"
#include "hcemu/time.hpp"

namespace hcemu::model {

// One-to-all broadcast of m bytes (Stout & Wagar §9 S = the root's d out-links, a = m: τm/d + β; Johnsson & Ho
// Table 1: T_lb(1,1) = max(M·t_c, nτ), T_lb(n,1) = max(M·t_c/n, nτ)).
Time broadcast_lower_bound(const MachineConfig& config, std::size_t m);

// Stout & Wagar §2: a broadcast that only ever moves whole packets of s bytes. The root emits at most c packets per
// packet time, so its last one leaves after (⌈⌈m/s⌉/c⌉ - 1)·T(s) and still has to reach the far corner:
// (⌈⌈m/s⌉/c⌉ - 1)·T(s) + message_time(s, d), the paper's (d + m/(ds) - 1)(τs + β). BROADCAST 4 with g = m/(ds)
// meets it exactly. For that class of algorithms only.
Time fixed_packet_broadcast_lower_bound(const MachineConfig& config, std::size_t m, std::size_t packet_bytes);

// m bytes from src to dst (Stout & Wagar §9, O.C. and arbitrary send: S = the source's out-links, a = m: τm/d + β),
// and the distance popcount(src ^ dst).
Time long_send_lower_bound(const MachineConfig& config, std::size_t m, int src, int dst);

// Scatter and gather of m-byte blocks (Stout & Wagar §9, distribute/collect: S = the root's d links, a = (2^d - 1)m;
// Johnsson & Ho Table 3: max((N - 1)M·t_c, nτ) one-port, max((N - 1)M·t_c/n, nτ) n-port).
Time scatter_lower_bound(const MachineConfig& config, std::size_t m);
Time gather_lower_bound(const MachineConfig& config, std::size_t m);

// All-to-all broadcast of m bytes per node (Stout & Wagar §9, complete broadcast: S = the d in-links of a node,
// a = (2^d - 1)m; Johnsson & Ho §4.2: (N - 1)M·t_c one-port, /n n-port).
Time allgather_lower_bound(const MachineConfig& config, std::size_t m);

// Complete exchange of m-byte blocks (Stout & Wagar §9: S = the 2^(d-1) links from one half-cube to the other,
// a = 2^(2d-2)·m per direction: 2^(d-1)τm + β; and every node's ports, (2^d - 1)m each way; Johnsson & Ho §4.4:
// max(NM/2·t_c, nτ) n-port).
Time complete_exchange_lower_bound(const MachineConfig& config, std::size_t m);

// The same problem on an R x C torus or mesh (config.topology a grid; docs/model.md §1): every node's ports, (R·C - 1)m
// each way over at most its 4 links (1 channel for `one` and `half`, min(N, 4) for `k:N`); the cut that halves the
// longer side, crossed by 2·(other side) links per direction on a torus (a row's middle and its wrap-around) and
// (other side) on a mesh, with (R·C/2)^2·m bytes to carry each way; and the diameter, R/2 + C/2 hops on a torus
// (R - 1 + C - 1 on a mesh), which some block must travel. complete_exchange_lower_bound calls it on a grid.
Time grid_complete_exchange_lower_bound(const MachineConfig& config, std::size_t m);

// Every node s sends m bytes to image[s] (Stout & Wagar §9, inversion: S = the half-cube cut, a = 2^(d-1)m per
// direction: τm + β). Every cut across a dimension, in each direction; the total distance over all d·2^d links; each
// node's ports; the longest distance. A fixed point needs nothing.
Time permutation_lower_bound(const MachineConfig& config, std::size_t m, std::span<const std::uint32_t> image);

// Transpose of an n x n matrix of element_bytes elements. By rows: a complete exchange of (n/2^d)^2-element blocks
// (Stout & Wagar §9). By blocks on a 2^(d/2) x 2^(d/2) grid: the permutation a·2^c + b -> b·2^c + a of blocks
// (§9: S = all d·2^d links, a = d·N²/2; τN²/2^(d+1) + β). 0 for odd d, where the block transposes do not apply.
Time row_transpose_lower_bound(const MachineConfig& config, std::size_t n, std::size_t element_bytes);
Time block_transpose_lower_bound(const MachineConfig& config, std::size_t n, std::size_t element_bytes);

// Histogram (reduce-scatter) of `bins` 4-byte bins, for the paper's problem: every node holds an arbitrary value for
// every bin (Stout & Wagar §9: S = node 0's out-links, a = (1 - 2^-d)m values: (1 - 2^-d)τm/d + β). Each node must
// send at least one value for every bin it does not own and receive one for every bin it owns.
Time histogram_lower_bound(const MachineConfig& config, std::size_t bins);

// The building blocks, for bounds of one's own.
// Channels a node sends (or receives) on at once: 1, 1, min(N, d), d.
int node_channels(const MachineConfig& config);
// The least time a node's channels need to send `out` bytes and receive `in` bytes.
Time node_port_bound(const MachineConfig& config, std::size_t out, std::size_t in);
// The least time for `bytes` to cross a set of `links` directed links.
Time cut_bound(const MachineConfig& config, std::size_t bytes, std::size_t links);
// The least time for a byte to travel `hops` hops.
Time distance_bound(const MachineConfig& config, int hops);
// Circuit switching: the least time for data to spread from one node to all 2^d (or gather from all to one): the
// rounds r with (c + 1)^r >= 2^d, each at least one one-byte transfer. 0 under store-and-forward, where
// distance_bound(d) is larger anyway.
Time spread_bound(const MachineConfig& config);

}  // namespace hcemu::model
