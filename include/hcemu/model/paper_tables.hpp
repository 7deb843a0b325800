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
#include "hcemu/model/matmul.hpp"
#include "hcemu/time.hpp"

namespace hcemu::model {

// Table 2 SBnT-b(n,N), and Table 3 SBnT-p(n,1) and nRSBT-p(n,1), which print the same row:
// (1/n)(N - 1)M t_c + Σ_{i=1..n} ⌈C(n,i)M/(nB_m)⌉ τ. All-port.
std::optional<Time> sbnt_balanced_table_time(const MachineConfig& config, std::size_t m);

// Table 4 SBnT-p(n,N): (1/2)NM t_c + Σ_{i=1..n} ⌈Σ_{j=i..n} C(n,j)M/(nB_m)⌉ τ. All-port.
std::optional<Time> sbnt_exchange_table_time(const MachineConfig& config, std::size_t m);

// Table 2 SBnT-b(1,N) and nRSBT-b(1,N): (N - 1)M t_c + max(2n - 1, ⌈(N - 1)M/B_m⌉) τ. One-port.
std::optional<Time> one_port_tree_allgather_table_time(const MachineConfig& config, std::size_t m);

// Table 11 A1(n), the n-port 2-D algorithm a1-2d-sbnt on its grid (options.grid, N1 x N2): the row broadcast
// SBnT-b(n2,N2) of ⌈P/N1⌉⌈Q/N2⌉ elements and the column broadcast SBnT-b(n1,N1) of ⌈Q/N1⌉⌈R/N2⌉, each Table 2's
// balanced figure (sbnt_balanced_table_time on its subcube), taken as running independently: max(row, column), plus
// the arithmetic (model::matmul_time's, the paper's count when N1 and N2 divide the shape). §5.2.1 prints "min"
// for the max, an OCR slip. The exact time steps both trees together, Σ_s max(row step, column step), and charges ρ.
// nullopt unless the algorithm is a1_2d_sbnt and ports are `all`.
std::optional<Time> a1_n_port_table_time(const MachineConfig& config, const MatmulShape& shape,
                                         const MatmulOptions& options);

// Table 11 A2(n)-A5(n), the n-port 2-D algorithms a2_2d_sbnt .. a5_2d_sbnt on their N1 × N2 grid, as printed (T_min
// for B_m >= B_opt): nτ + p(X) [+ p(Y)] + (U(N_a - 1)/n_a + V(N_b - 1)/n_b) t_c, plus the arithmetic (model::matmul_time's,
// Table 10's count when N1 and N2 divide the shape). p(X) = (√(X t_c) + √((n - 1)τ))² is the pipelined transpose of
// the paper's ref. [10] at its optimal packet B_opt = √(X τ/((n - 1) t_c)), X the transposed block; nτ the start-ups
// of the SBnT broadcast and reduction, and U, V their blocks over their subcubes of n_a and n_b dimensions (balanced,
// Table 2). With [x/y] = ⌈x/y⌉:
//   A2(n): X = [P/N1][Q/N2];                      U = [Q/N1][P/N2] over n2, V = [P/N1][R/N2] over n1
//   A3(n): X = [P/N1][Q/N2], Y = [R/N1][P/N2];    U = [Q/N1][R/N2] over n2, V = [R/N1][P/N2] over n1
//   A4(n): X = [Q/N1][R/N2];                      U = [R/N1][Q/N2] over n1, V = [P/N1][R/N2] over n2
//   A5(n): X = [Q/N1][R/N2], Y = [R/N1][P/N2];    U = [P/N1][Q/N2] over n1, V = [R/N1][P/N2] over n2
// hcemu's exact time uses Stout & Wagar's all-port transpose and the exact SBnTs instead (docs/kernels/matmul.md).
// nullopt unless the algorithm is one of the four, ports are `all` and matmul_time has a value.
std::optional<Time> transposed_n_port_table_time(const MachineConfig& config, const MatmulShape& shape,
                                                 const MatmulOptions& options);

}  // namespace hcemu::model
