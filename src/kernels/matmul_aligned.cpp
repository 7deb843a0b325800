// The two algorithms of §5.2.1 (Johnsson & Ho 1987) that align C and D and then move them a block at a time on the
// square grid N1 = N2 = s, multiplying after every move:
//
// Cannon's algorithm (Figure 17, the code "Matrix multiplication according to Cannon's Algorithm" with N1 = N2, so
// k = 1 and C is not split): processor (k, l) sits at ring position (K, L) = (IG(k), IG(l)) of the Gray-code rings
// of its row and column (the code's rid, cid). Alignment: rotate C left by K in the row (CRA_row), D up by L in the
// column (CRA_column); then ring position (K, L) holds C_kj and D_jl with j at ring index J = (K + L) mod s, and
// each of the s - 1 rotations (C left, D up) adds 1 to J in both. Each alignment goes the shorter way round, left K
// steps or right s - K, the paper's "row shifts use CRA(1, N2) and require ⌊N2/2⌋ steps" (columns alike).
//
// Dekel's GCEA-based algorithm (the code "Matrix multiplication according to Dekel's Algorithm", binary encoding,
// N1 = N2): alignment exchanges C across row dimension i for every set bit i of the row index k, D across column
// dimension i for every set bit i of the column index l, so (k, l) holds C_kj and D_jl with j = k ⊕ l; then step
// t = 1..s-1 exchanges C across row dimension g and D across column dimension g, g = gray_transition(t - 1) (GCEA),
// which keeps j = k ⊕ l ⊕ G(t) the same in both. The alignment takes at most log s steps each ("the set-up phase
// requires log N2 and [log N1] steps").
//
// The SBT-based algorithm with Dekel's alignment (sbt_aligned below) replaces the s - 1 exchanges by log s steps of
// recursive doubling.
//
// Rows (and columns) align by different distances, so the alignment does not end together on every node. Both are
// SIMD algorithms (§5.2.1: Cannon's is "suitable for SIMD architectures"), whose masked steps run in lockstep;
// hcemu's MIMD nodes keep that lockstep with a barrier after each alignment (Q(d) each, docs/model.md §6). The
// multiplication phase is in step by itself: every node sends C and D, receives both, then multiplies.
//
// Arithmetic: s block products A += C_kj·D_jl of 2⌈P/s⌉⌈Q/s⌉⌈R/s⌉ flops (q multiplies and q adds per element, the
// first add being E's), padding included so that every node's steps are equally long.
#include <algorithm>
#include <vector>

#include "hcemu/model/spanning_trees.hpp"
#include "matmul_local.hpp"

namespace hcemu::kernels::detail {
namespace {

constexpr int kAlignedCTag = 0, kAlignedDTag = 1;

// One block and the buffer it moves into.
template <class T>
struct Moving {
  Buffer<T> buffers[2];
  int held = 0;
  std::span<const T> now() const { return buffers[held].span(); }
  std::span<T> next() { return buffers[1 - held].span(); }
  void turn() { held = 1 - held; }
};

template <class T>
Moving<T> moving(Node& node, std::span<const T> block) {
  Moving<T> m{{node.allocate<T>(block.size()), node.allocate<T>(block.size())}};
  std::copy(block.begin(), block.end(), m.buffers[0].begin());
  return m;
}

// Where a block goes and where the next one comes from in one move (the same node for an exchange).
struct Move {
  int to, from;
};

// What distinguishes the two algorithms: the moves of the alignment, and those of step t of the multiplication.
struct Schedule {
  std::vector<Move> align_c, align_d;
  std::vector<Move> step_c, step_d;  // [t - 1] for t = 1..s-1
};

Schedule cannon_schedule(const Node& node, int c) {
  const auto s = std::uint32_t{1} << c;
  const std::uint32_t K = model::inverse_gray(static_cast<std::uint32_t>(node.id()) >> c);  // rid
  const std::uint32_t L = model::inverse_gray(static_cast<std::uint32_t>(node.id()) & (s - 1));  // cid
  auto at = [c](std::uint32_t row_ring, std::uint32_t column_ring) {
    return static_cast<int>((model::gray(row_ring) << c) | model::gray(column_ring));
  };
  const Move left{at(K, (L + s - 1) % s), at(K, (L + 1) % s)}, right{left.from, left.to};
  const Move up{at((K + s - 1) % s, L), at((K + 1) % s, L)}, down{up.from, up.to};
  Schedule plan;
  plan.align_c.assign(std::min(K, s - K), 2 * K <= s ? left : right);
  plan.align_d.assign(std::min(L, s - L), 2 * L <= s ? up : down);
  plan.step_c.assign(s - 1, left);
  plan.step_d.assign(s - 1, up);
  return plan;
}

Schedule dekel_schedule(const Node& node, int c) {
  const auto s = std::uint32_t{1} << c;
  const std::uint32_t k = static_cast<std::uint32_t>(node.id()) >> c, l = static_cast<std::uint32_t>(node.id()) & (s - 1);
  auto across = [&node](int dimension) { return Move{node.neighbor(dimension), node.neighbor(dimension)}; };
  Schedule plan;
  for (int i = 0; i < c; ++i) {
    if ((k >> i) & 1U) plan.align_c.push_back(across(i));
    if ((l >> i) & 1U) plan.align_d.push_back(across(c + i));
  }
  for (std::uint32_t t = 1; t < s; ++t) {
    const int g = model::gray_transition(t - 1, c);
    plan.step_c.push_back(across(g));
    plan.step_d.push_back(across(c + g));
  }
  return plan;
}

template <class T>
void move(Node& node, Moving<T>& block, Move m, int tag) {
  Request in = node.post_recv(m.from, block.next(), tag);
  Request out = node.isend(m.to, block.now(), tag);
  node.wait(in);
  node.wait(out);
  block.turn();
}

// The alignment: C's moves, a barrier, D's moves, a barrier (each charged Q(d) in the closed form).
template <class T>
void align(Node& node, Moving<T>& cb, Moving<T>& db, const Schedule& plan) {
  if (node.size() == 1) return;
  for (const Move& m : plan.align_c) move(node, cb, m, kAlignedCTag);
  node.barrier();
  for (const Move& m : plan.align_d) move(node, db, m, kAlignedDTag);
  node.barrier();
}

template <class T>
void aligned_products(MatmulContext<T>& x, const Schedule& plan) {
  Node& node = x.node;
  const std::size_t p = x.c.rows, q = x.c.cols, r = x.a.cols;
  Moving<T> cb = moving(node, x.blocks.c), db = moving(node, x.blocks.d);
  align(node, cb, db, plan);
  std::copy(x.blocks.e.begin(), x.blocks.e.end(), x.blocks.a.begin());
  auto multiply_held = [&] {
    multiply(p, r, q, ColumnMajor{cb.now(), p}, ColumnMajor{db.now(), q}, x.blocks.a, p, true);
    node.compute(2 * p * q * r);
  };
  multiply_held();
  for (std::size_t t = 0; t < plan.step_c.size(); ++t) {
    std::vector<Request> requests = {node.post_recv(plan.step_c[t].from, cb.next(), kAlignedCTag),
                                     node.post_recv(plan.step_d[t].from, db.next(), kAlignedDTag)};
    requests.push_back(node.isend(plan.step_c[t].to, cb.now(), kAlignedCTag));
    requests.push_back(node.isend(plan.step_d[t].to, db.now(), kAlignedDTag));
    node.wait_all(requests);
    cb.turn();
    db.turn();
    multiply_held();
  }
}

// The SBT-based algorithm with Dekel's alignment (§5.2.1: "the alignment described for Dekel's algorithm is
// applicable", and the multiplication phase takes log N2 and log N1 steps): after the alignment, step i exchanges
// every C block held across row dimension i and every D block across column dimension i, SBT-b(1, s) in the row and
// the column side by side, and multiplies the 2^i pairs that arrived. Slot b of either stack holds index
// j = k ⊕ l ⊕ b, so the pairs that arrive together match. s block products in all, as Dekel's.
template <class T>
void sbt_aligned(MatmulContext<T>& x) {
  Node& node = x.node;
  const int c = node.dim() / 2;
  const std::size_t s = std::size_t{1} << c, p = x.c.rows, q = x.c.cols, r = x.a.cols;
  const std::size_t cn = x.blocks.c.size(), dn = x.blocks.d.size();
  const Schedule plan = dekel_schedule(node, c);
  Moving<T> cb = moving(node, x.blocks.c), db = moving(node, x.blocks.d);
  align(node, cb, db, plan);
  Buffer<T> cs = node.allocate<T>(s * cn), ds = node.allocate<T>(s * dn);
  std::copy(cb.now().begin(), cb.now().end(), cs.begin());
  std::copy(db.now().begin(), db.now().end(), ds.begin());
  std::copy(x.blocks.e.begin(), x.blocks.e.end(), x.blocks.a.begin());
  auto multiply_slots = [&](std::size_t first, std::size_t count) {
    for (std::size_t b = first; b < first + count; ++b)
      multiply(p, r, q, ColumnMajor{std::span<const T>(cs.span().subspan(b * cn, cn)), p},
               ColumnMajor{std::span<const T>(ds.span().subspan(b * dn, dn)), q}, x.blocks.a, p, true);
    node.compute(count * 2 * p * q * r);
  };
  multiply_slots(0, 1);
  for (int i = 0; i < c; ++i) {
    const std::size_t n = std::size_t{1} << i;
    std::vector<Request> requests = {
        node.post_recv(node.neighbor(i), cs.span().subspan(n * cn, n * cn), kAlignedCTag),
        node.post_recv(node.neighbor(c + i), ds.span().subspan(n * dn, n * dn), kAlignedDTag)};
    requests.push_back(node.isend(node.neighbor(i), std::span<const T>(cs.span().subspan(0, n * cn)), kAlignedCTag));
    requests.push_back(node.isend(node.neighbor(c + i), std::span<const T>(ds.span().subspan(0, n * dn)), kAlignedDTag));
    node.wait_all(requests);
    multiply_slots(n, n);
  }
}

}  // namespace

template <class T>
void aligned_2d(MatmulContext<T>& x) {
  const int c = x.node.dim() / 2;
  switch (x.options.algorithm) {
    case MatmulAlgorithm::cannon:
      return aligned_products(x, cannon_schedule(x.node, c));
    case MatmulAlgorithm::dekel:
      return aligned_products(x, dekel_schedule(x.node, c));
    default:
      return sbt_aligned(x);
  }
}

template void aligned_2d(MatmulContext<float>&);
template void aligned_2d(MatmulContext<double>&);

}  // namespace hcemu::kernels::detail
