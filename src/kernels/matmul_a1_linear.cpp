// Algorithm 1 with one-dimensional column partitioning and constant storage: Johnsson & Ho (1987) §5.1, the
// paper's sample codes "Matrix multiplication using the Cyclic Rotation Algorithm" and "... using the Gray Code
// Exchange Algorithm", GCEA(n,N) for n-port machines, and the hybrid of k SBT steps and 2^(n-k) - 1 GCEA steps
// (Figure 10). Node x holds block column x of C, D, E and A. A = E + C_x·D_x, then after every communication step
// A += C_j·D_j for the block column j of C that arrived, D_j the rows [j·q, (j+1)·q) of the node's D.
//
// Arithmetic: each block product is 2·P·q·r flops (q multiplies and q adds per element of A, the first add being
// E's), N of them: 2P·N⌈Q/N⌉⌈R/N⌉, the paper's 2PQ⌈R/N⌉ when N divides Q (the padding columns of the last blocks are
// multiplied too, which keeps every node's steps the same length).
#include <algorithm>
#include <vector>

#include "broadcast_cube.hpp"
#include "hcemu/kernels/primitives.hpp"
#include "hcemu/model/spanning_trees.hpp"
#include "matmul_local.hpp"

namespace hcemu::kernels::detail {
namespace {

template <class T>
struct Linear {
  MatmulContext<T>& x;
  std::size_t P, q, r, Q;

  explicit Linear(MatmulContext<T>& context)
      : x(context), P(context.c.rows), q(context.c.cols), r(context.a.cols), Q(context.shape.Q) {}

  // D's rows [first·q, first·q + inner), zero past Q.
  auto d_rows(std::size_t first) const {
    return [this, first](std::size_t l, std::size_t j) {
      const std::size_t row = first * q + l;
      return row < Q ? x.blocks.d[row + j * Q] : T{0};
    };
  }
  // A += C' · D rows from block `first` on, C' the P × (blocks·q) column block held.
  void multiply_blocks(std::span<const T> c, std::size_t first, std::size_t blocks) {
    multiply(P, r, blocks * q, ColumnMajor{c, P}, d_rows(first), x.blocks.a, P, true);
    x.node.compute(2 * P * blocks * q * r);
  }
  void start() { std::copy(x.blocks.e.begin(), x.blocks.e.end(), x.blocks.a.begin()); }  // A accumulates onto E
};

template <class T>
void cra(MatmulContext<T>& x) {
  Linear<T> run(x);
  Node& node = x.node;
  const auto n = static_cast<std::uint32_t>(node.size());
  // INIT_CRA: the node at ring position g sends to G(g + 1) and receives from G(g - 1).
  const std::uint32_t g = model::inverse_gray(static_cast<std::uint32_t>(node.id()));
  const int successor = static_cast<int>(model::gray((g + 1) % n));
  const int predecessor = static_cast<int>(model::gray((g + n - 1) % n));

  run.start();
  run.multiply_blocks(x.blocks.c, static_cast<std::size_t>(node.id()), 1);
  Buffer<T> buffers[2] = {node.allocate<T>(x.blocks.c.size()), node.allocate<T>(x.blocks.c.size())};
  std::span<const T> held = x.blocks.c;
  std::vector<Request> sends;
  for (std::uint32_t i = 1; i < n; ++i) {
    const std::span<T> next = buffers[i % 2].span();
    Request in = node.post_recv(predecessor, next);
    sends.push_back(node.isend(successor, held));
    node.wait(in);
    held = next;
    run.multiply_blocks(held, model::gray((g + n - i) % n), 1);  // after i rotations: the block of G(g - i)
  }
  node.wait_all(sends);
}

// k SBT steps inside the subcube of the low k dimensions, then GCEA over the 2^k-block groups in the others; k = 0
// is GCEA(1,N) itself.
template <class T>
void hybrid(MatmulContext<T>& x, int k) {
  Linear<T> run(x);
  Node& node = x.node;
  const int d = node.dim();
  const auto self = static_cast<std::uint32_t>(node.id());
  const std::size_t block = x.blocks.c.size(), group = std::size_t{1} << k;
  Buffer<T> buffers[2] = {node.allocate<T>(group * block), node.allocate<T>(group * block)};
  const std::uint32_t low = static_cast<std::uint32_t>(group - 1);
  std::copy(x.blocks.c.begin(), x.blocks.c.end(), buffers[0].begin() + (self & low) * block);  // own block in place
  sbt_allgather(node, bytes(buffers[0].span()), sizeof(T) * block, Subcube{0, k});

  run.start();
  run.multiply_blocks(buffers[0].span(), self & ~low, group);
  int held = 0;
  const auto steps = std::uint32_t{1} << (d - k);
  for (std::uint32_t i = 1; i < steps; ++i) {
    const int j = k + model::gray_transition(i - 1, d - k);
    node.exchange(node.neighbor(j), std::span<const T>(buffers[held].span()), buffers[1 - held].span());
    held = 1 - held;
    run.multiply_blocks(buffers[held].span(), ((self >> k) ^ model::gray(i)) << k, group);
  }
}

// GCEA_n: the block split into n parts; in step i part k crosses dimension (gray_transition(i - 1) + k) mod n and
// then holds part k of the block column of self ^ rot_k(G(i)).
template <class T>
void rotated_gcea(MatmulContext<T>& x) {
  Linear<T> run(x);
  Node& node = x.node;
  const int d = node.dim();
  const auto self = static_cast<std::uint32_t>(node.id());
  const std::size_t block = x.blocks.c.size();
  run.start();
  run.multiply_blocks(x.blocks.c, self, 1);
  if (d == 0) return;
  const auto parts = static_cast<std::size_t>(d);
  Buffer<T> buffers[2] = {node.allocate<T>(block), node.allocate<T>(block)};
  std::copy(x.blocks.c.begin(), x.blocks.c.end(), buffers[0].begin());
  int held = 0;
  std::vector<Request> sends;
  for (std::uint32_t i = 1; i < static_cast<std::uint32_t>(node.size()); ++i) {
    const int j = model::gray_transition(i - 1, d);
    std::vector<Request> arriving;
    for (int k = 0; k < d; ++k) {
      const auto uk = static_cast<std::size_t>(k);
      const std::size_t at = part_offset(block, parts, uk), len = part_bytes(block, parts, uk);
      const int partner = node.neighbor((j + k) % d);
      arriving.push_back(node.post_recv(partner, buffers[1 - held].span().subspan(at, len), k));
      sends.push_back(node.isend(partner, std::span<const T>(buffers[held].span().subspan(at, len)), k));
    }
    node.wait_all(arriving);
    held = 1 - held;
    // A(row, :) += C(row, col)·D(source·q + col, :) for every element of every part.
    for (int k = 0; k < d; ++k) {
      const auto uk = static_cast<std::size_t>(k);
      const std::uint32_t source = self ^ rotate_left(model::gray(i), k, d);
      const std::size_t at = part_offset(block, parts, uk), len = part_bytes(block, parts, uk);
      for (std::size_t e = at; e < at + len; ++e) {
        const std::size_t row = e % run.P, col = e / run.P, d_row = source * run.q + col;
        if (d_row >= run.Q) continue;  // padding: a zero column of C times a zero row of D
        const T c = buffers[held][e];
        for (std::size_t jj = 0; jj < run.r; ++jj) x.blocks.a[row + jj * run.P] += c * x.blocks.d[d_row + jj * run.Q];
      }
    }
    node.compute(2 * block * run.r);
  }
  node.wait_all(sends);
}

}  // namespace

template <class T>
void a1_linear(MatmulContext<T>& x) {
  switch (x.options.algorithm) {
    case MatmulAlgorithm::a1_cra:
      return cra(x);
    case MatmulAlgorithm::a1_gcea:
      return hybrid(x, 0);
    case MatmulAlgorithm::a1_rotated_gcea:
      return rotated_gcea(x);
    default:
      return hybrid(x, x.options.k);
  }
}

template void a1_linear(MatmulContext<float>&);
template void a1_linear(MatmulContext<double>&);

}  // namespace hcemu::kernels::detail
