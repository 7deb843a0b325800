// Algorithms 2 to 5 on a rectangular N1 × N2 grid, N1 != N2, one-port: Johnsson & Ho (1987) §5.2.2-5.2.4 with the
// transpose of §4.6 on a rectangular grid ("2 log Nmin exchange steps, each moving ⌈P/N1⌉⌈Q/N2⌉ elements, and
// log(Nmax/Nmin) steps moving half that"). P, Q and R are multiples of Nmax (model::check_matmul), so every block is
// whole. With p1 = P/N1, p2 = P/N2 (q, r alike), processor (k, l) holding C_kl (p1 × q2), D_kl (q1 × r2), E_kl:
//
//   A2: redistribute C -> C[l/N2, k/N1] --brd, row k--> C[*, k/N1] --mpy D_kl--> A^k_*l --red, column l--> A_kl
//   A3: redistribute C -> C[l/N2, k/N1] --brd D, row k--> D[k/N1, *] --mpy--> A^k[l/N2, *] --red, column l-->
//       A[l/N2, k/N1] --redistribute A^T--> A_kl
//   A4: redistribute D -> D[l/N2, k/N1] --brd, column l--> D[l/N2, *] --mpy C_kl--> A^l_k* --red, row k--> A_kl
//   A5: redistribute D -> D[l/N2, k/N1] --brd C, column l--> C[*, l/N2] --mpy--> A^l[*, k/N1] --red, row k-->
//       A[l/N2, k/N1] --redistribute A^T--> A_kl
//
//   A3 version 2 (§5.2.3): as A3 up to the partial A[l/N2, *] (p2 × R) of column l, then "the all-to-all reduction
//       is carried out such that the inner products for the set of P/N2 rows of A allocated to a column of
//       processors are accumulated with contiguous sets of P/N1 inner products per processor in the same column, and
//       in the processor row in which the inner product shall finally reside", and "one-to-all personalized
//       communication, or some-to-all personalized communication if N1 < N2" places them. N1 > N2: an SBT reduction
//       of the whole partial over the high n2 bits of the row index to the k = 2^δ rows r with r >> δ = l, recursive
//       halving over the low δ bits leaving row block r (p1 × R) on (r, l), and an SBT scatter of its column blocks
//       along row r. N2 > N1: an SBT reduction over all n1 bits to row l >> δ; row r then holds its A rows on the k
//       nodes l with l >> δ = r, p2 rows each; each scatters its N1 groups of k column blocks over the high n1 bits
//       of the column index (an SBT scatter from l >> δ = r), then the k nodes of a group swap their p2 × r2 blocks
//       (a direct exchange over the low δ bits, XOR schedule) and assemble A_kl (ρ).
//
// X[l/N2, k/N1] is X's rows block l of N2 and columns block k of N1: what the square grid's block transpose hands
// processor (k, l) (block (l, k)), in the shapes a rectangular grid needs. On a square grid these are the algorithms of
// matmul_2d_transposed.cpp.
//
// The redistribution. Node id = k·N2 + l. For N1 > N2 (δ = n1 - n2, ρ = 2^δ) the id is [k_hi | k_lo | l] (n2, δ, n2
// bits) and the element of C_kl in column sub-block t of ρ goes to [l | t | k_hi]; for N2 > N1 the id is
// [k | l_hi | l_lo] (n1, n1, δ bits) and row sub-block t goes to [l_hi | k | t]. So: cut the block into ρ pieces
// (a permutation, ρ per byte), a standard exchange of the pieces over the δ dimensions of the middle (or low) field,
// δ steps each moving half the block (packed and unpacked, ρ per byte), then Johnsson & Ho's transpose (§4.6)
// swapping the two fields of nmin bits, 2·nmin steps of the whole block, and the assembly of the pieces into the new
// block (a permutation). Time: 2ρB + δ·(2ρB/2 + T_pair(B/2)) + 2·nmin·T(B), B the block's bytes.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "hcemu/kernels/primitives.hpp"
#include "matmul_local.hpp"

namespace hcemu::kernels::detail {
namespace {

// X (rows × cols) laid out on grid g, node (k, l) holding X[k/N1, l/N2] (a × b, column-major, or its transpose if
// in_transposed); on return `out` holds X[l/N2, k/N1] (rows/N2 × cols/N1, column-major, or its transpose if
// out_transposed).
template <class T>
void redistribute(Node& node, Grid g, std::size_t rows, std::size_t cols, std::span<const T> in, bool in_transposed,
                  std::span<T> out, bool out_transposed) {
  const int n1 = g.n1, n2 = g.n2, nmin = std::min(n1, n2), delta = std::abs(n1 - n2);
  const bool tall = n1 > n2;  // more processor rows than columns
  const std::size_t pieces = std::size_t{1} << delta;
  const std::size_t a = rows >> n1, b = cols >> n2, block = a * b, piece = block / pieces;
  const std::size_t pa = tall ? a : a / pieces, pb = tall ? b / pieces : b;  // a piece: pa × pb
  const int field = tall ? n2 : 0;  // the lowest dimension of the exchanged field
  const auto id = static_cast<std::uint32_t>(node.id());
  const std::uint32_t mine = (id >> field) & static_cast<std::uint32_t>(pieces - 1);

  // Cut: slot j holds the piece for the node whose field is mine ^ j.
  std::vector<std::uint32_t> order(block);
  for (std::size_t j = 0; j < pieces; ++j) {
    const std::size_t t = mine ^ j;
    for (std::size_t c = 0; c < pb; ++c)
      for (std::size_t r = 0; r < pa; ++r) {
        const std::size_t i = tall ? r : t * pa + r, jj = tall ? t * pb + c : c;
        order[j * piece + r + c * pa] = static_cast<std::uint32_t>(in_transposed ? jj + i * b : i + jj * a);
      }
  }
  Buffer<T> slots = node.allocate<T>(block);
  node.permute(bytes(in), bytes(slots.span()), sizeof(T), order);

  // The standard exchange over the field, highest dimension first: the slots with bit e set cross dimension e.
  Buffer<T> outgoing = node.allocate<T>(block / 2), incoming = node.allocate<T>(block / 2);
  for (int e = delta - 1; e >= 0; --e) {
    std::size_t at = 0;
    for (std::size_t j = 0; j < pieces; ++j)
      if ((j >> e) & 1) {
        node.copy(bytes(std::span<const T>(slots.span().subspan(j * piece, piece))),
                  bytes(outgoing.span().subspan(at, piece)));
        at += piece;
      }
    node.exchange(node.neighbor(field + e), std::span<const T>(outgoing.span()), incoming.span());
    at = 0;
    for (std::size_t j = 0; j < pieces; ++j)
      if ((j >> e) & 1) {
        node.copy(bytes(std::span<const T>(incoming.span().subspan(at, piece))),
                  bytes(slots.span().subspan(j * piece, piece)));
        at += piece;
      }
  }
  // Now slot j holds the piece from the node whose field is mine ^ j.

  // Johnsson & Ho's transpose of the two fields of nmin bits (transpose.hpp, johnsson_ho_transpose): where a bit of
  // the two differs the block goes across the first field's dimension and is relayed across the second's.
  const int first = tall ? n1 : n2, second = tall ? 0 : delta;
  Buffer<T> arriving[2] = {node.allocate<T>(block), node.allocate<T>(block)};
  Buffer<T> relay = node.allocate<T>(block);
  std::span<T> current = slots.span();
  int next = 0;
  for (int i = nmin - 1; i >= 0; --i) {
    const int across_first = node.neighbor(first + i), across_second = node.neighbor(second + i);
    if (((id >> (first + i)) & 1) != ((id >> (second + i)) & 1)) {
      Request r = node.post_recv(across_second, arriving[next].span());
      node.send(across_first, std::span<const T>(current));
      node.wait(r);
      current = arriving[next].span();
      next = 1 - next;
    } else {
      node.recv(across_first, relay.span());
      node.send(across_second, std::span<const T>(relay.span()));
    }
  }

  // Assembly: the new block is (rows/N2) × (cols/N1); the piece from field t' lies at rows [t'·a, (t'+1)·a) (tall)
  // or columns [t'·b, (t'+1)·b) (wide).
  const std::size_t out_rows = rows >> n2, out_cols = cols >> n1;
  for (std::size_t j = 0; j < pieces; ++j) {
    const std::size_t t = mine ^ j;
    for (std::size_t c = 0; c < pb; ++c)
      for (std::size_t r = 0; r < pa; ++r) {
        const std::size_t i = tall ? t * pa + r : r, jj = tall ? c : t * pb + c;
        order[out_transposed ? jj + i * out_cols : i + jj * out_rows] = static_cast<std::uint32_t>(j * piece + r + c * pa);
      }
  }
  node.permute(bytes(std::span<const T>(current)), bytes(out), sizeof(T), order);
}

// A sub-range of rows of a stacked (RowBlocks) matrix, from row `first` on.
template <class T>
struct RowsFrom {
  RowBlocks<T> m;
  std::size_t first;
  T operator()(std::size_t i, std::size_t j) const { return m(first + i, j); }
};

// An SBT scatter from the node whose index in the field of `bits` dimensions from `lowest` is `root`: `blocks` holds
// 2^bits blocks of `block` elements, block j for the node whose field is j (the root's whole, the others' receiving
// only their ranges); 2^i blocks cross dimension i, i = bits - 1 .. 0.
template <class T>
void scatter_blocks(Node& node, std::span<T> blocks, std::size_t block, int lowest, int bits, std::size_t root) {
  const std::size_t mine = (static_cast<std::size_t>(node.id()) >> lowest) & ((std::size_t{1} << bits) - 1);
  const std::size_t relative = mine ^ root;
  for (int i = bits - 1; i >= 0; --i) {
    const std::size_t bit = std::size_t{1} << i, low = (bit << 1) - 1;
    const bool sends = (relative & low) == 0, receives = (relative & low) == bit;
    if (!sends && !receives) continue;
    // The upper half of the sender's range: relative indices from (sender ^ bit), field indices from there ^ root.
    const std::size_t first = ((sends ? relative ^ bit : relative) ^ root) & ~(bit - 1);
    std::span<T> range = blocks.subspan(first * block, bit * block);
    if (sends)
      node.send(node.neighbor(lowest + i), std::span<const T>(range));
    else
      node.recv(node.neighbor(lowest + i), range);
  }
}

// What every algorithm here starts from (the header above): the grid's sides, the matrices' sizes, the blocks'
// (p1 = P/N1, p2 = P/N2, q and r alike), and the node's row and column (id = row·N2 + column).
struct Sizes {
  std::size_t N1, N2, P, Q, R, p1, p2, q1, q2, r1, r2, row, column;
};
template <class T>
Sizes sizes_of(const MatmulContext<T>& x) {
  const Grid g = x.grid;
  const auto N1 = static_cast<std::size_t>(g.rows()), N2 = static_cast<std::size_t>(g.cols());
  const std::size_t P = x.shape.P, Q = x.shape.Q, R = x.shape.R, id = static_cast<std::size_t>(x.node.id());
  return {N1, N2, P, Q, R, P / N1, P / N2, Q / N1, Q / N2, R / N1, R / N2, id >> g.n2, id & (N2 - 1)};
}

// A3 version 2 on N1 × N2, N1 != N2 (the header above).
template <class T>
void version_two(MatmulContext<T>& x) {
  Node& node = x.node;
  const Grid g = x.grid;
  const auto [N1, N2, P, Q, R, p1, p2, q1, q2, r1, r2, r, l] = sizes_of(x);
  const bool tall = g.n1 > g.n2;
  const int nmin = std::min(g.n1, g.n2), delta = std::abs(g.n1 - g.n2);
  const std::size_t k = std::size_t{1} << delta;

  Buffer<T> c_lk = node.allocate<T>(p2 * q1);
  redistribute<T>(node, g, P, Q, x.blocks.c, false, c_lk.span(), false);
  Buffer<T> d_row = node.allocate<T>(N2 * x.blocks.d.size());  // D[r/N1, *], q1 × R
  std::copy(x.blocks.d.begin(), x.blocks.d.end(), d_row.begin() + l * x.blocks.d.size());
  sbt_allgather(node, bytes(d_row.span()), sizeof(T) * x.blocks.d.size(), Subcube{0, g.n2});
  // The partial A[l/N2, *] as `pieces` row pieces of `rows` × R stacked (N1 > N2: the k row blocks of N1 it holds).
  const std::size_t pieces = tall ? k : 1, rows = p2 / pieces;
  Buffer<T> partial = node.allocate<T>(p2 * R);
  for (std::size_t t = 0; t < pieces; ++t)
    multiply(rows, R, q1, ColumnMajor{std::span<const T>(c_lk.span().subspan(t * rows)), p2},
             ColumnMajor{std::span<const T>(d_row.span()), q1}, partial.span().subspan(t * rows * R, rows * R), rows,
             false);
  node.compute(p2 * R * (2 * q1 - 1));

  // The SBT reduction in column l over nmin bits of the row index (the high ones for N1 > N2) to the row(s) whose
  // bits there are l's (N1 > N2) or l >> δ (N2 > N1).
  const int field = tall ? delta : 0;
  const std::size_t target = tall ? l : l >> delta, relative = (r >> field) ^ target;
  Buffer<T> incoming = node.allocate<T>(p2 * R);
  for (int i = 0; i < nmin; ++i) {
    const std::size_t bit = std::size_t{1} << i;
    if ((relative & (bit - 1)) != 0) break;  // already sent
    const int partner = node.neighbor(g.n2 + field + i);
    if (relative & bit) {
      node.send(partner, std::span<const T>(partial.span()));
      break;
    }
    node.recv(partner, incoming.span());
    for (std::size_t e = 0; e < partial.size(); ++e) partial[e] += incoming[e];
    node.compute(partial.size());
  }

  if (tall) {
    // Recursive halving over the low δ bits among the k rows that hold the sum: row block r (p1 × R) on (r, l), then
    // its column blocks scattered along row r from column r >> δ.
    Buffer<T> a_row = node.allocate<T>(p1 * R);
    if (relative == 0) sum_scatter(node, partial.span(), p1 * R, a_row.span(), Subcube{g.n2, delta}, false);
    scatter_blocks(node, a_row.span(), p1 * r2, 0, g.n2, r >> delta);
    std::copy(a_row.begin() + static_cast<std::ptrdiff_t>(l * p1 * r2),
              a_row.begin() + static_cast<std::ptrdiff_t>((l + 1) * p1 * r2), x.blocks.a.begin());
  } else {
    // Row r's A rows lie on the k nodes l with l >> δ = r, p2 rows each: each scatters its N1 groups of k column
    // blocks over the high n1 bits of the column index; the k nodes of a group then swap their p2 × r2 blocks.
    scatter_blocks(node, partial.span(), p2 * k * r2, delta, g.n1, r);
    const std::size_t t = l & (k - 1), group = l >> delta;
    std::span<T> mine = partial.span().subspan(group * p2 * k * r2, p2 * k * r2);  // block t' for column (group, t')
    Buffer<T> from = node.allocate<T>(p2 * k * r2);  // block t'': rows from column (group, t'')
    std::copy(mine.begin() + static_cast<std::ptrdiff_t>(t * p2 * r2),
              mine.begin() + static_cast<std::ptrdiff_t>((t + 1) * p2 * r2), from.begin() + static_cast<std::ptrdiff_t>(t * p2 * r2));
    for (std::size_t j = 1; j < k; ++j) {
      const std::size_t other = t ^ j;
      const int partner = static_cast<int>((static_cast<std::size_t>(node.id()) & ~(k - 1)) | other);
      node.exchange(partner, std::span<const T>(mine.subspan(other * p2 * r2, p2 * r2)),
                    from.span().subspan(other * p2 * r2, p2 * r2));
    }
    // Assembly: block t'' is rows [t''·p2, (t''+1)·p2) of A_kl (p1 × r2, column-major).
    std::vector<std::uint32_t> order(p1 * r2);
    for (std::size_t b = 0; b < k; ++b)
      for (std::size_t col = 0; col < r2; ++col)
        for (std::size_t row = 0; row < p2; ++row)
          order[b * p2 + row + col * p1] = static_cast<std::uint32_t>(b * p2 * r2 + row + col * p2);
    node.permute(bytes(std::span<const T>(from.span())), bytes(x.blocks.a), sizeof(T), order);
  }
  add_e(x);
}

}  // namespace

template <class T>
void rectangular_2d(MatmulContext<T>& x) {
  Node& node = x.node;
  const Grid g = x.grid;
  const auto [N1, N2, P, Q, R, p1, p2, q1, q2, r1, r2, k, l] = sizes_of(x);
  const Subcube row{0, g.n2}, column{g.n2, g.n1};
  const MatmulAlgorithm a = x.options.algorithm;
  auto gather = [&](std::span<const T> own, std::size_t count, std::size_t at, Subcube cube) {
    Buffer<T> all = node.allocate<T>(count * own.size());
    std::copy(own.begin(), own.end(), all.begin() + at * own.size());
    sbt_allgather(node, bytes(all.span()), sizeof(T) * own.size(), cube);
    return all;
  };
  // A[l/N2, k/N1] (p2 × r1) to A_kl: the redistribution of A^T, whose block (k, l) it is, transposed.
  auto back = [&](std::span<const T> y) { redistribute<T>(node, g, R, P, y, true, x.blocks.a, true); };

  if (a == MatmulAlgorithm::a3_2d_v2) return version_two(x);
  if (a == MatmulAlgorithm::a2_2d || a == MatmulAlgorithm::a3_2d) {
    Buffer<T> c_lk = node.allocate<T>(p2 * q1);
    redistribute<T>(node, g, P, Q, x.blocks.c, false, c_lk.span(), false);
    if (a == MatmulAlgorithm::a2_2d) {
      Buffer<T> c_column = gather(c_lk.span(), N2, l, row);  // C[*, k/N1], N2 stacked blocks of p2 × q1
      Buffer<T> partial = node.allocate<T>(N1 * p1 * r2);
      for (std::size_t blk = 0; blk < N1; ++blk)
        multiply(p1, r2, q1, RowsFrom<T>{RowBlocks<T>{c_column.span(), p2, q1}, blk * p1}, ColumnMajor{x.blocks.d, q1},
                 partial.span().subspan(blk * p1 * r2, p1 * r2), p1, false);
      node.compute(P * r2 * (2 * q1 - 1));
      sum_scatter(node, partial.span(), p1 * r2, x.blocks.a, column, false);
    } else {
      Buffer<T> d_row = gather(x.blocks.d, N2, l, row);  // D[k/N1, *], q1 × R
      Buffer<T> partial = node.allocate<T>(p2 * R);
      multiply(p2, R, q1, ColumnMajor{c_lk.span(), p2}, ColumnMajor{d_row.span(), q1}, partial.span(), p2, false);
      node.compute(p2 * R * (2 * q1 - 1));
      Buffer<T> a_lk = node.allocate<T>(p2 * r1);
      sum_scatter(node, partial.span(), p2 * r1, a_lk.span(), column, false);
      back(a_lk.span());
    }
  } else {
    Buffer<T> d_lk = node.allocate<T>(q2 * r1);
    redistribute<T>(node, g, Q, R, x.blocks.d, false, d_lk.span(), false);
    if (a == MatmulAlgorithm::a4_2d) {
      Buffer<T> d_row = gather(d_lk.span(), N1, k, column);  // D[l/N2, *], q2 × R
      Buffer<T> partial = node.allocate<T>(p1 * R);
      multiply(p1, R, q2, ColumnMajor{x.blocks.c, p1}, ColumnMajor{d_row.span(), q2}, partial.span(), p1, false);
      node.compute(p1 * R * (2 * q2 - 1));
      sum_scatter(node, partial.span(), p1 * r2, x.blocks.a, row, false);
    } else {
      Buffer<T> c_column = gather(x.blocks.c, N1, k, column);  // C[*, l/N2], N1 stacked blocks of p1 × q2
      Buffer<T> partial = node.allocate<T>(N2 * p2 * r1);
      for (std::size_t blk = 0; blk < N2; ++blk)
        multiply(p2, r1, q2, RowsFrom<T>{RowBlocks<T>{c_column.span(), p1, q2}, blk * p2}, ColumnMajor{d_lk.span(), q2},
                 partial.span().subspan(blk * p2 * r1, p2 * r1), p2, false);
      node.compute(P * r1 * (2 * q2 - 1));
      Buffer<T> a_lk = node.allocate<T>(p2 * r1);
      sum_scatter(node, partial.span(), p2 * r1, a_lk.span(), row, false);
      back(a_lk.span());
    }
  }
  add_e(x);
}

template void rectangular_2d(MatmulContext<float>&);
template void rectangular_2d(MatmulContext<double>&);

}  // namespace hcemu::kernels::detail
