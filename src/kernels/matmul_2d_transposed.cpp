// Algorithms 2 to 5 with two-dimensional partitioning on a square grid: Johnsson & Ho (1987) §5.2.2-5.2.4, Figure 15
// and Table 8 (s = N1 = N2; processor (k, l) holds block (k, l) of every matrix):
//
//   A2: C_kl, D_kl --txp C--> C_lk --brd C, row k--> C_*k --mpy--> A^k_*l --red A, column l--> A_kl
//   A3: C_kl, D_kl --txp C--> C_lk --brd D, row k--> D_k* --mpy--> A^k_l* --red A, column l--> A_lk --txp A--> A_kl
//   A4: C_kl, D_kl --txp D--> D_lk --brd D, column l--> D_l* --mpy--> A^l_k* --red A, row k--> A_kl
//   A5: C_kl, D_kl --txp D--> D_lk --brd C, column l--> C_*l --mpy--> A^l_*k --red A, row k--> A_lk --txp A--> A_kl
//
// (The paper's Figure 15 prints "brd. D" for A2; its text broadcasts C^T along the rows, as here. A3 is the paper's
// version 1, with the transpose of A at the end.) One-port: TXP is Johnsson & Ho's transpose (§4.6, 2·log s steps of
// one block, kernels::johnsson_ho_transpose), the broadcast SBT-b and the reduction recursive halving inside the row
// subcube (the low d/2 dimensions) or the column subcube (the high d/2). n-port: Stout & Wagar's all-port transpose
// (kernels::stout_wagar_transpose) and SBnTs. A block is moved by the transposes as one element of s × s.
//
// Arithmetic, as Table 10 counts it: the block product ((2⌈Q/s⌉ - 1) flops per element of its real rows or columns),
// the reduction's additions (one per element received), and E (one per element of the node's block of A).
#include <algorithm>

#include "hcemu/kernels/primitives.hpp"
#include "hcemu/kernels/reduction.hpp"
#include "hcemu/kernels/transpose.hpp"
#include "hcemu/model/transpose.hpp"
#include "matmul_local.hpp"

namespace hcemu::kernels::detail {
namespace {

template <class T>
struct Square {
  MatmulContext<T>& x;
  Node& node;
  int c;
  std::size_t s, k, l, p, q, r;
  bool balanced;
  Subcube row, column;

  explicit Square(MatmulContext<T>& context)
      : x(context),
        node(context.node),
        c(context.node.dim() / 2),
        s(std::size_t{1} << c),
        k(static_cast<std::size_t>(context.node.id() >> c)),
        l(static_cast<std::size_t>(context.node.id()) & ((std::size_t{1} << c) - 1)),
        p(context.a.rows),
        q(context.c.cols),
        r(context.a.cols),
        balanced(context.options.algorithm == MatmulAlgorithm::a2_2d_sbnt ||
                 context.options.algorithm == MatmulAlgorithm::a3_2d_sbnt ||
                 context.options.algorithm == MatmulAlgorithm::a4_2d_sbnt ||
                 context.options.algorithm == MatmulAlgorithm::a5_2d_sbnt),
        row{0, c},
        column{c, c} {}

  // Block (k, l) moves to processor (l, k).
  void transpose(std::span<const T> block, std::span<T> out) {
    const std::size_t bytes_per_block = sizeof(T) * block.size();
    if (!balanced) return johnsson_ho_transpose(node, bytes(block), bytes(out), s, bytes_per_block);
    const int packets = x.options.packets > 0 ? x.options.packets
                                              : model::stout_wagar_packets(node.config(), s, bytes_per_block);
    stout_wagar_transpose(node, bytes(block), bytes(out), s, bytes_per_block, packets);
  }
  void broadcast(std::span<T> all, std::size_t block, Subcube cube) {
    if (balanced)
      sbnt_allgather(node, bytes(all), sizeof(T) * block, cube);
    else
      sbt_allgather(node, bytes(all), sizeof(T) * block, cube);
  }
  void reduce(std::span<T> partial, std::size_t block, std::span<T> out, Subcube cube) {
    sum_scatter(node, partial, block, out, cube, balanced);
  }
  // s blocks, `own` of them this node's.
  Buffer<T> gathered(std::span<const T> block, std::size_t own) {
    Buffer<T> all = node.allocate<T>(s * block.size());
    std::copy(block.begin(), block.end(), all.begin() + own * block.size());
    return all;
  }
  // The partial products of a row-block-stacked C (s blocks of p × q) with D (q × r): s blocks of p × r, stacked
  // the same way, over the P real rows: P·r·(2q - 1) flops.
  Buffer<T> stacked_product(std::span<const T> c_blocks, std::span<const T> d) {
    Buffer<T> out = node.allocate<T>(s * p * r);
    std::fill(out.begin(), out.end(), T{0});
    for (std::size_t b = 0; b < s && b * p < x.shape.P; ++b) {
      const std::size_t rows = std::min(p, x.shape.P - b * p);
      multiply(rows, r, q, ColumnMajor{c_blocks.subspan(b * p * q, p * q), p}, ColumnMajor{d, q},
               out.span().subspan(b * p * r, p * r), p, false);
    }
    node.compute(x.shape.P * r * (2 * q - 1));
    return out;
  }
  // C (p × q) times D side by side (q × s·r) over the R real columns: p·R·(2q - 1) flops.
  Buffer<T> wide_product(std::span<const T> c_block, std::span<const T> d_blocks) {
    Buffer<T> out = node.allocate<T>(s * p * r);
    std::fill(out.begin(), out.end(), T{0});
    multiply(p, x.shape.R, q, ColumnMajor{c_block, p}, ColumnMajor{d_blocks, q}, out.span(), p, false);
    node.compute(p * x.shape.R * (2 * q - 1));
    return out;
  }
};

template <class T>
void a2(Square<T>& m) {
  Buffer<T> c_lk = m.node.template allocate<T>(m.x.blocks.c.size());
  m.transpose(m.x.blocks.c, c_lk.span());
  Buffer<T> c_column = m.gathered(c_lk.span(), m.l);  // C_l'k for every l' of row k: C_*k
  m.broadcast(c_column.span(), c_lk.size(), m.row);
  Buffer<T> partial = m.stacked_product(c_column.span(), m.x.blocks.d);
  m.reduce(partial.span(), m.p * m.r, m.x.blocks.a, m.column);  // row block k
}

template <class T>
void a3(Square<T>& m) {
  Buffer<T> c_lk = m.node.template allocate<T>(m.x.blocks.c.size());
  m.transpose(m.x.blocks.c, c_lk.span());
  Buffer<T> d_row = m.gathered(m.x.blocks.d, m.l);  // D_kl' for every l': D_k*
  m.broadcast(d_row.span(), m.x.blocks.d.size(), m.row);
  Buffer<T> partial = m.wide_product(c_lk.span(), d_row.span());  // A^k_l*
  Buffer<T> a_lk = m.node.template allocate<T>(m.p * m.r);
  m.reduce(partial.span(), m.p * m.r, a_lk.span(), m.column);  // column block k of row block l
  m.transpose(a_lk.span(), m.x.blocks.a);
}

template <class T>
void a4(Square<T>& m) {
  Buffer<T> d_lk = m.node.template allocate<T>(m.x.blocks.d.size());
  m.transpose(m.x.blocks.d, d_lk.span());
  Buffer<T> d_row = m.gathered(d_lk.span(), m.k);  // D_lk' for every k' of column l: D_l*
  m.broadcast(d_row.span(), d_lk.size(), m.column);
  Buffer<T> partial = m.wide_product(m.x.blocks.c, d_row.span());  // A^l_k*
  m.reduce(partial.span(), m.p * m.r, m.x.blocks.a, m.row);  // column block l
}

template <class T>
void a5(Square<T>& m) {
  Buffer<T> d_lk = m.node.template allocate<T>(m.x.blocks.d.size());
  m.transpose(m.x.blocks.d, d_lk.span());
  Buffer<T> c_column = m.gathered(m.x.blocks.c, m.k);  // C_k'l for every k': C_*l
  m.broadcast(c_column.span(), m.x.blocks.c.size(), m.column);
  Buffer<T> partial = m.stacked_product(c_column.span(), d_lk.span());  // A^l_*k
  Buffer<T> a_lk = m.node.template allocate<T>(m.p * m.r);
  m.reduce(partial.span(), m.p * m.r, a_lk.span(), m.row);  // row block l of column block k
  m.transpose(a_lk.span(), m.x.blocks.a);
}

}  // namespace

template <class T>
void transposed_2d(MatmulContext<T>& x) {
  Square<T> m(x);
  switch (x.options.algorithm) {
    case MatmulAlgorithm::a2_2d:
    case MatmulAlgorithm::a2_2d_sbnt:
      a2(m);
      break;
    case MatmulAlgorithm::a3_2d:
    case MatmulAlgorithm::a3_2d_sbnt:
      a3(m);
      break;
    case MatmulAlgorithm::a4_2d:
    case MatmulAlgorithm::a4_2d_sbnt:
      a4(m);
      break;
    default:
      a5(m);
  }
  add_e(x);
}

template void transposed_2d(MatmulContext<float>&);
template void transposed_2d(MatmulContext<double>&);

}  // namespace hcemu::kernels::detail
