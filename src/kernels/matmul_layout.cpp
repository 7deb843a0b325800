// Laying matrices out in the blocks of model/matmul.hpp, and the sequential reference.
#include <algorithm>

#include "hcemu/errors.hpp"
#include "hcemu/kernels/matmul.hpp"

namespace hcemu::kernels {

std::vector<double> extract_block(std::span<const double> matrix, std::size_t rows, std::size_t cols, Grid grid,
                                  int node) {
  const model::BlockShape b = model::block_shape(rows, cols, grid);
  const auto k = static_cast<std::size_t>(node >> grid.n2), l = static_cast<std::size_t>(node & (grid.cols() - 1));
  std::vector<double> block(b.size(), 0.0);
  for (std::size_t j = 0; j < b.cols && l * b.cols + j < cols; ++j)
    for (std::size_t i = 0; i < b.rows && k * b.rows + i < rows; ++i)
      block[i + j * b.rows] = matrix[(k * b.rows + i) + (l * b.cols + j) * rows];
  return block;
}

void place_block(std::span<const double> block, std::span<double> matrix, std::size_t rows, std::size_t cols,
                 Grid grid, int node) {
  const model::BlockShape b = model::block_shape(rows, cols, grid);
  const auto k = static_cast<std::size_t>(node >> grid.n2), l = static_cast<std::size_t>(node & (grid.cols() - 1));
  for (std::size_t j = 0; j < b.cols && l * b.cols + j < cols; ++j)
    for (std::size_t i = 0; i < b.rows && k * b.rows + i < rows; ++i)
      matrix[(k * b.rows + i) + (l * b.cols + j) * rows] = block[i + j * b.rows];
}

std::vector<double> serial_matmul(const MatmulShape& shape, std::span<const double> c, std::span<const double> d,
                                  std::span<const double> e) {
  const auto [P, Q, R] = shape;
  if (c.size() != P * Q || d.size() != Q * R || e.size() != P * R)
    throw UsageError("serial_matmul: C, D and E must be P x Q, Q x R and P x R");
  std::vector<double> a(e.begin(), e.end());
  for (std::size_t j = 0; j < R; ++j)
    for (std::size_t k = 0; k < Q; ++k)
      for (std::size_t i = 0; i < P; ++i) a[i + j * P] += c[i + k * P] * d[k + j * Q];
  return a;
}

}  // namespace hcemu::kernels
