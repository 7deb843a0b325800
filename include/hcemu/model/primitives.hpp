#pragma once
// Closed forms of Johnsson & Ho's (1987) generic primitives as hcemu runs them (include/hcemu/kernels/primitives.hpp
// and reduction.hpp), each equal to the emulated makespan to the picosecond on the port models it is given for.
//
// T(L) below is one L-byte message to a neighbour on free resources, model::message_time(L, 1 hop): per packet of
// at most B_m = `packet` bytes, λ + τL_p under store-and-forward and λ + δ' + δ + τL_p under circuit. So with
// store-and-forward, δ = δ' = ρ = t_a = 0 and elements of e bytes, a form reads as the paper's
// "element transfers · t_c + start-ups · τ" with t_c = e·τ (hcemu's τ is per byte) and the paper's start-up τ = λ.
// A form that holds for some port models only returns nullopt for the others: the kernels still run there.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "hcemu/config.hpp"
#include "hcemu/time.hpp"

namespace hcemu::model {

// ----- One-to-all broadcast (Table 1) -------------------------------------------------------------------------------

// A chunked pipeline down a tree of height H: Σ_j T(chunk_j) + (H - 1)·max_j T(chunk_j), the chunks of at most
// `chunk` bytes (0: one chunk of m) the message is cut into.
Time pipeline_time(const MachineConfig& config, std::size_t m, std::size_t chunk, int height);

// GC(1,1): the Gray-code path, height N - 1. One-port, k:N and all-port (not half-duplex, where a node cannot
// receive the next chunk while it forwards one). With B | M: (M + (N - 2)B) t_c + (⌈M/B⌉ + N - 2) τ.
std::optional<Time> gray_code_broadcast_time(const MachineConfig& config, std::size_t m, std::size_t chunk);
// GC(n,1): (N - 1)·T(⌈m/n⌉). All-port.
std::optional<Time> rotated_gray_code_broadcast_time(const MachineConfig& config, std::size_t m);
// SBT-b(n,1) and the SBnT broadcast: pipelines of height n. All-port. (M + (n - 1)B) t_c + (⌈M/B⌉ + n - 1) τ.
std::optional<Time> pipelined_sbt_broadcast_time(const MachineConfig& config, std::size_t m, std::size_t chunk);
std::optional<Time> sbnt_broadcast_time(const MachineConfig& config, std::size_t m, std::size_t chunk);
// The two-rooted complete binary tree (kernels::two_rooted_tree_broadcast), J chunks, the first taking T = T(chunk_0)
// and the last T_L. One-port, n >= 2: 2(J + n - 3)T + 2T_L. Every inner node's port sends each chunk twice, so the
// chunks leave the root 2T apart and reach a child T or 2T after its parent has them (first or second child); the
// last chunk reaches the latest leaf, a second child all the way down, 2(J - 1)T + 2(n - 2)T + 2T_L after the start
// (v's side is one level deeper, but its links u-v and v-v' take T each). With B | M: 2(M + (n - 2)B) t_c +
// 2(⌈M/B⌉ + n - 2) τ. None with a port overlap (docs/model.md §14), which lets a node's two sends overlap. All-port
// and k:N (N >= 2): pipeline_time of height n, as SBT-b(n,1). n = 1: Σ_j T_j. None under half duplex.
std::optional<Time> two_rooted_tree_broadcast_time(const MachineConfig& config, std::size_t m, std::size_t chunk);
// The h of its optimum chunk, optimal_pipeline_chunk(config, m, h): n - 2 on one port (each chunk sent twice a level),
// n - 1 on more.
int two_rooted_tree_chunk_height(const MachineConfig& config);
// nRSBT-b(1,1) (kernels::nrsbt_one_port_broadcast): the root's 2n - 1 messages one after the other, step s carrying
// the parts k that model::nrsbt_one_port_schedule sends to the root's neighbour in step s (⌈m/n⌉ or ⌊m/n⌋ bytes
// each): Σ_s T(bytes of step s). Every port model. With n | M: Mn t_c + (2Σ_{i<n} ⌈Mi/(nB_m)⌉ + ⌈M/B_m⌉) τ (Table 1).
Time nrsbt_one_port_broadcast_time(const MachineConfig& config, std::size_t m);
// The paper's B_opt = sqrt(Mτ/(h t_c)) for a pipeline of h + 1 levels (h = N - 2 for GC(1,1), n - 1 for
// SBT-b(n,1)), in bytes sqrt(m·β/(h·τ)) with β = λ (+ δ' + δ under circuit), in [1, m] and not above the machine's
// packet. 0 (one chunk) when h = 0.
std::size_t optimal_pipeline_chunk(const MachineConfig& config, std::size_t m, int h);

// ----- All-to-all broadcast (Table 2), m bytes per node, inside a subcube of `dims` dimensions -----------------------

// CRA(1,N) and GCEA(1,N): (2^dims - 1) pairwise exchanges of m bytes (one transfer time each, two under half
// duplex). Every port model. (N - 1)M t_c + ⌈M/B_m⌉(N - 1) τ.
Time cra_allgather_time(const MachineConfig& config, std::size_t m);
Time gcea_allgather_time(const MachineConfig& config, std::size_t m, int dims);
// GCEA(n,N): (N - 1)·T(⌈m/n⌉). All-port.
std::optional<Time> rotated_gcea_allgather_time(const MachineConfig& config, std::size_t m);
// SBT-b(1,N): Σ_{i<dims} pairwise exchange of 2^i·m bytes. Every port model.
Time sbt_allgather_time(const MachineConfig& config, std::size_t m, int dims);
// SBnT-b(n,N): Σ_s T(m·max_i loads[s][i]) + 2ρ(N - 1)m (model::sbnt_broadcast_loads). All-port. The paper's
// (1/n)(N - 1)M t_c + Σ_i ⌈C(n,i)M/(nB_m)⌉ τ counts every step's load as perfectly balanced, C(n,s)/n blocks per
// port; the tree's subtrees are only nearly equal, so the busiest port carries a little more (n = 5: 7 blocks in
// all against 31/5).
std::optional<Time> sbnt_allgather_time(const MachineConfig& config, std::size_t m, int dims);

// Along a model::TreeSchedule (model/spanning_trees.hpp), kernels' TreeAllgather: every step lasts its busiest
// port's message (ports without a block send nothing), plus packing and unpacking every part once, 2ρ(N - 1)m.
// SBT-b(n,N), the binomial trees pipelined on all ports: port i carries C(i, s) blocks in step s, Σ_s T(C(n-1,s)·m);
// the paper's (1/2)NM t_c + Σ_i ⌈C(n-1,i)M/B_m⌉ τ. All-port.
std::optional<Time> pipelined_sbt_allgather_time(const MachineConfig& config, std::size_t m);
// SBnT-b(1,N) and nRSBT-b(1,N): 2n - 1 steps of one pairwise exchange each (two transfers under half duplex), the
// parts of ⌈m/n⌉ or ⌊m/n⌋ bytes for nRSBT. With B_m >= the largest step: (N - 1)M t_c + (2n - 1) τ, Table 2's
// minimum. Every port model. The SBnT's steps carry exactly the blocks its tree edges give, one step (n = 2) or more
// possibly empty.
Time sbnt_one_port_allgather_time(const MachineConfig& config, std::size_t m);
Time nrsbt_one_port_allgather_time(const MachineConfig& config, std::size_t m);

// ----- All-to-all personalized (Table 4), m bytes per (source, destination) ----------------------------------------

// SBnT-p(n,N): Σ_s [T(m·max_i loads[s][i]) + ρm·Σ_i loads[s][i]] + ρ(N - 1)m (model::sbnt_personalized_loads: packing
// every block sent, unpacking every block delivered). All-port. The paper's NM/2 element transfers again assume
// perfectly balanced subtrees.
std::optional<Time> sbnt_exchange_time(const MachineConfig& config, std::size_t m);
// nRSBT-p(n,N) (kernels::nrsbt_exchange): n·[T((N/2)·⌈m/n⌉) + ρ(N/2)m] + ρ(N - 1)m, every step's ports carrying N/2
// parts of ⌈m/n⌉ or ⌊m/n⌋ bytes. All-port. With n | m and ρ = 0 Table 4's (1/2)NM t_c + ⌈NM/(2nB_m)⌉ n τ.
std::optional<Time> nrsbt_exchange_time(const MachineConfig& config, std::size_t m);

// ----- Reductions (§4.5), blocks of doubles, f flops per element combined ------------------------------------------
// (The all-to-all ones take the element's size w: 8 for doubles, 4 for the kernels' blocks of floats; 8b below is wb.)

// One-to-all: d·(T(8b) + t_a·f·b), b the elements per node. Every port model.
Time sbt_reduce_time(const MachineConfig& config, std::size_t elements, std::uint64_t flops_per_element = 1);
// All-to-all by recursive halving inside a subcube: Σ_{k=1..dims} [pairwise exchange of 8b·2^(dims-k) bytes +
// t_a·f·b·2^(dims-k)], b the elements of one block. Every port model.
Time recursive_halving_reduce_scatter_time(const MachineConfig& config, std::size_t block, int dims,
                                           std::uint64_t flops_per_element = 1, std::size_t element_bytes = 8);
// All-to-all along SBnTs: Σ_s T(8b·max_i loads[n - s][i]) + (N - 1)(8ρb + t_a·f·b). All-port.
std::optional<Time> sbnt_reduce_scatter_time(const MachineConfig& config, std::size_t block, int dims,
                                             std::uint64_t flops_per_element = 1, std::size_t element_bytes = 8);

}  // namespace hcemu::model
