#pragma once
// Johnsson & Ho's (1987) Tables 2-4 as printed, for the rows where the table idealises what the algorithm does: the
// SBnT rows count every step's blocks as spread perfectly evenly over the n ports (C(n,i)/n per port), which the
// exact Spanning Balanced n-Tree only nearly does (its subtrees are 7, 6, 6, 6, 6 nodes for n = 5). hcemu's closed
// forms (model/primitives.hpp, scatter.hpp) are the exact tree's; these give the table's figure beside them, the
// `paper_table_us` of `hcemu run --json`.
//
// On this machine: the paper's element is a byte (t_c = τ), its start-up τ is β = λ (+ δ' + δ under circuit, one
// hop), its B_m the machine's packet (0: none, every ⌈x/B_m⌉ of a message with data is 1), and copies are free (no
// ρ): element transfers · τ + start-ups · β, rounded to the picosecond.
#include <cstddef>
#include <optional>

#include "hcemu/config.hpp"
#include "hcemu/time.hpp"

namespace hcemu::model {

// Table 2 SBnT-b(n,N), and Table 3 SBnT-p(n,1) and nRSBT-p(n,1), which print the same row:
// (1/n)(N - 1)M t_c + Σ_{i=1..n} ⌈C(n,i)M/(nB_m)⌉ τ. All-port.
std::optional<Time> sbnt_balanced_table_time(const MachineConfig& config, std::size_t m);

// Table 4 SBnT-p(n,N): (1/2)NM t_c + Σ_{i=1..n} ⌈Σ_{j=i..n} C(n,j)M/(nB_m)⌉ τ. All-port.
std::optional<Time> sbnt_exchange_table_time(const MachineConfig& config, std::size_t m);

// Table 2 SBnT-b(1,N) and nRSBT-b(1,N): (N - 1)M t_c + max(2n - 1, ⌈(N - 1)M/B_m⌉) τ. One-port.
std::optional<Time> one_port_tree_allgather_table_time(const MachineConfig& config, std::size_t m);

}  // namespace hcemu::model
