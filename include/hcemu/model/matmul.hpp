#pragma once
// Matrix multiplication A <- C × D + E on the cube, Johnsson & Ho (1987) §5: the algorithms, how their blocks are
// laid out, which shapes each accepts, and the closed form of each as hcemu runs it (kernels::matmul in
// include/hcemu/kernels/matmul.hpp). Pure functions. docs/kernels/matmul.md has the tables.
//
// Elements are w bytes, MatmulOptions::element_bytes: 8 for doubles, 4 for the floats of the paper's iPSC code. The
// paper's t_c per element is wτ here (τ per byte), its B_m in elements is packet/w. C is P × Q, D is Q × R, A and E
// are P × R.
//
// Layout. The nodes form an N1 × N2 grid, N1 = 2^n1 processor rows (the high n1 bits of a node id), N2 = 2^n2
// processor columns (the low n2 bits): node k·N2 + l is processor (k, l). It holds block (k, l) of every matrix, the
// rows [k·⌈rows/N1⌉, (k+1)·⌈rows/N1⌉) and columns [l·⌈cols/N2⌉, (l+1)·⌈cols/N2⌉), column-major, zero-padded past the
// matrix ("consecutive storage", §5). One-dimensional column partitioning is the grid 1 × N: node k holds block
// column k of C, D, E and A.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "hcemu/config.hpp"
#include "hcemu/time.hpp"

namespace hcemu::model {

struct MatmulShape {
  std::size_t P = 0, Q = 0, R = 0;
};

struct Grid {
  int n1 = 0, n2 = 0;  // N1 = 2^n1 processor rows, N2 = 2^n2 processor columns
  int rows() const { return 1 << n1; }
  int cols() const { return 1 << n2; }
  friend bool operator==(const Grid&, const Grid&) = default;
};

enum class MatmulAlgorithm {
  // One-dimensional column partitioning (§5.1, Tables 5-7).
  a1_cra,           // A1^l(1): CRA(1,N) rotation of C, a block multiply after every step
  a1_gcea,          // A1^l(1): GCEA(1,N) exchanges of C, a block multiply after every step
  a1_rotated_gcea,  // A1^l(n): GCEA(n,N)
  a1_sbt,           // A1(1): SBT-b(1,N) all-to-all broadcast of C, then the product
  a1_sbnt,          // A1(n): SBnT-b(n,N)
  a1_nrsbt,         // A1(n): nRSBT-b(n,N)
  a1_hybrid,        // k SBT steps, then 2^(n-k) - 1 GCEA steps (Figure 10)
  a3,               // A3(1): SBT-p(1,N)[C] + SBT-b(1,N)[D] + SBT-p(1,N)[A]
  a3_sbnt,          // A3(n): SBnT-p[C] + SBnT-b[D] + SBnT-p[A]
  a4,               // A4(1): SBT-p(1,N)[D] + SBT-b(1,N) reduction [A]
  a4_sbnt,          // A4(n): SBnT-p[D] + SBnT-b reduction [A]
  // One-dimensional row partitioning (§5.1, Figure 6: the roles of C and D interchanged), the grid N × 1.
  a1_rows,          // A1(1): SBT-b(1,N)[D], then the product
  a1_rows_sbnt,     // A1(n): SBnT-b(n,N)[D]
  a3_rows,          // A3(1): SBT-p(1,N)[D] + SBT-b(1,N)[C] + SBT-p(1,N)[A]
  a3_rows_sbnt,     // A3(n): SBnT-p[D] + SBnT-b[C] + SBnT-p[A]
  a4_rows,          // A4(1): SBT-p(1,N)[C] + SBT-b(1,N) reduction [A]
  a4_rows_sbnt,     // A4(n): SBnT-p[C] + SBnT-b reduction [A]
  // Two-dimensional partitioning (§5.2, Tables 8-11).
  a1_2d,            // A1(1): SBT-b(1,N2)[C] in processor rows, then SBT-b(1,N1)[D] in processor columns
  a1_2d_sbnt,       // A1(n): SBnT-b(n2,N2)[C] and SBnT-b(n1,N1)[D] side by side
  outer_product,    // §5.2.1: the pipelined outer products, N1 = N2
  a2_2d,            // A2(1): TXP[C] + SBT-b(1,N2)[C] + SBT-b(1,N1) reduction [A]; also on N1 != N2 (§5.2.2)
  a2_2d_sbnt,       // A2(n): the same with Stout & Wagar's all-port transpose and SBnTs
  a3_2d, a3_2d_sbnt,
  a3_2d_v2,         // A3(1) version 2 (§5.2.3): reduction to the row A belongs in, then SBT-p(1,N2) in that row;
                    // also on N1 != N2
  a4_2d, a4_2d_sbnt,
  a5_2d, a5_2d_sbnt,
  cannon,           // §5.2.1, Figure 17: CRA alignment of C in rows and D in columns, then max(N1, N2) - 1 rotations
  dekel,            // §5.2.1: Dekel's GCEA-based algorithm, XOR alignment, then max(N1, N2) - 1 GCEA exchanges
  sbt_aligned,      // §5.2.1: Dekel's alignment, then SBT-b(1,N2)[C] and SBT-b(1,N1)[D] step by step
};

struct MatmulOptions {
  MatmulAlgorithm algorithm = MatmulAlgorithm::a1_sbt;
  Grid grid;        // a1_2d, a1_2d_sbnt: any n1 + n2 = d; the one-port a2_2d..a5_2d, cannon, dekel, sbt_aligned: any
                    // n1 + n2 = d, or {0, 0} for the square grid; the other algorithms lay out their own grid
  int k = 0;        // a1_hybrid: the SBT steps, 0..d
  int packets = 0;  // the n-port A2-A5: packets per link of the all-port transpose, 0 = the model's best
  std::size_t element_bytes = 8;  // 8: doubles; 4: floats (what the nodes hold, multiply and send)
  int products = 1;  // outer_product: K multiplications pipelined through the same wave fronts (§5.2.1), >= 1
};

// "float" -> 4, "double" -> 8; nullopt otherwise. And back.
std::optional<std::size_t> parse_matmul_element(std::string_view name);
std::string_view matmul_element_name(std::size_t element_bytes);

struct MatmulAlgorithmInfo {
  MatmulAlgorithm algorithm;
  std::string_view name;     // "a1-cra", ...: the CLI spelling
  std::string_view source;   // the paper's name and section
  std::string_view ports;    // the port model it is made for: "one" or "all"
  bool two_dimensional;
};
std::span<const MatmulAlgorithmInfo> matmul_algorithms();
const MatmulAlgorithmInfo& matmul_algorithm_info(MatmulAlgorithm algorithm);
std::optional<MatmulAlgorithm> parse_matmul_algorithm(std::string_view name);

// Whether the algorithm partitions by rows (the grid N × 1; §5.1, Figure 6).
bool matmul_partitions_rows(MatmulAlgorithm algorithm);

// Whether the algorithm runs on a rectangular grid too: the one-port A2-A5 and A3 version 2 (§5.2.2-5.2.3: the
// transpose on N1 × N2),
// Cannon's (§5.2.1: the virtual Nmax × Nmax torus of the paper's code for N1 = k·N2), Dekel's algorithm and the
// aligned SBT (§5.2.1: N1 = 2^δ·N2 or N2 = 2^δ·N1, the wider side's blocks holding 2^δ blocks of the inner index).
bool matmul_takes_rectangular_grid(MatmulAlgorithm algorithm);

// What a rectangular grid asks of the shape, for messages: "P, Q and R multiples of max(N1, N2)" (A2-A5: every piece
// of the redistribution whole, A3 version 2 too; Cannon: every virtual block whole) or "Q a multiple of max(N1, N2)" (Dekel, the
// aligned SBT: the inner blocks whole).
std::string_view matmul_rectangular_condition(MatmulAlgorithm algorithm);

// Whether the shape suits the grid: always on a square grid and for the algorithms that take no rectangular one,
// else matmul_rectangular_condition.
bool matmul_fits_grid(const MatmulShape& shape, MatmulAlgorithm algorithm, Grid grid);

// The grid an algorithm lays its blocks out on for a d-cube: 1 × N for column partitioning, N × 1 for row partitioning, options.grid for
// A1 2-D and for the algorithms of matmul_takes_rectangular_grid when it has d dimensions, the square grid for the
// others.
Grid matmul_grid(const MatmulOptions& options, int d);

struct BlockShape {
  std::size_t rows = 0, cols = 0;
  std::size_t size() const { return rows * cols; }
};
// ⌈rows/N1⌉ × ⌈cols/N2⌉.
BlockShape block_shape(std::size_t rows, std::size_t cols, Grid grid);

// Throws UsageError, naming the constraint, unless the algorithm runs this shape on a d-cube: P, Q, R >= 1;
// element_bytes 4 or 8; A1 2-D: n1, n2 >= 0 with n1 + n2 = d; the one-port A2-A5 (A3 version 2 too), Cannon's,
// Dekel's and the aligned SBT on a given rectangular grid: matmul_fits_grid; the outer product, the n-port A2-A5 and
// the others without a grid: d even (a square grid, N1 = N2); the hybrid: 0 <= k <= d;
// products >= 1, and above 1 only for the outer product. Any P, Q, R that do not divide
// evenly are padded with zeros to whole blocks.
void check_matmul(const MatmulShape& shape, const MatmulOptions& options, int d);

// The closed form, split as the paper's tables split it. `arithmetic` = flops · t_a + compute_calls · t_o, the flops
// of the busiest node (all nodes do the same, padding included) and its Node::compute calls, each paying the fixed
// compute_overhead t_o (docs/model.md §14); `communication` is the rest: transfers, and ρ for the local copies the
// paper counts as free. total() is the makespan.
struct MatmulTime {
  Time communication = 0;
  Time arithmetic = 0;
  std::uint64_t flops = 0;
  std::uint64_t compute_calls = 0;
  Time total() const { return communication + arithmetic; }
};
// nullopt where hcemu has no closed form: the n-port algorithms (ports "all" in matmul_algorithms()) off all-port
// machines, the pipelined outer product under a port overlap, on a torus or mesh, or with several products off half
// duplex (docs/kernels/matmul.md), and the n-port A2-A5 when the all-port transpose
// of their blocks has no time (model::stout_wagar_transpose_time). Throws UsageError like check_matmul.
std::optional<MatmulTime> matmul_time(const MachineConfig& config, const MatmulShape& shape, const MatmulOptions& options);

// The pipelined outer products as Johnsson & Ho (1987) §5.2.1 count them, in SIMD steps "of communications of two
// block matrices, one block matrix multiplication and one block matrix addition": 2√N + 1 steps for even √N (the
// boundary's extra buffer), 2√N - 1 for odd (N = 1: one step); K = options.products multiplications (K + 1)√N + 1
// (N = 1: K). A step is a block product W (t_a per flop and t_o,
// docs/model.md §6, §14) and the two block transfers T_C and T_D (§9), one after the other through one port
// (ports one, half, k:1), side by side where a node drives two links at once (all, k:N with N >= 2):
// steps·(W + T_C + T_D) or steps·(W + max(T_C, T_D)). The paper's idealised figure, beside matmul_time's exact one;
// nullopt where matmul_time gives none. Throws UsageError like check_matmul, and for another algorithm.
std::optional<Time> outer_product_step_time(const MachineConfig& config, const MatmulShape& shape,
                                            const MatmulOptions& options);

}  // namespace hcemu::model
