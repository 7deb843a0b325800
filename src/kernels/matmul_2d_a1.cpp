// Algorithm 1 with two-dimensional partitioning: Johnsson & Ho (1987) §5.2.1.
//
//   A1: C_kl, D_kl --brd C, within processor row k--> C_k*, D_kl --brd D, within processor column l--> C_k*, D_*l
//       --mpy--> A_kl
//
// One-port (Table 8, A1(1)): SBT-b(1,N2) in the row subcube (the low n2 dimensions), then SBT-b(1,N1) in the column
// subcube (the high n1), the paper's "CALL sub_SBT(0, n2 - 1, CC, PQ/N); CALL sub_SBT(n2, n - 1, DD, QR/N)". n-port
// (A1(n)): SBnT-b in both subcubes at once, step by step: the two use disjoint ports. Then A = E + C_k*·D_*l over the
// Q real columns, 2Q⌈P/N1⌉⌈R/N2⌉ flops (Table 10).
//
// The pipelined outer product (Figure 16) is the same algorithm with constant storage on a square grid; see
// outer_product below.
#include <algorithm>
#include <tuple>
#include <vector>

#include "hcemu/kernels/primitives.hpp"
#include "hcemu/model/spanning_trees.hpp"
#include "jh_sbnt_allgather.hpp"
#include "matmul_local.hpp"

namespace hcemu::kernels::detail {

// C's blocks and D's travel side by side, told apart by tag inside the multiplication's tag space.
constexpr int kCTag = 0, kDTag = 1;

template <class T>
void a1_2d(MatmulContext<T>& x) {
  Node& node = x.node;
  const Grid g = x.grid;
  const auto k = static_cast<std::size_t>(node.id() >> g.n2), l = static_cast<std::size_t>(node.id() & (g.cols() - 1));
  const std::size_t p1 = x.c.rows, q1 = x.d.rows, r2 = x.d.cols;
  const std::size_t c_block = x.blocks.c.size(), d_block = x.blocks.d.size();
  Buffer<T> row_of_c = node.allocate<T>(static_cast<std::size_t>(g.cols()) * c_block);
  Buffer<T> column_of_d = node.allocate<T>(static_cast<std::size_t>(g.rows()) * d_block);
  std::copy(x.blocks.c.begin(), x.blocks.c.end(), row_of_c.begin() + l * c_block);
  std::copy(x.blocks.d.begin(), x.blocks.d.end(), column_of_d.begin() + k * d_block);
  const Subcube row{0, g.n2}, column{g.n2, g.n1};

  if (x.options.algorithm == MatmulAlgorithm::a1_2d) {
    sbt_allgather(node, bytes(row_of_c.span()), sizeof(T) * c_block, row);
    sbt_allgather(node, bytes(column_of_d.span()), sizeof(T) * d_block, column);
  } else {
    TreeAllgather c(node, bytes(row_of_c.span()), sizeof(T) * c_block, row, 0);  // the two run side by side
    TreeAllgather d(node, bytes(column_of_d.span()), sizeof(T) * d_block, column, 1);
    for (int s = 1; s <= std::max(g.n1, g.n2); ++s) {
      const bool in_c = s <= c.steps(), in_d = s <= d.steps();
      if (in_c) c.pack(s);
      if (in_d) d.pack(s);
      if (in_c) c.send(s);
      if (in_d) d.send(s);
      std::vector<Request> arriving;
      if (in_c) arriving.insert(arriving.end(), c.arrivals(s).begin(), c.arrivals(s).end());
      if (in_d) arriving.insert(arriving.end(), d.arrivals(s).begin(), d.arrivals(s).end());
      node.wait_all(arriving);
      if (in_c) c.unpack(s);
      if (in_d) d.unpack(s);
    }
    c.finish();
    d.finish();
  }
  std::copy(x.blocks.e.begin(), x.blocks.e.end(), x.blocks.a.begin());
  multiply(p1, r2, x.shape.Q, ColumnMajor{row_of_c.span(), p1}, RowBlocks{column_of_d.span(), q1, r2}, x.blocks.a, p1,
           true);
  node.compute(2 * x.shape.Q * p1 * r2);
}

// The pipelined outer products (§5.2.1, Figure 16), N1 = N2 = s. Outer product j (C's block column j times D's block
// row j) starts on the diagonal processor (j, j), which holds C_jj and D_jj; C_kj moves right along processor row k
// and D_jl down along processor column l, one neighbour a step, and processor (k, l) multiplies them in step
// a(l, j) + a(k, j), a(l, j) = (l - j) mod s, plus 1 when the way from j to l wraps around the end of the row: the
// blocks wait one step at the boundary, as the paper does for even s ("one more buffer at the boundary processors").
// The wave fronts are triangles running from the diagonal down and to the right; no processor has two products in
// one step, and every product needs exactly the blocks its left and upper neighbours used one step (or, across the
// boundary, two steps) before. Steps 0..2s: the paper's 2√N + 1. The rows and columns are the Gray-code rings of
// the row and column subcubes (ring position IG(l) for processor column l), so every neighbour is a cube
// neighbour; the inner index runs in ring order, which changes nothing in the sum.
//
// K multiplications go through the same wave fronts one after another: "the subsequent matrix multiplications can be
// initiated every √N cycles from the main diagonal", so multiplication m's product j is in step a(l, j) + a(k, j) +
// m·s, (K + 1)√N + 1 steps in all. With the boundary's extra step two products of a node can fall in one step (the
// diagonal's steps are even); the node takes the earlier multiplication's first. Every block of multiplication m
// travels under tags of its own, so the order of arrival never matters.
//
// Every node computes its products in step order as soon as their blocks are in (MIMD), so the time is the longest
// chain of communications and block products, not full steps; model::matmul_time gives it where it is exact.
// A += C_kj·D_jl is 2⌈P/s⌉⌈Q/s⌉⌈R/s⌉ flops (one multiply and one add per term), K·s of them per node.
template <class T>
void outer_products(Node& node, std::span<const BlocksOf<T>> products, model::BlockShape cb, model::BlockShape db) {
  const int c = node.dim() / 2;
  const auto s = std::uint32_t{1} << c;
  const std::uint32_t k = static_cast<std::uint32_t>(node.id()) >> c, l = static_cast<std::uint32_t>(node.id()) & (s - 1);
  const std::uint32_t K = model::inverse_gray(k), L = model::inverse_gray(l);  // ring positions
  auto a = [s](std::uint32_t to, std::uint32_t from) { return (to + s - from) % s + (to < from ? 1 : 0); };
  auto at = [c](std::uint32_t row_ring, std::uint32_t column_ring) {
    return static_cast<int>((model::gray(row_ring) << c) | model::gray(column_ring));
  };
  const int left = at(K, (L + s - 1) % s), right = at(K, (L + 1) % s);
  const int up = at((K + s - 1) % s, L), down = at((K + 1) % s, L);
  const std::size_t p = cb.rows, q = cb.cols, r = db.cols;
  auto c_tag = [](std::uint32_t m) { return static_cast<int>(2 * m) + kCTag; };
  auto d_tag = [](std::uint32_t m) { return static_cast<int>(2 * m) + kDTag; };

  struct Product {
    std::uint32_t step, m, j;  // m: which multiplication; j: the ring position of the inner block index
  };
  std::vector<Product> order;
  const auto count = static_cast<std::uint32_t>(products.size());
  for (std::uint32_t m = 0; m < count; ++m)
    for (std::uint32_t j = 0; j < s; ++j) order.push_back({a(L, j) + a(K, j) + m * s, m, j});
  std::sort(order.begin(), order.end(),
            [](const Product& u, const Product& v) { return std::tie(u.step, u.m) < std::tie(v.step, v.m); });

  // Every block this node will be handed, posted in the order it takes them.
  std::vector<Buffer<T>> c_in, d_in;
  std::vector<Request> c_arriving, d_arriving;
  for (const Product& pr : order) {
    c_in.push_back(node.allocate<T>(p * q));
    d_in.push_back(node.allocate<T>(q * r));
    if (pr.j != L) c_arriving.push_back(node.post_recv(left, c_in.back().span(), c_tag(pr.m)));
    if (pr.j != K) d_arriving.push_back(node.post_recv(up, d_in.back().span(), d_tag(pr.m)));
  }

  for (const BlocksOf<T>& x : products) std::copy(x.e.begin(), x.e.end(), x.a.begin());
  std::vector<Request> sends;
  std::size_t next_c = 0, next_d = 0;
  for (std::size_t t = 0; t < order.size(); ++t) {
    const auto [step, m, j] = order[t];
    const BlocksOf<T>& x = products[m];
    std::span<const T> cj = x.c, dj = x.d;
    if (j != L) {
      node.wait(c_arriving[next_c++]);
      cj = c_in[t].span();
    }
    if (j != K) {
      node.wait(d_arriving[next_d++]);
      dj = d_in[t].span();
    }
    multiply(p, r, q, ColumnMajor{cj, p}, ColumnMajor{dj, q}, x.a, p, true);
    node.compute(2 * p * q * r);
    if ((L + 1) % s != j) sends.push_back(node.isend(right, cj, c_tag(m)));
    if ((K + 1) % s != j) sends.push_back(node.isend(down, dj, d_tag(m)));
  }
  node.wait_all(sends);
}

template <class T>
void outer_product(MatmulContext<T>& x) {
  outer_products(x.node, std::span<const BlocksOf<T>>(&x.blocks, 1), x.c, x.d);
}

template void a1_2d(MatmulContext<float>&);
template void a1_2d(MatmulContext<double>&);
template void outer_product(MatmulContext<float>&);
template void outer_product(MatmulContext<double>&);
template void outer_products<float>(Node&, std::span<const BlocksOf<float>>, model::BlockShape, model::BlockShape);
template void outer_products<double>(Node&, std::span<const BlocksOf<double>>, model::BlockShape, model::BlockShape);

}  // namespace hcemu::kernels::detail
