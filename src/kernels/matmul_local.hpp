#pragma once
// What the matrix multiplication kernels share: the block products, done for real on the node's data, and the
// context every algorithm receives.
#include <cstddef>
#include <span>
#include <type_traits>

#include "hcemu/kernels/exchange.hpp"
#include "hcemu/kernels/matmul.hpp"
#include "hcemu/kernels/reduction.hpp"

namespace hcemu::kernels::detail {

// A(i, j) = [A(i, j) +] Σ_{l < inner} c(i, l)·d(l, j) for i < rows, j < cols; A column-major with leading dimension
// lda. c and d are element accessors, so that a matrix stored as a stack of blocks needs no copy. In T's precision.
template <class T, class CAt, class DAt>
void multiply(std::size_t rows, std::size_t cols, std::size_t inner, CAt c, DAt d, std::span<T> a, std::size_t lda,
              bool accumulate) {
  for (std::size_t j = 0; j < cols; ++j) {
    T* column = a.data() + j * lda;
    if (!accumulate)
      for (std::size_t i = 0; i < rows; ++i) column[i] = T{0};
    for (std::size_t l = 0; l < inner; ++l) {
      const T dlj = d(l, j);
      for (std::size_t i = 0; i < rows; ++i) column[i] += c(i, l) * dlj;
    }
  }
}

// A column-major matrix with leading dimension ld; rows >= `rows` (or columns >= `cols`) read as zero padding.
template <class T>
struct ColumnMajor {
  std::span<const T> data;
  std::size_t ld;
  std::size_t rows = static_cast<std::size_t>(-1), cols = static_cast<std::size_t>(-1);
  T operator()(std::size_t i, std::size_t j) const { return i < rows && j < cols ? data[i + j * ld] : T{0}; }
};
template <class T>
ColumnMajor(std::span<T>, std::size_t) -> ColumnMajor<std::remove_const_t<T>>;
template <class T>
ColumnMajor(std::span<T>, std::size_t, std::size_t, std::size_t) -> ColumnMajor<std::remove_const_t<T>>;

// A matrix stored as blocks of block_rows × cols stacked vertically, each column-major.
template <class T>
struct RowBlocks {
  std::span<const T> data;
  std::size_t block_rows, cols;
  T operator()(std::size_t i, std::size_t j) const {
    const std::size_t b = i / block_rows;
    return data[b * block_rows * cols + j * block_rows + i % block_rows];
  }
};

template <class T>
RowBlocks(std::span<T>, std::size_t, std::size_t) -> RowBlocks<std::remove_const_t<T>>;

// The node's blocks in the element type the nodes compute and send in: double, or float (options.element_bytes).
template <class T>
struct BlocksOf {
  std::span<const T> c, d, e;
  std::span<T> a;
};

template <class T>
struct MatmulContext {
  Node& node;
  MatmulShape shape;
  MatmulOptions options;
  Grid grid;
  BlocksOf<T> blocks;
  model::BlockShape c, d, a;  // the node's block shapes
};

// A = E + what is in A (both blocks a.rows × a.cols): one flop per element.
template <class T>
void add_e(MatmulContext<T>& x) {
  for (std::size_t k = 0; k < x.blocks.a.size(); ++k) x.blocks.a[k] += x.blocks.e[k];
  x.node.compute(x.blocks.a.size());
}

template <class T>
std::span<const std::byte> bytes(std::span<const T> s) {
  return std::as_bytes(s);
}
template <class T>
std::span<std::byte> bytes(std::span<T> s) {
  return std::as_writable_bytes(s);
}

// A transpose of blocks of `block` elements, all-to-all personalized: SBnT-p(n,N) if `sbnt`, else the standard
// exchange, SBT-p(1,N) (kernels/exchange.hpp).
template <class T>
void personalized(Node& node, bool sbnt, std::type_identity_t<std::span<const T>> send, std::span<T> recv,
                  std::size_t block) {
  if (sbnt)
    sbnt_exchange(node, bytes(send), bytes(recv), sizeof(T) * block);
  else
    standard_exchange(node, bytes(send), bytes(recv), sizeof(T) * block);
}

// The all-to-all sum (reduce-scatter) of `data`'s blocks inside `cube`: along SBnTs if `sbnt`, else by recursive
// halving (kernels/reduction.hpp), one addition per element combined.
template <class T>
void sum_scatter(Node& node, std::span<T> data, std::size_t block, std::span<T> out, Subcube cube, bool sbnt) {
  if constexpr (std::is_same_v<T, double>) {
    if (sbnt)
      sbnt_reduce_scatter(node, data, block, out, {}, cube);
    else
      recursive_halving_reduce_scatter(node, data, block, out, {}, cube);
  } else {
    if (sbnt)
      sbnt_reduce_scatter(node, data, block, out, cube);
    else
      recursive_halving_reduce_scatter(node, data, block, out, cube);
  }
}

// One entry per algorithm family, each instantiated for float and double; matmul.cpp dispatches to them.
template <class T> void a1_linear(MatmulContext<T>& x);    // a1_cra, a1_gcea, a1_rotated_gcea, a1_hybrid
template <class T> void a1_tree(MatmulContext<T>& x);      // a1_sbt, a1_sbnt, a1_nrsbt
template <class T> void in_space_1d(MatmulContext<T>& x);  // a3, a3_sbnt, a4, a4_sbnt
template <class T> void rows_1d(MatmulContext<T>& x);      // a1_rows .. a4_rows_sbnt: row partitioning
template <class T> void a1_2d(MatmulContext<T>& x);        // a1_2d, a1_2d_sbnt
template <class T> void outer_product(MatmulContext<T>& x);
// K outer products through the same wave fronts, one set of blocks each (kernels::pipelined_outer_products).
template <class T>
void outer_products(Node& node, std::span<const BlocksOf<T>> products, model::BlockShape c, model::BlockShape d);
template <class T> void aligned_2d(MatmulContext<T>& x);    // cannon, dekel, sbt_aligned
template <class T> void transposed_2d(MatmulContext<T>& x);  // a2..a5 2-D on a square grid
template <class T> void rectangular_2d(MatmulContext<T>& x);  // a2..a5 2-D, one-port, on an N1 × N2 grid, N1 != N2

}  // namespace hcemu::kernels::detail
