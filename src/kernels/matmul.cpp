// The entry point of the matrix multiplications (Johnsson & Ho 1987 §5): checks the shape and the node's blocks,
// then runs the algorithm's family.
#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "hcemu/errors.hpp"
#include "matmul_local.hpp"

namespace hcemu::kernels {
namespace {

void check_size(std::size_t have, model::BlockShape want, const char* which, const std::string& name, int node) {
  if (have != want.size())
    throw UsageError("matmul " + name + ": node " + std::to_string(node) + "'s block of " + which + " must hold " +
                     std::to_string(want.rows) + " x " + std::to_string(want.cols) + " doubles, it holds " +
                     std::to_string(have));
}

template <class T>
void run(detail::MatmulContext<T>& x) {
  using A = MatmulAlgorithm;
  switch (x.options.algorithm) {
    case A::a1_cra:
    case A::a1_gcea:
    case A::a1_rotated_gcea:
    case A::a1_hybrid:
      return detail::a1_linear(x);
    case A::a1_sbt:
    case A::a1_sbnt:
    case A::a1_nrsbt:
      return detail::a1_tree(x);
    case A::a3:
    case A::a3_sbnt:
    case A::a4:
    case A::a4_sbnt:
      return detail::in_space_1d(x);
    case A::a1_rows:
    case A::a1_rows_sbnt:
    case A::a3_rows:
    case A::a3_rows_sbnt:
    case A::a4_rows:
    case A::a4_rows_sbnt:
      return detail::rows_1d(x);
    case A::a1_2d:
    case A::a1_2d_sbnt:
      return detail::a1_2d(x);
    case A::outer_product:
      return detail::outer_product(x);
    case A::cannon:
    case A::dekel:
    case A::sbt_aligned:
      return detail::aligned_2d(x);
    default:
      if (x.grid.n1 != x.grid.n2) return detail::rectangular_2d(x);
      return detail::transposed_2d(x);
  }
}

// A float copy of a block, in the node's memory. Rounding the caller's doubles is free: in the paper's code the
// matrices are floats from the start.
Buffer<float> narrowed(Node& node, std::span<const double> from) {
  Buffer<float> to = node.allocate<float>(from.size());
  std::transform(from.begin(), from.end(), to.begin(), [](double v) { return static_cast<float>(v); });
  return to;
}

}  // namespace

void matmul(Node& node, const MatmulShape& shape, const MatmulOptions& options, const MatmulBlocks& blocks) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp); the primitives it calls open theirs
  model::check_matmul(shape, options, node.dim());
  if (options.products != 1)
    throw UsageError("matmul: " + std::to_string(options.products) +
                     " products need a set of blocks each: kernels::pipelined_outer_products");
  const Grid grid = model::matmul_grid(options, node.dim());
  const model::BlockShape c = model::block_shape(shape.P, shape.Q, grid), d = model::block_shape(shape.Q, shape.R, grid),
                          a = model::block_shape(shape.P, shape.R, grid);
  const std::string name(model::matmul_algorithm_info(options.algorithm).name);
  check_size(blocks.c.size(), c, "C", name, node.id());
  check_size(blocks.d.size(), d, "D", name, node.id());
  check_size(blocks.e.size(), a, "E", name, node.id());
  check_size(blocks.a.size(), a, "A", name, node.id());

  if (options.element_bytes == 8) {
    detail::MatmulContext<double> x{node, shape, options, grid, {blocks.c, blocks.d, blocks.e, blocks.a}, c, d, a};
    return run(x);
  }
  Buffer<float> c32 = narrowed(node, blocks.c), d32 = narrowed(node, blocks.d), e32 = narrowed(node, blocks.e);
  Buffer<float> a32 = node.allocate<float>(blocks.a.size());
  detail::MatmulContext<float> x{node, shape, options, grid, {c32.span(), d32.span(), e32.span(), a32.span()}, c, d, a};
  run(x);
  std::copy(a32.begin(), a32.end(), blocks.a.begin());
}

void pipelined_outer_products(Node& node, const MatmulShape& shape, const MatmulOptions& options,
                              std::span<const MatmulBlocks> products) {
  CollectiveScope scope(node);
  model::check_matmul(shape, options, node.dim());
  if (options.algorithm != MatmulAlgorithm::outer_product)
    throw UsageError("matmul: pipelined products are the outer product's (outer-product), not " +
                     std::string(model::matmul_algorithm_info(options.algorithm).name) + "'s");
  if (products.size() != static_cast<std::size_t>(options.products))
    throw UsageError("matmul outer-product: " + std::to_string(options.products) + " products, but " +
                     std::to_string(products.size()) + " sets of blocks");
  const Grid grid = model::matmul_grid(options, node.dim());
  const model::BlockShape c = model::block_shape(shape.P, shape.Q, grid), d = model::block_shape(shape.Q, shape.R, grid),
                          a = model::block_shape(shape.P, shape.R, grid);
  for (const MatmulBlocks& blocks : products) {
    check_size(blocks.c.size(), c, "C", "outer-product", node.id());
    check_size(blocks.d.size(), d, "D", "outer-product", node.id());
    check_size(blocks.e.size(), a, "E", "outer-product", node.id());
    check_size(blocks.a.size(), a, "A", "outer-product", node.id());
  }
  if (options.element_bytes == 8) {
    std::vector<detail::BlocksOf<double>> x;
    for (const MatmulBlocks& b : products) x.push_back({b.c, b.d, b.e, b.a});
    return detail::outer_products<double>(node, x, c, d);
  }
  std::vector<Buffer<float>> held;  // C, D, E and A of every product, in floats
  std::vector<detail::BlocksOf<float>> x;
  for (const MatmulBlocks& b : products) {
    held.push_back(narrowed(node, b.c));
    held.push_back(narrowed(node, b.d));
    held.push_back(narrowed(node, b.e));
    held.push_back(node.allocate<float>(b.a.size()));
    const auto n = held.size();
    x.push_back({held[n - 4].span(), held[n - 3].span(), held[n - 2].span(), held[n - 1].span()});
  }
  detail::outer_products<float>(node, x, c, d);
  for (std::size_t m = 0; m < products.size(); ++m) std::copy(x[m].a.begin(), x[m].a.end(), products[m].a.begin());
}

}  // namespace hcemu::kernels
