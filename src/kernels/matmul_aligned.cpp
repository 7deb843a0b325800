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
// Dekel's and the aligned SBT on a rectangular grid (§5.2.1: "for P = 2^α1 N1, Q = 2^α2 N1 = 2^α3 N2 and R =
// 2^α4 N2 the algorithm is directly portable ... communications corresponding to those bits are internal to a
// processor"). Q is a multiple of Nmax, cut into Nmax inner blocks of Q/Nmax; δ = |n1 - n2|. For N1 > N2 a block of
// D (Q/N1 rows) is one inner block, a block of C (Q/N2 columns) 2^δ of them, its column sub-block t being inner
// block c·2^δ + t; for N2 > N1 the other way round (C's block one inner block, D's row sub-block t inner block
// r·2^δ + t). Call the one-inner-block matrix fine, the other coarse. The alignment exchanges the coarse matrix for
// the set bits of the high nmin bits of its processor's row (C, N1 > N2) or column (D, N2 > N1) index, and the fine
// one for the set bits of the other index, so that processor (r, c) holds the fine inner block j0 = r ⊕ (c << δ)
// (N1 > N2; c ⊕ (r << δ) for N2 > N1) and the coarse block holding it. GCEA step t exchanges the fine matrix across
// its dimension g = gray_transition(t - 1) of nmax, and the coarse one where g >= δ, across g - δ of its nmin (the
// high bits of a binary-reflected Gray code are the Gray code of the high bits): j = j0 ⊕ G(t) is always in the
// coarse block held, at sub-block j mod 2^δ, which the step multiplies with the fine block (the paper's local SWAPs
// are that choice of sub-block). The aligned SBT first doubles the fine matrix alone over the δ dimensions whose inner
// bits the coarse block holds, then both side by side.
//
// Rows (and columns) align by different distances, so the alignment does not end together on every node. Both are
// SIMD algorithms (§5.2.1: Cannon's is "suitable for SIMD architectures"), whose masked steps run in lockstep;
// hcemu's MIMD nodes keep that lockstep with a barrier after each alignment (Q(d) each, docs/model.md §6). The
// multiplication phase is in step by itself: every node sends C and D, receives both, then multiplies.
//
// Arithmetic: Nmax block products A += C_kj·D_jl of 2⌈P/N1⌉·(Q/Nmax)·⌈R/N2⌉ flops (⌈Q/s⌉ on the square grid; q
// multiplies and q adds per element, the first add being E's), padding included so that every node's steps are
// equally long.
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

// Where a block goes and where the next one comes from in one move (the same node for an exchange); to < 0: none.
struct Move {
  int to = -1, from = -1;
  explicit operator bool() const { return to >= 0; }
};

// The grid's geometry as the aligned algorithms see it.
struct Aligned {
  int n1, n2, nmin, nmax, delta;
  bool tall;              // N1 > N2: C is the coarse matrix
  std::uint32_t r, c;     // the processor's row and column
  std::uint32_t j0;       // the fine inner block after the alignment (relative index 0)
  Aligned(const Node& node, Grid g)
      : n1(g.n1),
        n2(g.n2),
        nmin(std::min(g.n1, g.n2)),
        nmax(std::max(g.n1, g.n2)),
        delta(nmax - nmin),
        tall(g.n1 > g.n2),
        r(static_cast<std::uint32_t>(node.id()) >> g.n2),
        c(static_cast<std::uint32_t>(node.id()) & ((std::uint32_t{1} << g.n2) - 1)),
        j0(tall ? r ^ (c << delta) : c ^ (r << delta)) {}
  // The dimension of the cube that flips bit b of the inner index of the fine (or coarse: bit δ + b) matrix.
  int fine_dimension(int b) const { return tall ? n2 + b : b; }
  int coarse_dimension(int b) const { return tall ? b : n2 + b; }
};

// What distinguishes the algorithms: the moves of the alignment, and those of step t of the multiplication.
struct Schedule {
  std::vector<Move> align_c, align_d;
  std::vector<Move> step_c, step_d;  // [t - 1] for t = 1..Nmax-1; a Move of none where that matrix stays
  std::vector<std::uint32_t> inner;  // [t] the inner block multiplied after step t (Dekel), for its sub-block
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
  plan.inner.assign(s, 0);
  return plan;
}

// Dekel's alignment: the coarse matrix is exchanged across its dimension i for every set bit i of the high nmin
// bits of the fine matrix's moving index, the fine one across its dimension δ + i for every set bit i of the coarse
// one's; on the square grid, C across row dimension i for bit i of the row index, D across column dimension i for
// bit i of the column index.
void dekel_alignment(const Node& node, const Aligned& g, Schedule& plan) {
  auto across = [&node](int dimension) { return Move{node.neighbor(dimension), node.neighbor(dimension)}; };
  // N1 >= N2: C across row dimension i for bit i of r >> δ, D across column dimension δ + i for bit i of c.
  // N2 > N1: C across row dimension δ + i for bit i of r, D across column dimension i for bit i of c >> δ.
  const std::uint32_t c_bits = g.tall ? g.r >> g.delta : g.r, d_bits = g.tall ? g.c : g.c >> g.delta;
  for (int i = 0; i < g.nmin; ++i) {
    if ((c_bits >> i) & 1U) plan.align_c.push_back(across(g.tall ? i : g.delta + i));
    if ((d_bits >> i) & 1U) plan.align_d.push_back(across(g.tall ? g.n2 + g.delta + i : g.n2 + i));
  }
}

Schedule dekel_schedule(const Node& node, const Aligned& g) {
  auto across = [&node](int dimension) { return Move{node.neighbor(dimension), node.neighbor(dimension)}; };
  Schedule plan;
  dekel_alignment(node, g, plan);
  const std::uint32_t most = std::uint32_t{1} << g.nmax;
  plan.inner.push_back(g.j0);
  for (std::uint32_t t = 1; t < most; ++t) {
    const int b = model::gray_transition(t - 1, g.nmax);
    const Move fine = across(g.fine_dimension(b)), coarse = b >= g.delta ? across(g.coarse_dimension(b - g.delta)) : Move{};
    plan.step_c.push_back(g.tall ? coarse : fine);
    plan.step_d.push_back(g.tall ? fine : coarse);
    plan.inner.push_back(g.j0 ^ model::gray(t));
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

// A += C·D for inner block j: the column sub-block j mod 2^δ of a coarse C, or the row sub-block of a coarse D, times
// the other block whole.
template <class T>
struct InnerProduct {
  MatmulContext<T>& x;
  std::size_t p, r, inner, c_ld, d_ld;
  std::uint32_t mask;
  bool tall;
  InnerProduct(MatmulContext<T>& context, const Aligned& g)
      : x(context),
        p(context.c.rows),
        r(context.a.cols),
        inner(std::min(context.c.cols, context.d.rows)),
        c_ld(context.c.rows),
        d_ld(context.d.rows),
        mask((std::uint32_t{1} << g.delta) - 1),
        tall(g.tall) {}
  void operator()(std::span<const T> cblock, std::span<const T> dblock, std::uint32_t j) const {
    const std::size_t sub = j & mask;
    const std::size_t c_at = tall ? sub * inner * p : 0, d_at = tall ? 0 : sub * inner;
    multiply(p, r, inner, ColumnMajor{cblock.subspan(c_at), c_ld}, ColumnMajor{dblock.subspan(d_at), d_ld}, x.blocks.a,
             p, true);
  }
};

template <class T>
void aligned_products(MatmulContext<T>& x, const Aligned& g, const Schedule& plan) {
  Node& node = x.node;
  const InnerProduct<T> product(x, g);
  Moving<T> cb = moving(node, x.blocks.c), db = moving(node, x.blocks.d);
  align(node, cb, db, plan);
  std::copy(x.blocks.e.begin(), x.blocks.e.end(), x.blocks.a.begin());
  auto multiply_held = [&](std::size_t t) {
    product(cb.now(), db.now(), plan.inner[t]);
    node.compute(2 * product.p * product.inner * product.r);
  };
  multiply_held(0);
  for (std::size_t t = 0; t < plan.step_c.size(); ++t) {
    const Move mc = plan.step_c[t], md = plan.step_d[t];
    std::vector<Request> requests;
    if (mc) requests.push_back(node.post_recv(mc.from, cb.next(), kAlignedCTag));
    if (md) requests.push_back(node.post_recv(md.from, db.next(), kAlignedDTag));
    if (mc) requests.push_back(node.isend(mc.to, cb.now(), kAlignedCTag));
    if (md) requests.push_back(node.isend(md.to, db.now(), kAlignedDTag));
    node.wait_all(requests);
    if (mc) cb.turn();
    if (md) db.turn();
    multiply_held(t + 1);
  }
}

// The SBT-based algorithm with Dekel's alignment (§5.2.1: "the alignment described for Dekel's algorithm is
// applicable", and the multiplication phase takes log N2 and log N1 steps): after the alignment, recursive doubling
// of the fine matrix alone across the δ dimensions of the inner bits the coarse block holds (step e moving its 2^e
// blocks), then nmin steps exchanging every coarse block held across the coarse matrix's dimension i and every fine
// block across the fine one's δ + i, SBT-b in the row and the column side by side; after each step the pairs that
// arrived are multiplied. Slot b of the fine stack holds inner block j0 ⊕ b, slot u of the coarse stack the coarse
// block of the inner blocks whose high bits are those of j0 ⊕ (u << δ), so fine slot b pairs with coarse slot
// b >> δ. Nmax block products in all, as Dekel's.
template <class T>
void sbt_aligned(MatmulContext<T>& x, const Aligned& g) {
  Node& node = x.node;
  const InnerProduct<T> product(x, g);
  const std::size_t most = std::size_t{1} << g.nmax, least = std::size_t{1} << g.nmin;
  const std::size_t cn = x.blocks.c.size(), dn = x.blocks.d.size();
  Schedule plan;
  dekel_alignment(node, g, plan);
  Moving<T> cb = moving(node, x.blocks.c), db = moving(node, x.blocks.d);
  align(node, cb, db, plan);
  // The stacks: C's and D's slots, Nmax of the fine matrix's, Nmin of the coarse one's.
  const std::size_t c_slots = g.tall ? least : most, d_slots = g.tall ? most : least;
  Buffer<T> cs = node.allocate<T>(c_slots * cn), ds = node.allocate<T>(d_slots * dn);
  std::copy(cb.now().begin(), cb.now().end(), cs.begin());
  std::copy(db.now().begin(), db.now().end(), ds.begin());
  std::copy(x.blocks.e.begin(), x.blocks.e.end(), x.blocks.a.begin());
  auto multiply_slots = [&](std::size_t first, std::size_t count) {
    for (std::size_t b = first; b < first + count; ++b) {
      const std::size_t ci = g.tall ? b >> g.delta : b, di = g.tall ? b : b >> g.delta;
      product(std::span<const T>(cs.span().subspan(ci * cn, cn)), std::span<const T>(ds.span().subspan(di * dn, dn)),
              g.j0 ^ static_cast<std::uint32_t>(b));
    }
    node.compute(count * 2 * product.p * product.inner * product.r);
  };
  // One step: n blocks of C across `c_dimension` and m of D across `d_dimension` (0 blocks: that matrix stays).
  auto step = [&](std::size_t n, int c_dimension, std::size_t m, int d_dimension) {
    std::vector<Request> requests;
    if (n) requests.push_back(node.post_recv(node.neighbor(c_dimension), cs.span().subspan(n * cn, n * cn), kAlignedCTag));
    if (m) requests.push_back(node.post_recv(node.neighbor(d_dimension), ds.span().subspan(m * dn, m * dn), kAlignedDTag));
    if (n)
      requests.push_back(node.isend(node.neighbor(c_dimension), std::span<const T>(cs.span().subspan(0, n * cn)), kAlignedCTag));
    if (m)
      requests.push_back(node.isend(node.neighbor(d_dimension), std::span<const T>(ds.span().subspan(0, m * dn)), kAlignedDTag));
    node.wait_all(requests);
  };
  multiply_slots(0, 1);
  for (int e = 0; e < g.delta; ++e) {
    const std::size_t n = std::size_t{1} << e;
    if (g.tall)
      step(0, 0, n, g.fine_dimension(e));
    else
      step(n, g.fine_dimension(e), 0, 0);
    multiply_slots(n, n);
  }
  for (int i = 0; i < g.nmin; ++i) {
    const std::size_t coarse = std::size_t{1} << i, fine = std::size_t{1} << (g.delta + i);
    if (g.tall)
      step(coarse, g.coarse_dimension(i), fine, g.fine_dimension(g.delta + i));
    else
      step(fine, g.fine_dimension(g.delta + i), coarse, g.coarse_dimension(i));
    multiply_slots(fine, fine);
  }
}

}  // namespace

template <class T>
void aligned_2d(MatmulContext<T>& x) {
  const Aligned g(x.node, x.grid);
  switch (x.options.algorithm) {
    case MatmulAlgorithm::cannon:
      return aligned_products(x, g, cannon_schedule(x.node, g.n1));
    case MatmulAlgorithm::dekel:
      return aligned_products(x, g, dekel_schedule(x.node, g));
    default:
      return sbt_aligned(x, g);
  }
}

template void aligned_2d(MatmulContext<float>&);
template void aligned_2d(MatmulContext<double>&);

}  // namespace hcemu::kernels::detail
