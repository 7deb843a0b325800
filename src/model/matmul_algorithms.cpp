// The matrix multiplication algorithms of Johnsson & Ho (1987) §5: one row each, with the name, source and port
// model everything else (the kernels' dispatcher, the planner, the docs' tables) reads.
#include <algorithm>
#include <array>
#include <string>

#include "hcemu/errors.hpp"
#include "hcemu/model/matmul.hpp"

namespace hcemu::model {
namespace {

using A = MatmulAlgorithm;

// The one-port A2-A5 and A3 version 2 with the rectangular transpose (§5.2.2, §5.2.3); Cannon's on the virtual
// Nmax × Nmax torus of the paper's code for N1 = k·N2; Dekel's algorithm and the aligned SBT with Dekel's alignment
// on N1 = 2^δ·N2 or N2 = 2^δ·N1 (§5.2.1: "for P = 2^α1 N1, Q = 2^α2 N1 = 2^α3 N2 and R = 2^α4 N2 the algorithm is
// directly portable"). The first ones cut P, Q and R by Nmax, the last two only Q.
bool cuts_every_side(MatmulAlgorithm a) {
  return a == A::a2_2d || a == A::a3_2d || a == A::a3_2d_v2 || a == A::a4_2d || a == A::a5_2d || a == A::cannon;
}
bool takes_rectangular_grid(MatmulAlgorithm a) {
  return cuts_every_side(a) || a == A::dekel || a == A::sbt_aligned;
}

constexpr std::array kAlgorithms = {
    MatmulAlgorithmInfo{A::a1_cra, "a1-cra", "A1^l(1), CRA(1,N)[C]: §5.1, Tables 5-7", "one", false},
    MatmulAlgorithmInfo{A::a1_gcea, "a1-gcea", "A1^l(1), GCEA(1,N)[C]: §5.1, Tables 5-7", "one", false},
    MatmulAlgorithmInfo{A::a1_rotated_gcea, "a1-gcea-n", "A1^l(n), GCEA(n,N)[C]: §5.1, Tables 5-7", "all", false},
    MatmulAlgorithmInfo{A::a1_sbt, "a1-sbt", "A1(1), SBT-b(1,N)[C]: §5.1, Tables 5-7", "one", false},
    MatmulAlgorithmInfo{A::a1_sbnt, "a1-sbnt", "A1(n), SBnT-b(n,N)[C]: §5.1, Tables 5-7", "all", false},
    MatmulAlgorithmInfo{A::a1_nrsbt, "a1-nrsbt", "A1(n), nRSBT-b(n,N)[C]: §5.1, Tables 5-7", "all", false},
    MatmulAlgorithmInfo{A::a1_hybrid, "a1-hybrid", "hybrid SBT/GCEA with k SBT steps: §5.1, Figure 10", "one", false},
    MatmulAlgorithmInfo{A::a3, "a3", "A3(1), SBT-p[C] + SBT-b[D] + SBT-p[A]: §5.1, Tables 5-7", "one", false},
    MatmulAlgorithmInfo{A::a3_sbnt, "a3-sbnt", "A3(n), SBnT-p[C] + SBnT-b[D] + SBnT-p[A]: §5.1, Tables 5-7", "all", false},
    MatmulAlgorithmInfo{A::a4, "a4", "A4(1), SBT-p[D] + SBT-b reduction[A]: §5.1, Tables 5-7", "one", false},
    MatmulAlgorithmInfo{A::a4_sbnt, "a4-sbnt", "A4(n), SBnT-p[D] + SBnT-b reduction[A]: §5.1, Tables 5-7", "all", false},
    MatmulAlgorithmInfo{A::a1_rows, "a1-rows", "A1(1) by rows, SBT-b(1,N)[D]: §5.1, Figure 6", "one", false},
    MatmulAlgorithmInfo{A::a1_rows_sbnt, "a1-rows-sbnt", "A1(n) by rows, SBnT-b(n,N)[D]: §5.1, Figure 6", "all", false},
    MatmulAlgorithmInfo{A::a3_rows, "a3-rows", "A3(1) by rows, SBT-p[D] + SBT-b[C] + SBT-p[A]: §5.1, Figure 6", "one", false},
    MatmulAlgorithmInfo{A::a3_rows_sbnt, "a3-rows-sbnt", "A3(n) by rows, SBnT-p[D] + SBnT-b[C] + SBnT-p[A]: §5.1, Figure 6", "all", false},
    MatmulAlgorithmInfo{A::a4_rows, "a4-rows", "A4(1) by rows, SBT-p[C] + SBT-b reduction[A]: §5.1, Figure 6", "one", false},
    MatmulAlgorithmInfo{A::a4_rows_sbnt, "a4-rows-sbnt", "A4(n) by rows, SBnT-p[C] + SBnT-b reduction[A]: §5.1, Figure 6", "all", false},
    MatmulAlgorithmInfo{A::a1_2d, "a1-2d", "A1(1), SBT-b(1,N2)[C] + SBT-b(1,N1)[D]: §5.2.1, Tables 8-10", "one", true},
    MatmulAlgorithmInfo{A::a1_2d_sbnt, "a1-2d-sbnt", "A1(n), SBnT-b(n2,N2)[C] + SBnT-b(n1,N1)[D]: §5.2.1, Tables 8, 11", "all", true},
    MatmulAlgorithmInfo{A::outer_product, "outer-product", "pipelined outer products: §5.2.1, Figure 16", "one", true},
    MatmulAlgorithmInfo{A::a2_2d, "a2-2d", "A2(1), TXP[C] + SBT-b[C] + SBT-b reduction[A]: §5.2.2, Tables 8-10", "one", true},
    MatmulAlgorithmInfo{A::a2_2d_sbnt, "a2-2d-sbnt", "A2(n), TXP(n)[C] + SBnT-b[C] + SBnT-b reduction[A]: §5.2.2, Tables 8, 11", "all", true},
    MatmulAlgorithmInfo{A::a3_2d, "a3-2d", "A3(1) version 1, TXP[C] + SBT-b[D] + reduction[A] + TXP[A]: §5.2.3, Tables 8-10", "one", true},
    MatmulAlgorithmInfo{A::a3_2d_sbnt, "a3-2d-sbnt", "A3(n) version 1: §5.2.3, Tables 8, 11", "all", true},
    MatmulAlgorithmInfo{A::a3_2d_v2, "a3-2d-v2", "A3(1) version 2, TXP[C] + SBT-b[D] + SBT reduction[A] to its row + SBT-p[A]: §5.2.3", "one", true},
    MatmulAlgorithmInfo{A::a4_2d, "a4-2d", "A4(1), TXP[D] + SBT-b[D] + SBT-b reduction[A]: §5.2, Tables 8-10", "one", true},
    MatmulAlgorithmInfo{A::a4_2d_sbnt, "a4-2d-sbnt", "A4(n): §5.2, Tables 8, 11", "all", true},
    MatmulAlgorithmInfo{A::a5_2d, "a5-2d", "A5(1), TXP[D] + SBT-b[C] + reduction[A] + TXP[A]: §5.2, Tables 8-10", "one", true},
    MatmulAlgorithmInfo{A::a5_2d_sbnt, "a5-2d-sbnt", "A5(n): §5.2, Tables 8, 11", "all", true},
    MatmulAlgorithmInfo{A::cannon, "cannon", "Cannon's algorithm, CRA alignment + rotations of C and D: §5.2.1, Figure 17", "one", true},
    MatmulAlgorithmInfo{A::dekel, "dekel", "Dekel's algorithm, GCEA-based: exchange alignment + GCEA(1,N2)[C], GCEA(1,N1)[D]: §5.2.1", "one", true},
    MatmulAlgorithmInfo{A::sbt_aligned, "sbt-aligned", "SBT-based with Dekel's alignment: SBT-b(1,N2)[C], SBT-b(1,N1)[D] step by step: §5.2.1", "one", true},
};

bool needs_square_grid(MatmulAlgorithm a) {
  return matmul_algorithm_info(a).two_dimensional && a != A::a1_2d && a != A::a1_2d_sbnt && !takes_rectangular_grid(a);
}

// Why an algorithm needs N1 = N2, for its error.
std::string square_reason(MatmulAlgorithm a) {
  if (a == A::outer_product) return "its wave fronts run from the diagonal blocks";
  if (takes_rectangular_grid(a)) return "without a grid n1,n2 it runs the square one";
  return "its transposes move block (k, l) to processor (l, k)";
}

// options.grid, when it has the cube's d dimensions and the algorithm takes it.
bool grid_given(const MatmulOptions& options, int d) {
  return takes_rectangular_grid(options.algorithm) && options.grid.n1 >= 0 && options.grid.n2 >= 0 &&
         options.grid.n1 + options.grid.n2 == d;
}

}  // namespace

std::span<const MatmulAlgorithmInfo> matmul_algorithms() { return kAlgorithms; }

bool matmul_takes_rectangular_grid(MatmulAlgorithm algorithm) { return takes_rectangular_grid(algorithm); }

std::string_view matmul_rectangular_condition(MatmulAlgorithm algorithm) {
  return cuts_every_side(algorithm) ? "P, Q and R multiples of max(N1, N2)" : "Q a multiple of max(N1, N2)";
}

bool matmul_fits_grid(const MatmulShape& shape, MatmulAlgorithm algorithm, Grid grid) {
  if (grid.n1 == grid.n2 || !takes_rectangular_grid(algorithm)) return true;
  const std::size_t most = std::size_t{1} << std::max(grid.n1, grid.n2);
  if (cuts_every_side(algorithm)) return shape.P % most == 0 && shape.Q % most == 0 && shape.R % most == 0;
  return shape.Q % most == 0;
}

bool matmul_partitions_rows(MatmulAlgorithm a) {
  return a == A::a1_rows || a == A::a1_rows_sbnt || a == A::a3_rows || a == A::a3_rows_sbnt || a == A::a4_rows ||
         a == A::a4_rows_sbnt;
}

const MatmulAlgorithmInfo& matmul_algorithm_info(MatmulAlgorithm algorithm) {
  for (const auto& row : kAlgorithms)
    if (row.algorithm == algorithm) return row;
  throw UsageError("matmul: unknown algorithm");
}

std::optional<MatmulAlgorithm> parse_matmul_algorithm(std::string_view name) {
  for (const auto& row : kAlgorithms)
    if (row.name == name) return row.algorithm;
  return std::nullopt;
}

std::optional<std::size_t> parse_matmul_element(std::string_view name) {
  if (name == "float") return 4;
  if (name == "double") return 8;
  return std::nullopt;
}

std::string_view matmul_element_name(std::size_t element_bytes) { return element_bytes == 4 ? "float" : "double"; }

Grid matmul_grid(const MatmulOptions& options, int d) {
  if (matmul_partitions_rows(options.algorithm)) return {d, 0};
  if (!matmul_algorithm_info(options.algorithm).two_dimensional) return {0, d};
  if (grid_given(options, d)) return options.grid;
  if (!needs_square_grid(options.algorithm) && !takes_rectangular_grid(options.algorithm)) return options.grid;
  return {d / 2, d / 2};
}

BlockShape block_shape(std::size_t rows, std::size_t cols, Grid grid) {
  const auto n1 = static_cast<std::size_t>(grid.rows()), n2 = static_cast<std::size_t>(grid.cols());
  return {(rows + n1 - 1) / n1, (cols + n2 - 1) / n2};
}

void check_matmul(const MatmulShape& shape, const MatmulOptions& options, int d) {
  const std::string name(matmul_algorithm_info(options.algorithm).name);
  if (shape.P == 0 || shape.Q == 0 || shape.R == 0)
    throw UsageError("matmul " + name + ": P, Q and R must be at least 1, got P = " + std::to_string(shape.P) +
                     ", Q = " + std::to_string(shape.Q) + ", R = " + std::to_string(shape.R));
  if (options.element_bytes != 4 && options.element_bytes != 8)
    throw UsageError("matmul " + name + ": elements of " + std::to_string(options.element_bytes) +
                     " bytes; float (4) or double (8)");
  const auto a = options.algorithm;
  if ((a == A::a1_2d || a == A::a1_2d_sbnt) &&
      (options.grid.n1 < 0 || options.grid.n2 < 0 || options.grid.n1 + options.grid.n2 != d))
    throw UsageError("matmul " + name + ": the grid 2^" + std::to_string(options.grid.n1) + " x 2^" +
                     std::to_string(options.grid.n2) + " does not have the 2^" + std::to_string(d) +
                     " nodes of the cube (n1 + n2 must equal d)");
  if (takes_rectangular_grid(a) && (options.grid.n1 != 0 || options.grid.n2 != 0) && !grid_given(options, d))
    throw UsageError("matmul " + name + ": the grid 2^" + std::to_string(options.grid.n1) + " x 2^" +
                     std::to_string(options.grid.n2) + " does not have the 2^" + std::to_string(d) +
                     " nodes of the cube (n1 + n2 must equal d)");
  if (grid_given(options, d) && options.grid.n1 != options.grid.n2) {
    const std::size_t most = std::size_t{1} << std::max(options.grid.n1, options.grid.n2);
    if (!matmul_fits_grid(shape, a, options.grid))
      throw UsageError("matmul " + name + ": on the rectangular grid 2^" + std::to_string(options.grid.n1) + " x 2^" +
                       std::to_string(options.grid.n2) + " needs " + std::string(matmul_rectangular_condition(a)) +
                       " = " + std::to_string(most) + ", got P = " + std::to_string(shape.P) + ", Q = " +
                       std::to_string(shape.Q) + ", R = " + std::to_string(shape.R));
  } else if ((needs_square_grid(a) || takes_rectangular_grid(a)) && d % 2 != 0)
    throw UsageError("matmul " + name + ": needs a square processor grid N1 = N2, so an even d, got d = " +
                     std::to_string(d) + " (" + square_reason(a) + ")");
  if (options.products < 1 || (options.products > 1 && a != A::outer_product))
    throw UsageError("matmul " + name + ": " + std::to_string(options.products) +
                     " pipelined products; at least 1, and more only for outer-product (Johnsson & Ho 1987 §5.2.1)");
  if (a == A::a1_hybrid && (options.k < 0 || options.k > d))
    throw UsageError("matmul " + name + ": k = " + std::to_string(options.k) + " SBT steps, must be in 0.." +
                     std::to_string(d));
}

}  // namespace hcemu::model
