// Algorithms 3 and 4 with one-dimensional column partitioning: Johnsson & Ho (1987) §5.1, Figure 6 and Table 5.
//
//   A3: C_*k, D_*k --txp C--> C_k*, D_*k --brd D--> C_k*, D_** --mpy--> A_k* --txp A--> A_*k
//   A4: C_*k, D_*k --txp D--> C_*k, D_k* --mpy--> A^k_** --red A--> A_*k          ("in space")
//
// The transposes are all-to-all personalized communications (SBT-p(1,N) = the standard exchange, or SBnT-p(n,N)),
// the broadcast of D an all-to-all broadcast (SBT-b(1,N) = recursive doubling, or SBnT-b(n,N)) and the reduction of
// the partial products an all-to-all reduction (recursive halving, or along SBnTs). Cutting a column block into the
// row blocks the exchange sends (and gluing the row blocks that come back into a column block) copies the real rows
// with Node::copy, ρ per byte; the paper leaves copies out of its formulas.
#include <algorithm>
#include "hcemu/kernels/exchange.hpp"
#include "hcemu/kernels/primitives.hpp"
#include "hcemu/kernels/reduction.hpp"
#include "matmul_local.hpp"

namespace hcemu::kernels::detail {
namespace {

template <class T>
bool balanced(const MatmulContext<T>& x) {
  return x.options.algorithm == MatmulAlgorithm::a3_sbnt || x.options.algorithm == MatmulAlgorithm::a4_sbnt;
}

// Cuts the column-major `rows` × cols matrix into N row blocks of `block_rows` rows each (zero past `rows`), one
// after the other: block j is what node j gets.
template <class T>
void cut_rows(Node& node, std::span<const T> from, std::size_t rows, std::size_t cols, std::size_t block_rows,
              std::span<T> to) {
  const auto n = static_cast<std::size_t>(node.size());
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t col = 0; col < cols; ++col) {
      const std::size_t first = j * block_rows;
      if (first >= rows) continue;
      const std::size_t count = std::min(block_rows, rows - first);
      node.copy(bytes(from.subspan(first + col * rows, count)),
                bytes(to.subspan(j * block_rows * cols + col * block_rows, count)));
    }
}

template <class T>
void a3(MatmulContext<T>& x) {
  Node& node = x.node;
  const auto n = static_cast<std::size_t>(node.size());
  const std::size_t P = x.shape.P, Q = x.shape.Q, R = x.shape.R, q = x.c.cols, r = x.a.cols;
  const std::size_t p = (P + n - 1) / n;

  // txp C: row block k of C, all columns: p × N·q, column-major (block j = columns of node j).
  Buffer<T> send = node.allocate<T>(n * p * q), rows_of_c = node.allocate<T>(n * p * q);
  std::fill(send.begin(), send.end(), T{0});
  cut_rows(node, x.blocks.c, P, q, p, send.span());
  personalized(node, balanced(x), send.span(), rows_of_c.span(), p * q);

  // brd D: all of D, Q × N·r.
  Buffer<T> all_d = node.allocate<T>(n * Q * r);
  std::copy(x.blocks.d.begin(), x.blocks.d.end(), all_d.begin() + static_cast<std::size_t>(node.id()) * Q * r);
  if (balanced(x))
    sbnt_allgather(node, bytes(all_d.span()), sizeof(T) * Q * r, {});
  else
    sbt_allgather(node, bytes(all_d.span()), sizeof(T) * Q * r, {});

  // mpy: A_k* = C_k* · D, p × R of p × N·r: p·R·(2Q - 1) flops.
  Buffer<T> rows_of_a = node.allocate<T>(n * p * r);
  std::fill(rows_of_a.begin(), rows_of_a.end(), T{0});
  multiply(p, R, Q, ColumnMajor{rows_of_c.span(), p}, ColumnMajor{all_d.span(), Q}, rows_of_a.span(), p, false);
  node.compute(p * R * (2 * Q - 1));

  // txp A: column block j of A_k* (contiguous) goes to node j; row block j of my column block comes back.
  Buffer<T> back = node.allocate<T>(n * p * r);
  personalized(node, balanced(x), rows_of_a.span(), back.span(), p * r);
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t col = 0; col < r; ++col) {
      const std::size_t first = j * p;
      if (first >= P) continue;
      node.copy(bytes(std::span<const T>(back.span().subspan(j * p * r + col * p, std::min(p, P - first)))),
                bytes(x.blocks.a.subspan(first + col * P, std::min(p, P - first))));
    }
  add_e(x);
}

template <class T>
void a4(MatmulContext<T>& x) {
  Node& node = x.node;
  const auto n = static_cast<std::size_t>(node.size());
  const std::size_t P = x.shape.P, Q = x.shape.Q, R = x.shape.R, q = x.c.cols, r = x.a.cols;

  // txp D: row block k of D, all columns: q × N·r.
  Buffer<T> send = node.allocate<T>(n * q * r), rows_of_d = node.allocate<T>(n * q * r);
  std::fill(send.begin(), send.end(), T{0});
  cut_rows(node, x.blocks.d, Q, r, q, send.span());
  personalized(node, balanced(x), send.span(), rows_of_d.span(), q * r);

  // mpy: A^k = C_*k · D_k*, P × R of P × N·r: P·R·(2⌈Q/N⌉ - 1) flops.
  Buffer<T> partial = node.allocate<T>(n * P * r);
  std::fill(partial.begin(), partial.end(), T{0});
  multiply(P, R, q, ColumnMajor{x.blocks.c, P}, ColumnMajor{rows_of_d.span(), q}, partial.span(), P, false);
  node.compute(P * R * (2 * q - 1));

  // red A: block column x of the sum of every node's A^k, P·(N - 1)·⌈R/N⌉ additions.
  sum_scatter(node, partial.span(), P * r, x.blocks.a, {}, x.options.algorithm == MatmulAlgorithm::a4_sbnt);
  add_e(x);
}

}  // namespace

template <class T>
void in_space_1d(MatmulContext<T>& x) {
  if (x.options.algorithm == MatmulAlgorithm::a3 || x.options.algorithm == MatmulAlgorithm::a3_sbnt)
    a3(x);
  else
    a4(x);
}

template void in_space_1d(MatmulContext<float>&);
template void in_space_1d(MatmulContext<double>&);

}  // namespace hcemu::kernels::detail
