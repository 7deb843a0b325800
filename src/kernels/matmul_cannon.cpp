// Cannon's algorithm on the square grid N1 = N2 = s: Johnsson & Ho (1987) §5.2.1, Figure 17 and the code "Matrix
// multiplication according to Cannon's Algorithm" (with N1 = N2, so k = 1 and C is not split):
//
//   rid = IG(row), cid = IG(column)                         the Gray-code ring positions (K, L) of processor (k, l)
//   alignment: rotate C left rid times in the row (CRA_row), then D up cid times in the column (CRA_column)
//   A = C·D (+ E); s - 1 times: rotate C left one step, D up one step, A += C·D
//
// After the alignment ring position (K, L) holds C_{k,j} and D_{j,l} for the ring index J = (K + L) mod s of j, and
// every rotation adds 1 to J in both, so the s products cover the inner index once. The row rotation by K goes the
// shorter way round, left K steps or right s - K, the paper's "row shifts use CRA(1, N2) and require ⌊N2/2⌋ steps"
// (columns alike). Rows rotate different distances, so the phases do not end together on every node; Cannon's
// algorithm is the SIMD one (§5.2.1: "suitable for SIMD architectures"), whose steps run in lockstep, and hcemu's
// MIMD nodes keep that lockstep with a barrier after each alignment (Q(d) each, docs/model.md §6). The
// multiplication phase is in step by itself: every node sends C left and D up, receives both, then multiplies.
//
// Arithmetic: s block products A += C_kj·D_jl of 2⌈P/s⌉⌈Q/s⌉⌈R/s⌉ flops (q multiplies and q adds per element, the
// first add being E's), padding included so that every node's steps are equally long.
#include <algorithm>
#include <vector>

#include "hcemu/model/spanning_trees.hpp"
#include "matmul_local.hpp"

namespace hcemu::kernels::detail {
namespace {

constexpr int kCannonCTag = 0, kCannonDTag = 1;

// One block and the buffer it rotates into.
template <class T>
struct Rotating {
  Buffer<T> buffers[2];
  int held = 0;
  std::span<const T> now() const { return buffers[held].span(); }
  std::span<T> next() { return buffers[1 - held].span(); }
  void turn() { held = 1 - held; }
};

template <class T>
Rotating<T> rotating(Node& node, std::span<const T> block) {
  Rotating<T> r{{node.allocate<T>(block.size()), node.allocate<T>(block.size())}};
  std::copy(block.begin(), block.end(), r.buffers[0].begin());
  return r;
}

// One CRA step: send the held block to `to`, take the next one from `from`.
template <class T>
void rotate(Node& node, Rotating<T>& block, int to, int from, int tag) {
  Request in = node.post_recv(from, block.next(), tag);
  Request out = node.isend(to, block.now(), tag);
  node.wait(in);
  node.wait(out);
  block.turn();
}

}  // namespace

template <class T>
void cannon(MatmulContext<T>& x) {
  Node& node = x.node;
  const int c = node.dim() / 2;
  const auto s = std::uint32_t{1} << c;
  const std::uint32_t k = static_cast<std::uint32_t>(node.id()) >> c, l = static_cast<std::uint32_t>(node.id()) & (s - 1);
  const std::uint32_t K = model::inverse_gray(k), L = model::inverse_gray(l);  // rid, cid
  auto at = [c](std::uint32_t row_ring, std::uint32_t column_ring) {
    return static_cast<int>((model::gray(row_ring) << c) | model::gray(column_ring));
  };
  const int left = at(K, (L + s - 1) % s), right = at(K, (L + 1) % s);
  const int up = at((K + s - 1) % s, L), down = at((K + 1) % s, L);
  const std::size_t p = x.c.rows, q = x.c.cols, r = x.a.cols;

  Rotating<T> cb = rotating(node, x.blocks.c), db = rotating(node, x.blocks.d);
  if (s > 1) {
    // Alignment: row K rotates C left by K, column L rotates D up by L, each the shorter way round.
    for (std::uint32_t i = 0; i < std::min(K, s - K); ++i)
      2 * K <= s ? rotate(node, cb, left, right, kCannonCTag) : rotate(node, cb, right, left, kCannonCTag);
    node.barrier();
    for (std::uint32_t i = 0; i < std::min(L, s - L); ++i)
      2 * L <= s ? rotate(node, db, up, down, kCannonDTag) : rotate(node, db, down, up, kCannonDTag);
    node.barrier();
  }

  std::copy(x.blocks.e.begin(), x.blocks.e.end(), x.blocks.a.begin());
  auto multiply_held = [&] {
    multiply(p, r, q, ColumnMajor{cb.now(), p}, ColumnMajor{db.now(), q}, x.blocks.a, p, true);
    node.compute(2 * p * q * r);
  };
  multiply_held();
  for (std::uint32_t step = 1; step < s; ++step) {
    std::vector<Request> requests = {node.post_recv(right, cb.next(), kCannonCTag),
                                     node.post_recv(down, db.next(), kCannonDTag)};
    requests.push_back(node.isend(left, cb.now(), kCannonCTag));
    requests.push_back(node.isend(up, db.now(), kCannonDTag));
    node.wait_all(requests);
    cb.turn();
    db.turn();
    multiply_held();
  }
}

template void cannon(MatmulContext<float>&);
template void cannon(MatmulContext<double>&);

}  // namespace hcemu::kernels::detail
