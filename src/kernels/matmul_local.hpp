#pragma once
// What the matrix multiplication kernels share: the block products, done for real on the node's data, and the
// context every algorithm receives.
#include <cstddef>
#include <span>

#include "hcemu/kernels/matmul.hpp"

namespace hcemu::kernels::detail {

// A(i, j) = [A(i, j) +] Σ_{l < inner} c(i, l)·d(l, j) for i < rows, j < cols; A column-major with leading dimension
// lda. c and d are element accessors, so that a matrix stored as a stack of blocks needs no copy.
template <class CAt, class DAt>
void multiply(std::size_t rows, std::size_t cols, std::size_t inner, CAt c, DAt d, std::span<double> a,
              std::size_t lda, bool accumulate) {
  for (std::size_t j = 0; j < cols; ++j) {
    double* column = a.data() + j * lda;
    if (!accumulate)
      for (std::size_t i = 0; i < rows; ++i) column[i] = 0.0;
    for (std::size_t l = 0; l < inner; ++l) {
      const double dlj = d(l, j);
      for (std::size_t i = 0; i < rows; ++i) column[i] += c(i, l) * dlj;
    }
  }
}

// A column-major matrix with leading dimension ld; rows >= `rows` (or columns >= `cols`) read as zero padding.
struct ColumnMajor {
  std::span<const double> data;
  std::size_t ld;
  std::size_t rows = static_cast<std::size_t>(-1), cols = static_cast<std::size_t>(-1);
  double operator()(std::size_t i, std::size_t j) const { return i < rows && j < cols ? data[i + j * ld] : 0.0; }
};

// A matrix stored as blocks of block_rows × cols stacked vertically, each column-major.
struct RowBlocks {
  std::span<const double> data;
  std::size_t block_rows, cols;
  double operator()(std::size_t i, std::size_t j) const {
    const std::size_t b = i / block_rows;
    return data[b * block_rows * cols + j * block_rows + i % block_rows];
  }
};

struct MatmulContext {
  Node& node;
  MatmulShape shape;
  MatmulOptions options;
  Grid grid;
  MatmulBlocks blocks;
  model::BlockShape c, d, a;  // the node's block shapes
};

// A = E + what is in A (both blocks a.rows × a.cols): one flop per element.
inline void add_e(MatmulContext& x) {
  for (std::size_t k = 0; k < x.blocks.a.size(); ++k) x.blocks.a[k] += x.blocks.e[k];
  x.node.compute(x.blocks.a.size());
}

inline std::span<const std::byte> bytes(std::span<const double> s) { return std::as_bytes(s); }
inline std::span<std::byte> bytes(std::span<double> s) { return std::as_writable_bytes(s); }

// One entry per algorithm family; matmul.cpp dispatches to them.
void a1_linear(MatmulContext& x);    // a1_cra, a1_gcea, a1_rotated_gcea, a1_hybrid
void a1_tree(MatmulContext& x);      // a1_sbt, a1_sbnt, a1_nrsbt
void in_space_1d(MatmulContext& x);  // a3, a3_sbnt, a4, a4_sbnt
void a1_2d(MatmulContext& x);        // a1_2d, a1_2d_sbnt
void outer_product(MatmulContext& x);
void transposed_2d(MatmulContext& x);  // a2..a5 2-D

}  // namespace hcemu::kernels::detail
