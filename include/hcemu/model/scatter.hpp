#pragma once
// Closed forms of the scatter and gather kernels of include/hcemu/kernels/scatter.hpp: Stout & Wagar (1990) §5
// DISTRIBUTE 1 and 2 and COLLECT, and Johnsson & Ho (1987) §4.3 SBT-p and SBnT-p. docs/kernels/scatter.md derives
// them and compares them with the emulator.
//
// T(L) is one L-byte message to a neighbour (model::message_time, 1 hop): τL + β in Stout & Wagar's terms with
// β = λ (store-and-forward, δ = δ' = 0), B·t_c + τ in Johnsson & Ho's.
//
// DISTRIBUTE and COLLECT spread the message for a node at distance h evenly through the h-cube it spans with the
// root (O.C. SEND 3, model/even_spread.hpp: lcm(1..h) units, padded). Nodes at the same distance from the root all
// do the same thing at the same time, so the time is a recurrence over distances and waves, evaluated exactly by
// distribute_times/collect_times; where every message divides into its units and ρ = 0 it reduces to the paper's
// sums (e.g. DISTRIBUTE 1: Σ_h T(C(d,h)·m/d), (2^d - 1)τm/d + dβ).
#include <cstddef>
#include <optional>
#include <vector>

#include "hcemu/config.hpp"
#include "hcemu/time.hpp"

namespace hcemu::model {

// The waves the root sends, first to last; each lists the distance classes h (the nodes at distance h, C_h) whose
// messages it carries, farthest first.
using Waves = std::vector<std::vector<int>>;

// DISTRIBUTE 1 (§5): one wave per class, farthest first: {d}, {d-1}, ..., {1}.
Waves distribute_1_waves(int d);

// DISTRIBUTE 2 (§5): k waves, k the least with d·((d-1)^k - 1)/(d-2) >= 2^d - 1 (d·k >= 3 for d = 2; 1 for d = 1).
int distribute_2_wave_count(int d);
// The classes in each of the k waves: the last wave is C_1; the paper fills wave k - i with about r^i·m per link
// (r solving d(r^k - 1)/(r - 1) = 2^d - 1), cutting messages into portions where a class does not fit. hcemu keeps
// classes whole: going outward from C_2, a wave takes classes while its load per link stays within r^i·m (at least
// one), and the first wave takes every class left. For d = 3 this is the paper's worked example: {C_3, C_2}, {C_1}.
Waves distribute_2_waves(int d);
// The r of the paper: the root of d·(r^k - 1)/(r - 1) = 2^d - 1 with k = distribute_2_wave_count(d).
double distribute_2_ratio(int d);

// When every node at each distance from the root is done, and the makespan.
struct LevelTimes {
  std::vector<Time> level;  // level[j]: the last final clock of the nodes at distance j
  Time makespan = 0;
};

// DISTRIBUTE with the given waves (all-port): the root packs each wave (ρ per byte, padding included) and sends it
// as one message per link; a node at distance j handles the classes in the root's order, farthest first, waiting
// for each (at distance 1 for its wave) and sending it on as one message per upper link (after packing it, ρ per
// byte); a node's own message is copied into place (ρ·m). nullopt unless ports are `all`.
std::optional<LevelTimes> distribute_times(const MachineConfig& config, std::size_t m, const Waves& waves);
std::optional<Time> distribute_1_time(const MachineConfig& config, std::size_t m);
std::optional<Time> distribute_2_time(const MachineConfig& config, std::size_t m);

// COLLECT, DISTRIBUTE run backwards (all-port): the waves in reverse order, the classes nearest first; every node
// first sends its own message down (packed into the far corner's unit order, ρ per byte), a node at distance 1
// sends each wave to the root as one message, and the root copies every message into place (ρ per byte of data).
std::optional<LevelTimes> collect_times(const MachineConfig& config, std::size_t m, const Waves& waves);
std::optional<Time> collect_1_time(const MachineConfig& config, std::size_t m);
std::optional<Time> collect_2_time(const MachineConfig& config, std::size_t m);

// SBT-p (Johnsson & Ho §4.3, Table 3, SBT-p(1,1)): recursive halving from the root, the blocks for the far half
// first, one dimension per step: Σ_{i<d} T(2^i·m), (N - 1)·M·t_c + nτ (Σ_i ⌈2^i M/B_m⌉ start-ups with packets).
// Every node only sends after it has received, one message at a time, so this holds for every port model.
Time sbt_scatter_time(const MachineConfig& config, std::size_t m);
// The gather by the same tree, backwards (the reduction of Johnsson & Ho §4.5 without the arithmetic): the same time.
Time sbt_gather_time(const MachineConfig& config, std::size_t m);

// SBnT-p (Johnsson & Ho §4.3, Table 3, SBnT-p(n,1)) as kernels::sbnt_scatter runs it: each message follows its path
// down the SBnT (model/spanning_trees.hpp), leaving the root at step d - h for a node at depth h, so that all arrive
// at step d - 1; in each step a node sends each child one packet with the messages for that child's subtree. The
// root packs each step's packets (ρ per byte). The subtrees are not exactly balanced, so the time is evaluated step
// by step, node by node; Johnsson & Ho's (1/n)(N - 1)M·t_c + nτ is its balanced ideal. nullopt unless ports are `all`.
std::optional<Time> sbnt_scatter_time(const MachineConfig& config, std::size_t m);
// SBT-p(n,1) (Table 3) as kernels::pipelined_sbt_scatter runs it: the same schedule down the binomial tree, evaluated
// the same way. The root's link to its N/2-node subtree is the bottleneck: with ρ = 0 and B_m >= every message,
// Σ_t T(C(n-1,t)·m), the table's (1/2)NM t_c + Σ_i ⌈C(n-1,i)M/B_m⌉ τ. nullopt unless ports are `all`.
std::optional<Time> pipelined_sbt_scatter_time(const MachineConfig& config, std::size_t m);

}  // namespace hcemu::model
