// Algorithms 1, 3 and 4 with one-dimensional row partitioning: Johnsson & Ho (1987) §5.1, Figure 6 ("For row
// partitioning the roles of C and D are interchanged"). Node k holds block row k of C (⌈P/N⌉ × Q), D (⌈Q/N⌉ × R),
// E and A (⌈P/N⌉ × R), the grid N × 1:
//
//   A1: C_k*, D_k* --brd D--> C_k*, D_** --mpy [P]--> A_k*
//   A3: C_k*, D_k* --txp D--> C_k*, D_*k --brd C--> C_**, D_*k --mpy [R]--> A_*k --txp A--> A_k*
//   A4: C_k*, D_k* --txp C--> C_*k, D_k* --mpy [Q]--> A^k_** --red A--> A_k*
//
// The mirror images of the column algorithms (matmul_a1_tree.cpp, matmul_in_space.cpp), with the same primitives:
// SBT-b(1,N) (recursive doubling) or SBnT-b(n,N) for the broadcast, SBT-p(1,N) (the standard exchange) or SBnT-p(n,N)
// for the transposes, recursive halving or SBnT reduce-scatter for the reduction. A block row is column-major, so its
// column blocks are contiguous: cutting it for a transpose is one copy of the block (ρ per byte, zero past the
// matrix), and gluing the column blocks that come back is one copy of the real columns.
#include <algorithm>

#include "hcemu/kernels/allgather.hpp"
#include "hcemu/kernels/exchange.hpp"
#include "hcemu/kernels/primitives.hpp"
#include "hcemu/kernels/reduction.hpp"
#include "matmul_local.hpp"

namespace hcemu::kernels::detail {
namespace {
// Named, because the column algorithms' file has helpers of the same names (a unity build compiles them together).
namespace by_rows {

using A = MatmulAlgorithm;

template <class T>
bool balanced(const MatmulContext<T>& x) {
  return x.options.algorithm == A::a1_rows_sbnt || x.options.algorithm == A::a3_rows_sbnt ||
         x.options.algorithm == A::a4_rows_sbnt;
}

template <class T>
void broadcast(MatmulContext<T>& x, std::span<T> all, std::size_t block) {
  if (balanced(x))
    sbnt_allgather(x.node, bytes(all), sizeof(T) * block);
  else
    recursive_doubling_allgather(x.node, bytes(all), sizeof(T) * block);
}

// Every node's block stacked in node order, this node's in its place.
template <class T>
Buffer<T> stacked(Node& node, std::span<const T> block) {
  Buffer<T> all = node.allocate<T>(static_cast<std::size_t>(node.size()) * block.size());
  std::copy(block.begin(), block.end(), all.begin() + static_cast<std::size_t>(node.id()) * block.size());
  return all;
}

// The block row as N column blocks of `block` elements each, one after the other (zero past the matrix): block j is
// what node j gets. The column blocks of a column-major block row are contiguous, so this is one copy.
template <class T>
Buffer<T> cut_columns(Node& node, std::span<const T> from, std::size_t block) {
  Buffer<T> to = node.allocate<T>(static_cast<std::size_t>(node.size()) * block);
  std::fill(to.begin(), to.end(), T{0});
  node.copy(bytes(from), bytes(to.span().subspan(0, from.size())));
  return to;
}

template <class T>
void a1(MatmulContext<T>& x) {
  Node& node = x.node;
  const std::size_t p = x.c.rows, q = x.d.rows, Q = x.shape.Q, R = x.shape.R;
  Buffer<T> all_d = stacked(node, x.blocks.d);  // D_**, N blocks of q × R
  broadcast(x, all_d.span(), x.blocks.d.size());
  std::copy(x.blocks.e.begin(), x.blocks.e.end(), x.blocks.a.begin());
  multiply(p, R, Q, ColumnMajor{x.blocks.c, p}, RowBlocks{all_d.span(), q, R}, x.blocks.a, p, true);
  node.compute(2 * p * Q * R);
}

template <class T>
void a3(MatmulContext<T>& x) {
  Node& node = x.node;
  const auto n = static_cast<std::size_t>(node.size());
  const std::size_t P = x.shape.P, Q = x.shape.Q, R = x.shape.R, p = x.c.rows, q = x.d.rows;
  const std::size_t r = (R + n - 1) / n;
  // txp D: column block k of D, N blocks of q × r stacked (block j from node j).
  Buffer<T> send = cut_columns(node, x.blocks.d, q * r);
  Buffer<T> columns_of_d = node.allocate<T>(n * q * r);
  personalized(node, balanced(x), send.span(), columns_of_d.span(), q * r);
  // brd C: all of C, N blocks of p × Q.
  Buffer<T> all_c = stacked(node, x.blocks.c);
  broadcast(x, all_c.span(), x.blocks.c.size());
  // mpy: A_*k = C · D_*k over the P real rows, stacked as N row blocks of p × r: P·r·(2Q - 1) flops.
  Buffer<T> columns_of_a = node.allocate<T>(n * p * r);
  std::fill(columns_of_a.begin(), columns_of_a.end(), T{0});
  const RowBlocks c{std::span<const T>(all_c.span()), p, Q};
  for (std::size_t b = 0; b < n && b * p < P; ++b)
    multiply(std::min(p, P - b * p), r, Q, [&](std::size_t i, std::size_t l) { return c(b * p + i, l); },
             RowBlocks{columns_of_d.span(), q, r}, columns_of_a.span().subspan(b * p * r, p * r), p, false);
  node.compute(P * r * (2 * Q - 1));
  // txp A: row block j of A_*k goes to node j; column block j of my row block comes back from node j, and the
  // blocks side by side are the row block, column-major: one copy of its R real columns.
  Buffer<T> back = node.allocate<T>(n * p * r);
  personalized(node, balanced(x), columns_of_a.span(), back.span(), p * r);
  node.copy(bytes(std::span<const T>(back.span().subspan(0, p * R))), bytes(x.blocks.a));
  add_e(x);
}

template <class T>
void a4(MatmulContext<T>& x) {
  Node& node = x.node;
  const auto n = static_cast<std::size_t>(node.size());
  const std::size_t P = x.shape.P, R = x.shape.R, p = x.c.rows, q = x.d.rows;
  // txp C: column block k of C, N blocks of p × q stacked (block j from node j).
  Buffer<T> send = cut_columns(node, x.blocks.c, p * q);
  Buffer<T> column_of_c = node.allocate<T>(n * p * q);
  personalized(node, balanced(x), send.span(), column_of_c.span(), p * q);
  // mpy: A^k = C_*k · D_k*, P × R over the P real rows, stacked as N row blocks of p × R: P·R·(2q - 1) flops.
  Buffer<T> partial = node.allocate<T>(n * p * R);
  std::fill(partial.begin(), partial.end(), T{0});
  for (std::size_t b = 0; b < n && b * p < P; ++b)
    multiply(std::min(p, P - b * p), R, q, ColumnMajor{std::span<const T>(column_of_c.span().subspan(b * p * q, p * q)), p},
             ColumnMajor{x.blocks.d, q}, partial.span().subspan(b * p * R, p * R), p, false);
  node.compute(P * R * (2 * q - 1));
  // red A: row block k of the sum of every node's A^k, (N - 1)·⌈P/N⌉·R additions.
  sum_scatter(node, partial.span(), p * R, x.blocks.a, {}, balanced(x));
  add_e(x);
}

}  // namespace by_rows
}  // namespace

template <class T>
void rows_1d(MatmulContext<T>& x) {
  switch (x.options.algorithm) {
    case MatmulAlgorithm::a1_rows:
    case MatmulAlgorithm::a1_rows_sbnt:
      return by_rows::a1(x);
    case MatmulAlgorithm::a3_rows:
    case MatmulAlgorithm::a3_rows_sbnt:
      return by_rows::a3(x);
    default:
      return by_rows::a4(x);
  }
}

template void rows_1d(MatmulContext<float>&);
template void rows_1d(MatmulContext<double>&);

}  // namespace hcemu::kernels::detail
