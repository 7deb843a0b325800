// The two algorithms of §5.2.1 (Johnsson & Ho 1987) that align C and D and then move them a block at a time,
// multiplying after every move, described here on the square grid N1 = N2 = s (the rectangular grids: cannon and
// Dekel's below):
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

// Dekel's moves: those of the alignment (the aligned SBT's too), and those of step t of the multiplication.
struct Schedule {
  std::vector<Move> align_c, align_d;
  std::vector<Move> step_c, step_d;  // [t - 1] for t = 1..Nmax-1; a Move of none where that matrix stays
  std::vector<std::uint32_t> inner;  // [t] the inner block multiplied after step t (Dekel), for its sub-block
};

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
    const Move fine = across(g.fine_dimension(b));
    const Move coarse = b >= g.delta ? across(g.coarse_dimension(b - g.delta)) : Move{};
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
    const int c_partner = node.neighbor(c_dimension), d_partner = node.neighbor(d_dimension);
    std::vector<Request> requests;
    if (n) requests.push_back(node.post_recv(c_partner, cs.span().subspan(n * cn, n * cn), kAlignedCTag));
    if (m) requests.push_back(node.post_recv(d_partner, ds.span().subspan(m * dn, m * dn), kAlignedDTag));
    if (n) requests.push_back(node.isend(c_partner, std::span<const T>(cs.span().subspan(0, n * cn)), kAlignedCTag));
    if (m) requests.push_back(node.isend(d_partner, std::span<const T>(ds.span().subspan(0, m * dn)), kAlignedDTag));
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

// Cannon's algorithm on the virtual s × s torus, s = Nmax (the paper's code for N1 = k·N2: k = 2^δ virtual columns a
// processor column; for N2 = k·N1 the mirror image, k virtual rows a processor row; k = 1 on the square grid). The
// matrix split by the virtual ring, S (C for N1 >= N2, its column blocks; D for N2 > N1, its row blocks), moves one
// sub-block a step along its ring of processors; the other, W (D, or C), moves whole along the other ring, s long.
// Virtual position u of the split ring (u = (ring position)·k + slot) holds the inner block G(u), the paper's Gray-code
// ring order, so S's slot i starts on its sub-block G(u) mod k (`where`: a local index, no copy). Alignment, the
// shorter way round: S by the node's position on W's ring, one sub-block a step; W's sub-block i by its virtual
// position u on S's ring, all sub-blocks that still move going together (a contiguous range, the same parity of
// moves so far, so the range lies in one of W's two buffers); then W's sub-blocks are gathered into the buffer most
// of them ended in (ρ for the others). Then s - 1 steps of S one sub-block forward and W whole, each followed by the
// node's k block products, A's sub-block i += S's slot i and W's sub-block i. For N2 > N1 the row sub-blocks of C
// and D are first cut into contiguous blocks (ρ), and A's are written in place.
template <class T>
void cannon(MatmulContext<T>& x, const Aligned& g) {
  Node& node = x.node;
  const bool split_c = g.n1 >= g.n2;  // S = C (column sub-blocks), W = D; else S = D (row sub-blocks), W = C
  const std::size_t k = std::size_t{1} << g.delta, s = std::size_t{1} << g.nmax;
  const std::uint32_t K = model::inverse_gray(g.r), L = model::inverse_gray(g.c);
  const std::uint32_t rows = std::uint32_t{1} << g.n1, cols = std::uint32_t{1} << g.n2;
  auto at = [&](std::uint32_t row_ring, std::uint32_t column_ring) {
    return static_cast<int>((model::gray(row_ring % rows) << g.n2) | model::gray(column_ring % cols));
  };
  const Move left{at(K, L + cols - 1), at(K, L + 1)}, up{at(K + rows - 1, L), at(K + 1, L)};
  const Move s_forward = split_c ? left : up, w_forward = split_c ? up : left;
  const Move s_backward{s_forward.from, s_forward.to}, w_backward{w_forward.from, w_forward.to};
  const std::uint32_t s_position = split_c ? L : K, w_position = split_c ? K : L;
  const int s_tag = split_c ? kAlignedCTag : kAlignedDTag, w_tag = split_c ? kAlignedDTag : kAlignedCTag;
  const std::span<const T> s_block = split_c ? x.blocks.c : x.blocks.d, w_block = split_c ? x.blocks.d : x.blocks.c;
  const std::size_t s_sub = s_block.size() / k, w_sub = w_block.size() / k;

  // S's ring of k + 1 slots (one free to receive into) and W's two buffers, each sub-block in one of them.
  Buffer<T> ring = node.allocate<T>((k + 1) * s_sub);
  Buffer<T> w_buffers[2] = {node.allocate<T>(k * w_sub), node.allocate<T>(k * w_sub)};
  if (split_c) {
    std::copy(s_block.begin(), s_block.end(), ring.begin());
    std::copy(w_block.begin(), w_block.end(), w_buffers[0].begin());
  } else {
    // Row sub-block j of a column-major a × b block (a = k·a', b columns) as its own a' × b block.
    auto cut_rows = [&](std::span<const T> from, std::span<T> to, std::size_t a) {
      const std::size_t part = a / k, b = from.size() / a;
      std::vector<std::uint32_t> order(from.size());
      for (std::size_t j = 0; j < k; ++j)
        for (std::size_t col = 0; col < b; ++col)
          for (std::size_t row = 0; row < part; ++row)
            order[j * part * b + row + col * part] = static_cast<std::uint32_t>(j * part + row + col * a);
      node.permute(bytes(from), bytes(to.subspan(0, from.size())), sizeof(T), order);
    };
    cut_rows(s_block, ring.span(), x.d.rows);
    cut_rows(w_block, w_buffers[0].span(), x.c.rows);
  }
  std::vector<std::size_t> where(k);
  for (std::size_t i = 0; i < k; ++i) where[i] = model::gray(static_cast<std::uint32_t>(s_position * k + i)) & (k - 1);
  std::size_t free_slot = k;
  auto slot = [&](std::size_t j) { return ring.span().subspan(j * s_sub, s_sub); };
  // One step of S's virtual ring: the sub-block leaving the window goes to the neighbour, the one arriving takes the
  // free slot. On a ring of one processor (nmin = 0) the window only turns: nothing moves.
  const bool s_local = g.nmin == 0;
  auto s_step = [&](bool forward) -> std::vector<Request> {
    const std::size_t out = forward ? where.front() : where.back();
    const std::size_t arriving = s_local ? out : free_slot;
    std::vector<Request> requests;
    if (!s_local) {
      const Move m = forward ? s_forward : s_backward;
      requests.push_back(node.post_recv(m.from, slot(free_slot), s_tag));
      requests.push_back(node.isend(m.to, std::span<const T>(slot(out)), s_tag));
      free_slot = out;
    }
    if (forward) {
      where.erase(where.begin());
      where.push_back(arriving);
    } else {
      where.pop_back();
      where.insert(where.begin(), arriving);
    }
    return requests;
  };
  auto align_s = [&] {
    const std::size_t m = w_position;
    const bool forward = 2 * m <= s;
    for (std::size_t t = 0; t < (forward ? m : s - m); ++t) {
      std::vector<Request> requests = s_step(forward);
      node.wait_all(requests);
    }
  };
  std::vector<int> held(k, 0);
  auto w_range = [&](std::size_t first, std::size_t end, int buffer) {
    return w_buffers[buffer].span().subspan(first * w_sub, (end - first) * w_sub);
  };
  int w_now = 0;
  auto align_w = [&] {
    const std::size_t base = s_position * k;  // virtual position of sub-block 0
    std::size_t up_to = 0;                    // sub-blocks [0, up_to) go forward (2u <= s), the rest backward
    while (up_to < k && 2 * (base + up_to) <= s) ++up_to;
    auto move_range = [&](std::size_t first, std::size_t end, const Move& m) {
      const int from = held[first];
      Request in = node.post_recv(m.from, w_range(first, end, 1 - from), w_tag);
      Request sent = node.isend(m.to, std::span<const T>(w_range(first, end, from)), w_tag);
      node.wait(in);
      node.wait(sent);
      for (std::size_t i = first; i < end; ++i) held[i] = 1 - from;
    };
    for (std::size_t t = 1;; ++t) {  // sub-block i moves base + i steps forward
      const std::size_t first = t > base ? t - base : 0;
      if (first >= up_to) break;
      move_range(first, up_to, w_forward);
    }
    for (std::size_t t = 1;; ++t) {  // sub-block i moves s - base - i steps backward
      const std::size_t end = s + 1 >= base + t ? std::min(k, s + 1 - base - t) : 0;
      if (end <= up_to) break;
      move_range(up_to, end, w_backward);
    }
    const auto odd = static_cast<std::size_t>(std::count(held.begin(), held.end(), 1));
    w_now = 2 * odd > k ? 1 : 0;
    for (std::size_t i = 0; i < k; ++i)
      if (held[i] != w_now)
        node.copy(bytes(std::span<const T>(w_range(i, i + 1, held[i]))), bytes(w_range(i, i + 1, w_now)));
  };
  if (node.size() > 1) {
    if (split_c) align_s(); else align_w();
    node.barrier();
    if (split_c) align_w(); else align_s();
    node.barrier();
  }

  std::copy(x.blocks.e.begin(), x.blocks.e.end(), x.blocks.a.begin());
  const std::size_t p = split_c ? x.c.rows : x.c.rows / k, r = split_c ? x.d.cols / k : x.d.cols;
  const std::size_t inner = split_c ? x.c.cols / k : x.d.rows / k;
  auto multiply_held = [&] {
    for (std::size_t i = 0; i < k; ++i) {
      const std::span<const T> w_part = w_range(i, i + 1, w_now), s_part = slot(where[i]);
      if (split_c)
        multiply(p, r, inner, ColumnMajor{s_part, p}, ColumnMajor{w_part, inner},
                 x.blocks.a.subspan(i * p * r, p * r), p, true);
      else
        multiply(p, r, inner, ColumnMajor{w_part, p}, ColumnMajor{s_part, inner}, x.blocks.a.subspan(i * p),
                 x.c.rows, true);
    }
    node.compute(k * 2 * p * inner * r);
  };
  multiply_held();
  for (std::size_t t = 1; t < s; ++t) {
    // C's move first, then D's, as on the square grid.
    std::vector<Request> requests = {node.post_recv(w_forward.from, w_buffers[1 - w_now].span(), w_tag)};
    auto send_w = [&] {
      requests.push_back(node.isend(w_forward.to, std::span<const T>(w_buffers[w_now].span()), w_tag));
    };
    if (!split_c) send_w();
    for (Request& request : s_step(true)) requests.push_back(std::move(request));
    if (split_c) send_w();
    node.wait_all(requests);
    w_now = 1 - w_now;
    multiply_held();
  }
}

}  // namespace

template <class T>
void aligned_2d(MatmulContext<T>& x) {
  const Aligned g(x.node, x.grid);
  switch (x.options.algorithm) {
    case MatmulAlgorithm::cannon:
      return cannon(x, g);
    case MatmulAlgorithm::dekel:
      return aligned_products(x, g, dekel_schedule(x.node, g));
    default:
      return sbt_aligned(x, g);
  }
}

template void aligned_2d(MatmulContext<float>&);
template void aligned_2d(MatmulContext<double>&);

}  // namespace hcemu::kernels::detail
