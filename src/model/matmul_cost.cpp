// The closed forms of the matrix multiplications as hcemu runs them (src/kernels/matmul_*.cpp), built from the
// primitives' closed forms (model/primitives.hpp, exchange.hpp, collectives.hpp, transpose.hpp). Every phase of
// every algorithm starts and ends at the same moment on every node (the nodes do the same work on equal blocks), so
// the phases add up.
#include <algorithm>
#include <bit>
#include <cstdlib>
#include <utility>

#include "hcemu/errors.hpp"
#include "hcemu/model/collectives.hpp"
#include "hcemu/model/exchange.hpp"
#include "hcemu/model/matmul.hpp"
#include "hcemu/model/primitives.hpp"
#include "hcemu/model/spanning_trees.hpp"
#include "hcemu/model/transfer.hpp"
#include "hcemu/model/transpose.hpp"
#include "model/outer_product_chain.hpp"
#include "model/shared.hpp"
#include "model/transfer_table.hpp"

namespace hcemu::model {
namespace {

using A = MatmulAlgorithm;


// Communication, with the additions of the reductions taken out: they are arithmetic, counted in `flops`, and each
// Node::compute call in `calls` (its fixed overhead, docs/model.md §14).
struct Cost {
  const MachineConfig& config;
  MachineConfig silent;  // the same machine with t_a = 0
  CostTable table;
  MatmulTime time;
  bool exact = true;

  std::size_t w;  // bytes per element

  Cost(const MachineConfig& c, std::size_t element_bytes)
      : config(c), silent(c), table(CostTable::from(c)), w(element_bytes) {
    silent.flop = 0;
    silent.compute_overhead = 0;
  }

  void add(Time t) { time.communication += t; }
  void add(std::optional<Time> t) {
    if (t)
      time.communication += *t;
    else
      exact = false;
  }
  void flops(std::uint64_t count) { time.flops += count; }
  void calls(std::uint64_t count) { time.compute_calls += count; }
  void copy(std::size_t elements) { time.communication += table.copy(w * elements); }
  std::optional<MatmulTime> result() {
    if (!exact) return std::nullopt;
    time.arithmetic = CostTable::add(CostTable::times(table.flop, static_cast<long long>(time.flops)),
                                     CostTable::times(table.compute_overhead, static_cast<long long>(time.compute_calls)));
    return time;
  }
};

std::optional<MatmulTime> one_dimensional(const MachineConfig& config, const MatmulShape& shape,
                                          const MatmulOptions& options) {
  const int d = config.d;
  const auto N = static_cast<std::size_t>(config.nodes());
  const std::size_t P = shape.P, Q = shape.Q, R = shape.R;
  const std::size_t p = (P + N - 1) / N, q = (Q + N - 1) / N, r = (R + N - 1) / N;
  Cost cost(config, options.element_bytes);
  const std::size_t w = options.element_bytes;
  const MachineConfig& m = cost.silent;
  switch (options.algorithm) {
    case A::a1_cra:
      cost.add(cra_allgather_time(m, w * P * q));
      cost.flops(2 * P * N * q * r);
      cost.calls(N);  // a block product before the first step and after each of the N - 1
      break;
    case A::a1_gcea:
      cost.add(gcea_allgather_time(m, w * P * q, d));
      cost.flops(2 * P * N * q * r);
      cost.calls(N);
      break;
    case A::a1_rotated_gcea:
      if (!all_port(config)) return std::nullopt;
      if (d > 0) cost.add((config.nodes() - 1) * message_time(m, w * ((P * q + static_cast<std::size_t>(d) - 1) / static_cast<std::size_t>(d)), 1));
      cost.flops(2 * P * N * q * r);
      cost.calls(N);
      break;
    case A::a1_hybrid: {
      const int k = options.k;
      cost.add(sbt_allgather_time(m, w * P * q, k));
      cost.add(((1 << (d - k)) - 1) * pairwise_exchange_time(m, w * (std::size_t{1} << k) * P * q, 1));
      cost.flops(2 * P * N * q * r);
      cost.calls(std::uint64_t{1} << (d - k));  // one product of the gathered group, then one per GCEA step
      break;
    }
    case A::a1_sbt:
      cost.add(recursive_doubling_allgather_time(m, w * P * q));
      cost.flops(2 * P * Q * r);
      cost.calls(1);
      break;
    case A::a1_sbnt:
      cost.add(sbnt_allgather_time(m, w * P * q, d));
      cost.flops(2 * P * Q * r);
      cost.calls(1);
      break;
    case A::a1_nrsbt:
      cost.add(completed_allgather_time(m, w * P * q));
      cost.flops(2 * P * Q * r);
      cost.calls(1);
      break;
    case A::a3:
    case A::a3_sbnt: {
      const bool sbnt = options.algorithm == A::a3_sbnt;
      auto exchange = [&](std::size_t block) { return sbnt ? sbnt_exchange_time(m, w * block) : std::optional(standard_exchange_time(m, w * block)); };
      cost.copy(P * q);  // cutting the column block of C into row blocks
      cost.add(exchange(p * q));
      cost.add(sbnt ? sbnt_allgather_time(m, w * Q * r, d) : std::optional(sbt_allgather_time(m, w * Q * r, d)));
      cost.flops(p * R * (2 * Q - 1));
      cost.add(exchange(p * r));
      cost.copy(P * r);  // gluing the row blocks of A into a column block
      cost.flops(P * r);  // + E
      cost.calls(2);      // the product, E
      break;
    }
    case A::a4:
    case A::a4_sbnt: {
      const bool sbnt = options.algorithm == A::a4_sbnt;
      cost.copy(Q * r);
      cost.add(sbnt ? sbnt_exchange_time(m, w * q * r) : std::optional(standard_exchange_time(m, w * q * r)));
      cost.flops(P * R * (2 * q - 1));
      cost.add(sbnt ? sbnt_reduce_scatter_time(m, P * r, d, 1, w) : std::optional(recursive_halving_reduce_scatter_time(m, P * r, d, 1, w)));
      cost.flops((N - 1) * P * r + P * r);  // the reduction's additions, + E
      // The product, the reduction's steps (recursive halving: one per dimension; SBnT: one per block combined), E.
      cost.calls(2 + (sbnt ? N - 1 : static_cast<std::size_t>(d)));
      break;
    }
    default:
      break;
  }
  return cost.result();
}

// Row partitioning (src/kernels/matmul_rows.cpp; §5.1, Figure 6): the column algorithms' mirror images, C and D's
// roles interchanged, p = ⌈P/N⌉, q = ⌈Q/N⌉, r = ⌈R/N⌉. A1: the all-to-all broadcast of D's block rows (qR elements),
// 2pQR flops. A3: cut D (ρ·qR), transpose blocks of qr, broadcast C's pQ, P·r(2Q - 1) flops, transpose blocks of pr
// back, glue (ρ·pR), + E. A4: cut C (ρ·pQ), transpose blocks of pq, PR(2q - 1) flops, reduce-scatter blocks of pR
// with (N - 1)pR additions, + E.
std::optional<MatmulTime> row_partitioned(const MachineConfig& config, const MatmulShape& shape,
                                          const MatmulOptions& options) {
  const int d = config.d;
  const auto N = static_cast<std::size_t>(config.nodes());
  const std::size_t P = shape.P, Q = shape.Q, R = shape.R;
  const std::size_t p = (P + N - 1) / N, q = (Q + N - 1) / N, r = (R + N - 1) / N;
  Cost cost(config, options.element_bytes);
  const std::size_t w = options.element_bytes;
  const MachineConfig& m = cost.silent;
  const A a = options.algorithm;
  const bool sbnt = a == A::a1_rows_sbnt || a == A::a3_rows_sbnt || a == A::a4_rows_sbnt;
  if (sbnt && !all_port(config)) return std::nullopt;
  auto broadcast = [&](std::size_t block) {
    return sbnt ? sbnt_allgather_time(m, w * block, d) : std::optional(recursive_doubling_allgather_time(m, w * block));
  };
  auto exchange = [&](std::size_t block) {
    return sbnt ? sbnt_exchange_time(m, w * block) : std::optional(standard_exchange_time(m, w * block));
  };
  if (a == A::a1_rows || a == A::a1_rows_sbnt) {
    cost.add(broadcast(q * R));
    cost.flops(2 * p * Q * R);
    cost.calls(1);
  } else if (a == A::a3_rows || a == A::a3_rows_sbnt) {
    cost.copy(q * R);
    cost.add(exchange(q * r));
    cost.add(broadcast(p * Q));
    cost.flops(P * r * (2 * Q - 1));
    cost.add(exchange(p * r));
    cost.copy(p * R);
    cost.flops(p * R);
    cost.calls(2);  // the product, E
  } else {
    cost.copy(p * Q);
    cost.add(exchange(p * q));
    cost.flops(P * R * (2 * q - 1));
    cost.add(sbnt ? sbnt_reduce_scatter_time(m, p * R, d, 1, w)
                  : std::optional(recursive_halving_reduce_scatter_time(m, p * R, d, 1, w)));
    cost.flops((N - 1) * p * R + p * R);
    cost.calls(2 + (sbnt ? N - 1 : static_cast<std::size_t>(d)));  // the product, the reduction's steps, E
  }
  return cost.result();
}

std::optional<MatmulTime> a1_two_dimensional(const MachineConfig& config, const MatmulShape& shape,
                                             const MatmulOptions& options) {
  const Grid g = options.grid;
  const BlockShape c = block_shape(shape.P, shape.Q, g), dd = block_shape(shape.Q, shape.R, g);
  const std::size_t p1 = c.rows, r2 = dd.cols;
  Cost cost(config, options.element_bytes);
  const std::size_t w = options.element_bytes;
  const MachineConfig& m = cost.silent;
  if (options.algorithm == A::a1_2d) {
    cost.add(sbt_allgather_time(m, w * c.size(), g.n2));
    cost.add(sbt_allgather_time(m, w * dd.size(), g.n1));
  } else {
    if (!all_port(config)) return std::nullopt;
    // Both SBnTs step by step: each step lasts the longer of the two busiest ports; every block is packed and
    // unpacked once (ρ).
    const auto row_loads = sbnt_broadcast_loads(g.n2), column_loads = sbnt_broadcast_loads(g.n1);
    auto step = [&](const std::vector<std::vector<std::size_t>>& loads, int s, std::size_t block) -> Time {
      if (s > static_cast<int>(loads.size())) return 0;
      const auto& ports = loads[static_cast<std::size_t>(s - 1)];
      return message_time(m, w * block * *std::max_element(ports.begin(), ports.end()), 1);
    };
    for (int s = 1; s <= std::max(g.n1, g.n2); ++s) cost.add(std::max(step(row_loads, s, c.size()), step(column_loads, s, dd.size())));
    cost.copy(2 * (static_cast<std::size_t>(g.cols()) - 1) * c.size() + 2 * (static_cast<std::size_t>(g.rows()) - 1) * dd.size());
  }
  cost.flops(2 * shape.Q * p1 * r2);
  cost.calls(1);
  return cost.result();
}

std::optional<MatmulTime> transposed_two_dimensional(const MachineConfig& config, const MatmulShape& shape,
                                                     const MatmulOptions& options) {
  const int c = config.d / 2;
  const auto s = std::size_t{1} << c;
  const Grid g{c, c};
  const std::size_t p = block_shape(shape.P, shape.R, g).rows, q = block_shape(shape.P, shape.Q, g).cols,
                    r = block_shape(shape.P, shape.R, g).cols;
  const std::size_t P = shape.P, R = shape.R;
  const A a = options.algorithm;
  const bool sbnt = a == A::a2_2d_sbnt || a == A::a3_2d_sbnt || a == A::a4_2d_sbnt || a == A::a5_2d_sbnt;
  if (sbnt && !all_port(config)) return std::nullopt;
  Cost cost(config, options.element_bytes);
  const std::size_t w = options.element_bytes;
  const MachineConfig& m = cost.silent;
  auto transpose = [&](std::size_t block) {
    const std::size_t bytes = w * block;
    if (!sbnt) return johnsson_ho_transpose_time(m, s, bytes);
    const int packets = options.packets > 0 ? options.packets : stout_wagar_packets(m, s, bytes);
    return stout_wagar_transpose_time(m, s, bytes, packets);
  };
  auto broadcast = [&](std::size_t block) {
    return sbnt ? sbnt_allgather_time(m, w * block, c) : std::optional(sbt_allgather_time(m, w * block, c));
  };
  auto reduce = [&](std::size_t block) {
    return sbnt ? sbnt_reduce_scatter_time(m, block, c, 1, w) : std::optional(recursive_halving_reduce_scatter_time(m, block, c, 1, w));
  };
  if (a == A::a3_2d_v2) {
    // Version 2 (src/kernels/matmul_2d_transposed.cpp): TXP C, SBT-b of D's blocks in the row, the partial product,
    // the SBT reduction of the p × s·r partial in the column to the diagonal (log s messages of it, each followed by
    // s·p·r additions), the SBT scatter of its s column blocks along the row (2^i blocks, i = log s - 1 .. 0, sent
    // one after the other), + E.
    cost.add(transpose(p * q));
    cost.add(broadcast(q * r));
    cost.flops(p * R * (2 * q - 1));
    cost.add(c * message_time(m, w * s * p * r, 1));
    cost.flops(static_cast<std::size_t>(c) * s * p * r);
    for (int i = 0; i < c; ++i) cost.add(message_time(m, w * (std::size_t{1} << i) * p * r, 1));
    cost.flops(p * r);
    cost.calls(2 + static_cast<std::size_t>(c));  // the product, the diagonal's additions, E
    return cost.result();
  }
  const bool on_c = a == A::a2_2d || a == A::a2_2d_sbnt || a == A::a3_2d || a == A::a3_2d_sbnt;
  const bool transposes_a = a == A::a3_2d || a == A::a3_2d_sbnt || a == A::a5_2d || a == A::a5_2d_sbnt;
  const bool stacked = a == A::a2_2d || a == A::a2_2d_sbnt || a == A::a5_2d || a == A::a5_2d_sbnt;
  cost.add(transpose(on_c ? p * q : q * r));
  // A2 and A5 broadcast C's blocks, A3 and A4 D's.
  cost.add(broadcast(stacked ? p * q : q * r));
  cost.flops(stacked ? P * r * (2 * q - 1) : p * R * (2 * q - 1));
  cost.add(reduce(p * r));
  cost.flops((s - 1) * p * r);
  if (transposes_a) cost.add(transpose(p * r));
  cost.flops(p * r);  // + E
  cost.calls(2 + (sbnt ? s - 1 : static_cast<std::size_t>(c)));  // the product, the reduction's steps, E
  return cost.result();
}

// The one-port A2-A5 on an N1 × N2 grid, N1 != N2 (src/kernels/matmul_2d_rectangular.cpp): the redistribution of
// B elements is Johnsson & Ho's rectangular transpose (§4.6, §5.2.2), 2·nmin steps of the block and
// δ = |n1 - n2| = log(Nmax/Nmin) pairwise exchanges of half of it, plus the cut and the assembly (ρ each) and the
// packing of every exchange step (ρ, half a block out and half in).
std::optional<MatmulTime> rectangular_two_dimensional(const MachineConfig& config, const MatmulShape& shape,
                                                      const MatmulOptions& options, Grid g) {
  Cost cost(config, options.element_bytes);
  const std::size_t w = options.element_bytes;
  const MachineConfig& m = cost.silent;
  const std::size_t N1 = static_cast<std::size_t>(g.rows()), N2 = static_cast<std::size_t>(g.cols());
  const std::size_t P = shape.P, Q = shape.Q, R = shape.R;
  const std::size_t p1 = P / N1, p2 = P / N2, q1 = Q / N1, q2 = Q / N2, r1 = R / N1, r2 = R / N2;
  const int nmin = std::min(g.n1, g.n2), delta = std::abs(g.n1 - g.n2);
  auto redistribute = [&](std::size_t elements) {
    const std::size_t bytes = w * elements;
    cost.add(2 * cost.table.copy(bytes));
    cost.add(delta * (2 * cost.table.copy(bytes / 2) + pairwise_exchange_time(m, bytes / 2, 1)));
    cost.add(2 * nmin * message_time(m, bytes, 1));
  };
  auto reduce = [&](std::size_t block, int dims) {
    cost.add(recursive_halving_reduce_scatter_time(m, block, dims, 1, w));
    cost.calls(static_cast<std::uint64_t>(dims));  // one addition per step
  };
  switch (options.algorithm) {
    case A::a2_2d:
      redistribute(p1 * q2);
      cost.add(sbt_allgather_time(m, w * p2 * q1, g.n2));
      cost.flops(P * r2 * (2 * q1 - 1));
      reduce(p1 * r2, g.n1);
      cost.flops((N1 - 1) * p1 * r2);
      break;
    case A::a3_2d:
      redistribute(p1 * q2);
      cost.add(sbt_allgather_time(m, w * q1 * r2, g.n2));
      cost.flops(p2 * R * (2 * q1 - 1));
      reduce(p2 * r1, g.n1);
      cost.flops((N1 - 1) * p2 * r1);
      redistribute(r1 * p2);
      break;
    case A::a4_2d:
      redistribute(q1 * r2);
      cost.add(sbt_allgather_time(m, w * q2 * r1, g.n1));
      cost.flops(p1 * R * (2 * q2 - 1));
      reduce(p1 * r2, g.n2);
      cost.flops((N2 - 1) * p1 * r2);
      break;
    case A::a3_2d_v2: {
      // src/kernels/matmul_2d_rectangular.cpp, version_two: A3's redistribution of C and broadcast of D, the partial
      // A[l/N2, *], the SBT reduction of all of it over nmin bits (an addition per element after each message).
      redistribute(p1 * q2);
      cost.add(sbt_allgather_time(m, w * q1 * r2, g.n2));
      cost.flops(p2 * R * (2 * q1 - 1));
      const auto k = std::size_t{1} << delta;
      cost.add(static_cast<Time>(nmin) * message_time(m, w * p2 * R, 1));
      cost.flops(static_cast<std::size_t>(nmin) * p2 * R);
      cost.calls(static_cast<std::uint64_t>(nmin));
      if (g.n1 > g.n2) {
        // Recursive halving over δ bits to row blocks of p1 × R, then the SBT scatter of p1 × r2 blocks along the row.
        reduce(p1 * R, delta);
        cost.flops((k - 1) * p1 * R);
        for (int i = 0; i < g.n2; ++i) cost.add(message_time(m, w * (std::size_t{1} << i) * p1 * r2, 1));
      } else {
        // The SBT scatter of groups of k column blocks (p2 × k·r2) over n1 bits, the direct exchange of p2 × r2
        // blocks over δ bits (XOR schedule, popcount(j) hops), the assembly of A_kl.
        for (int i = 0; i < g.n1; ++i) cost.add(message_time(m, w * (std::size_t{1} << i) * p2 * k * r2, 1));
        for (std::size_t j = 1; j < k; ++j)
          cost.add(pairwise_exchange_time(m, w * p2 * r2, std::popcount(j)));
        cost.copy(p1 * r2);
      }
      break;
    }
    default:  // a5_2d
      redistribute(q1 * r2);
      cost.add(sbt_allgather_time(m, w * p1 * q2, g.n1));
      cost.flops(P * r1 * (2 * q2 - 1));
      reduce(p2 * r1, g.n2);
      cost.flops((N2 - 1) * p2 * r1);
      redistribute(r1 * p2);
  }
  cost.flops(p1 * r2);  // + E
  cost.calls(2);        // the product, E
  return cost.result();
}

// Cannon's alignment on the virtual s × s torus (src/kernels/matmul_aligned.cpp, cannon): C's phase, then D's, each
// as long as its slowest node; for N2 > N1 the cut of C's and D's row sub-blocks before them.
void cannon_alignment(Cost& cost, Grid g, std::size_t c_elements, std::size_t d_elements) {
  const MachineConfig& m = cost.silent;
  const std::size_t w = cost.w;
  const int nmax = std::max(g.n1, g.n2), delta = std::abs(g.n1 - g.n2);
  const std::size_t s = std::size_t{1} << nmax, k = std::size_t{1} << delta;
  const bool split_c = g.n1 >= g.n2;
  const std::size_t s_bytes = w * (split_c ? c_elements : d_elements) / k;
  const std::size_t w_bytes = w * (split_c ? d_elements : c_elements) / k;
  if (!split_c) cost.copy(c_elements + d_elements);
  // S: one sub-block a step, min(p, s - p) steps at position p of W's ring: ⌊s/2⌋ at most; none where S's ring is
  // one processor (nmin = 0: the window turns in place).
  const Time s_phase = std::min(g.n1, g.n2) == 0 ? 0 : static_cast<Time>(s / 2) * pairwise_exchange_time(m, s_bytes, 1);
  // W: on the ring at position p of S's ring (N_S = s/k of them), sub-block i goes p·k + i forward or s - p·k - i
  // backward, the shorter way; each step moves the sub-blocks not yet there, then the minority parity is copied.
  Time w_phase = 0;
  for (std::size_t p = 0; p < s / k; ++p) {
    const std::size_t base = p * k;
    std::size_t up_to = 0, odd = 0;
    while (up_to < k && 2 * (base + up_to) <= s) ++up_to;
    Time t_ring = 0;
    for (std::size_t t = 1;; ++t) {
      const std::size_t first = t > base ? t - base : 0;
      if (first >= up_to) break;
      t_ring += pairwise_exchange_time(m, (up_to - first) * w_bytes, 1);
    }
    for (std::size_t t = 1;; ++t) {
      const std::size_t end = s + 1 >= base + t ? std::min(k, s + 1 - base - t) : 0;
      if (end <= up_to) break;
      t_ring += pairwise_exchange_time(m, (end - up_to) * w_bytes, 1);
    }
    for (std::size_t i = 0; i < k; ++i) odd += (i < up_to ? base + i : s - base - i) % 2;
    t_ring += cost.table.copy(std::min(odd, k - odd) * w_bytes);
    w_phase = std::max(w_phase, t_ring);
  }
  cost.add(s_phase + w_phase);
}

// Cannon's and Dekel's algorithms and the aligned SBT (src/kernels/matmul_aligned.cpp; §5.2.1), on the N1 × N2 grid.
// Cannon's (on the virtual s × s torus, s = Nmax, k = 2^δ sub-blocks of the split matrix S a node, W the other):
// S's alignment moves a sub-block per step, ⌊s/2⌋ steps at most (the paper's ⌈P/N1⌉⌈Q/N2⌉⌊N2/2⌋ elements across an
// edge for C on the square grid); W's alignment, for the W ring at each position p of S's ring, moves the range of
// W's sub-blocks i whose distance p·k + i (the shorter way round) is not yet covered, then gathers W's sub-blocks
// into one buffer (ρ for the minority); the phase lasts as long as its slowest ring. Then s - 1 steps moving one
// sub-block of S and all of W. For N2 > N1 the row sub-blocks of C and D are first cut out (ρ·(C + D)). Dekel's
// exchanges across one dimension for every set bit of a field of nmin = log Nmin bits, at most nmin steps each (the
// aligned SBT too), then Nmax - 1 GCEA steps: the matrix whose blocks hold one inner block (D if N1 > N2, C if
// N2 > N1, both on a square grid) moves every step, the other in the Nmin - 1 steps whose Gray-code bit is one of its
// nmin. The aligned SBT: δ = |n1 - n2| steps of recursive doubling of the one-inner-block matrix alone (step e moving
// 2^e blocks), then nmin steps moving 2^i blocks of the other and 2^(δ+i) of it. Each alignment is closed by a
// barrier (Q(d)). Where both move in a step, one after the other through a single port, side by side where the node
// drives two links at once (all-port, k:N with N >= 2). Nmax block-product steps of 2·p·(Q/Nmax)·r flops
// (p = ⌈P/N1⌉, r = ⌈R/N2⌉; on the square grid ⌈Q/s⌉, padding included).
std::optional<MatmulTime> aligned_two_dimensional(const MachineConfig& config, const MatmulShape& shape,
                                                  const MatmulOptions& options) {
  const Grid g = matmul_grid(options, config.d);
  const int nmin = std::min(g.n1, g.n2), nmax = std::max(g.n1, g.n2), delta = nmax - nmin;
  const auto most = std::size_t{1} << nmax, least = std::size_t{1} << nmin;
  const BlockShape cb = block_shape(shape.P, shape.Q, g), db = block_shape(shape.Q, shape.R, g);
  const bool tall = g.n1 > g.n2;  // D's blocks hold one inner block, C's 2^δ
  const std::size_t inner = std::min(cb.cols, db.rows);
  Cost cost(config, options.element_bytes);
  const std::size_t w = options.element_bytes;
  const MachineConfig& m = cost.silent;
  if (most > 1) {
    const Time c_step = pairwise_exchange_time(m, w * cb.size(), 1), d_step = pairwise_exchange_time(m, w * db.size(), 1);
    const bool side_by_side = all_port(config) || (config.ports.kind == Ports::Kind::k && config.ports.n >= 2);
    // One after the other through one port, D's exchange overlaps C's under a port overlap (docs/model.md §14): the
    // step is then a chain through the port queues that this form does not follow.
    if (!side_by_side && config.port_overlap > 0) return std::nullopt;
    cost.add(2 * cost.table.barrier(config.d));
    if (options.algorithm == A::cannon) {
      cannon_alignment(cost, g, cb.size(), db.size());
    } else {
      cost.add(static_cast<Time>(nmin) * (c_step + d_step));
    }
    // `coarse` blocks of the matrix that holds 2^δ inner blocks, `fine` of the other, in one step.
    auto step = [&](std::size_t coarse, std::size_t fine) {
      const std::size_t c_blocks = tall ? coarse : fine, d_blocks = tall ? fine : coarse;
      const Time tc = c_blocks ? pairwise_exchange_time(m, c_blocks * w * cb.size(), 1) : 0;
      const Time td = d_blocks ? pairwise_exchange_time(m, d_blocks * w * db.size(), 1) : 0;
      return side_by_side ? std::max(tc, td) : tc + td;
    };
    if (options.algorithm == A::cannon) {
      // S's sub-block (C's for N1 >= N2) and W whole, s - 1 times.
      const std::size_t k = std::size_t{1} << delta;
      const bool split_c = g.n1 >= g.n2;
      const Time ts = nmin == 0 ? 0 : pairwise_exchange_time(m, w * (split_c ? cb.size() : db.size()) / k, 1);
      const Time tw = pairwise_exchange_time(m, w * (split_c ? db.size() : cb.size()), 1);
      cost.add(static_cast<Time>(most - 1) * (side_by_side ? std::max(ts, tw) : ts + tw));
    } else if (options.algorithm == A::sbt_aligned) {
      for (int e = 0; e < delta; ++e) cost.add(step(0, std::size_t{1} << e));
      for (int i = 0; i < nmin; ++i) cost.add(step(std::size_t{1} << i, std::size_t{1} << (delta + i)));
    } else {
      cost.add(static_cast<Time>(least - 1) * step(1, 1) + static_cast<Time>(most - least) * step(0, 1));
    }
  }
  cost.flops(most * 2 * cb.rows * inner * db.cols);
  // A block product after the alignment and after each step (the aligned SBT: each step's pairs in one call).
  cost.calls(options.algorithm == A::sbt_aligned ? 1 + static_cast<std::size_t>(nmax) : most);
  return cost.result();
}

// The pipelined outer products on the s × s grid (src/kernels/matmul_2d_a1.cpp; the schedule of §5.2.1, Figure 16).
// The nodes run MIMD: each takes its s block products in step order, a product as soon as C's block has come from
// the left and D's from above (docs/model.md §5: a receive completes at max(posted, completion)), and after it sends
// C's block right and D's down as isends, C first. The makespan is the longest chain of products W (t_a·2p̂q̂r̂ + t_o,
// §6, §14) and block transfers T_C = T(w·p̂q̂, 1), T_D = T(w·q̂r̂, 1) (§3, §9) through the nodes' port queues (§4):
// the last products of the schedule, step 2s on the diagonal, are reached by chains of products in consecutive steps
// along a row and down a column, every hop a product and then the transfers the next node waits for, and once a node
// whose own two products fall in consecutive steps. How the transfers queue depends only on the port model, so the
// time is a maximum of a few sums, T = T_C + T_D:
// - one-port (one output and one input port, §4): a node sends C then D through its one port and takes C then D
//   through its one input, so every hop of the chain costs W + T; at the chain's node with two products in
//   consecutive steps the chain takes either its second product or its port still busy with the first product's
//   pair: (2s - 2)(W + T) + W + max(W, T). s = 2 (left and right neighbour are one node,
//   so a node's single port carries both its C and D and its partner's): max(3W + 2T, 4W + T + max(T_C, T_D)).
// - half duplex (one port for both directions, §4): every hop also waits for the node's own receives on the shared
//   port: 2s·W + (3s - 3)T; s = 2: 4W + 2T + max(T_C, T_D).
// - two or more transfers at once (all-port, k:N with N >= 2): C and D travel apart, and the chains mix C and D
//   hops; with X, Y the two block transfers in either order, the maximum of (s + 3)W + X + (2s - 2)Y,
//   (2s - 1)W + (s/2 - 1)X + (3s/2)Y and 2s·W + (s/2 - 1)X + (3s/2 - 1)Y; s = 2: 4W + 2·max(T_C, T_D).
// - s = 1: W, the one product.
// K multiplications through the same wave fronts (options.products, §5.2.1: every √N steps a new one from the
// diagonal): s = 1 takes K·W, and half duplex, where the one port carries all a node's 2(s - 1) transfers of a
// multiplication in and out, (K + 1)s·W + (s - 1)(2K + 1)T, and s = 2: (K + 1)s·W + K·s·T + max(T_C, T_D). Elsewhere
// the longest chain changes with K and with W against T_C and T_D (one-port s = 4 has two linear pieces up to K = 4,
// three at K = 5, five at K = 6, one of them not symmetric in T_C and T_D; all-port three to seven from K = 2), and
// the model follows the schedule's chains instead of one sum (model/outer_product_chain.hpp); so it does on one port
// under a port overlap (§14), where an early-freed port lets the second transfer of a pair start while the first
// still moves.
// These were derived by following the chains of the schedule through the rules of docs/model.md §4 and §5 and hold
// for every s, λ, τ, δ, δ', ρ, t_a, t_o, packets and short messages (tests/kernels_matmul_outer_test.cpp holds the
// emulator to them). Not half duplex under a port overlap; nor on a torus or mesh, where the Gray-code ring's
// neighbours are not one hop apart; nor under LogGP, whose holds are not its message times (§12).
std::optional<MatmulTime> pipelined_outer_product(const MachineConfig& config, const MatmulShape& shape,
                                                  const MatmulOptions& options) {
  if (config.topology.grid() || !transfer_forms_apply(config)) return std::nullopt;
  const bool two_at_once = all_port(config) || (config.ports.kind == Ports::Kind::k && config.ports.n >= 2);
  const bool half = config.ports.kind == Ports::Kind::half;
  if (half && config.port_overlap > 0) return std::nullopt;
  const int c = config.d / 2;
  const auto s = std::size_t{1} << c;
  const Grid g{c, c};
  const BlockShape cb = block_shape(shape.P, shape.Q, g), db = block_shape(shape.Q, shape.R, g);
  Cost cost(config, options.element_bytes);
  const std::size_t w = options.element_bytes;
  const std::uint64_t flops = 2 * cb.size() * db.cols;
  const Time work = cost.table.compute(flops);
  const Time tc = message_time(cost.silent, w * cb.size(), 1), td = message_time(cost.silent, w * db.size(), 1);
  const Time t = tc + td, big = std::max(tc, td);
  const auto S = static_cast<Time>(s);
  const auto products = static_cast<Time>(options.products);
  Time total = work;
  if (s == 1) {
    total = products * work;
  } else if (!half && (products > 1 || (!two_at_once && cost.table.port_overlap > 0))) {
    const auto chain = outer_products_longest_chain(config.ports, cost.table.port_overlap,
                                                    static_cast<std::uint32_t>(s), options.products, work, tc, td);
    if (!chain) return std::nullopt;
    total = *chain;
  } else if (products > 1) {
    total = s == 2 ? (products + 1) * S * work + products * S * t + big
                   : (products + 1) * S * work + (S - 1) * (2 * products + 1) * t;
  } else if (s == 2) {
    if (two_at_once)
      total = 4 * work + 2 * big;
    else if (config.ports.kind == Ports::Kind::half)
      total = 4 * work + 2 * t + big;
    else
      total = std::max(3 * work + 2 * t, 4 * work + t + big);
  } else if (s > 2) {
    if (two_at_once) {
      total = 0;
      for (auto [x, y] : {std::pair{tc, td}, std::pair{td, tc}})
        total = std::max({total, (S + 3) * work + x + (2 * S - 2) * y, (2 * S - 1) * work + (S / 2 - 1) * x + (3 * S / 2) * y,
                          2 * S * work + (S / 2 - 1) * x + (3 * S / 2 - 1) * y});
    } else if (config.ports.kind == Ports::Kind::half) {
      total = 2 * S * work + (3 * S - 3) * t;
    } else {
      total = (2 * S - 2) * (work + t) + work + std::max(work, t);
    }
  }
  cost.flops(static_cast<std::uint64_t>(products) * s * flops);
  cost.calls(static_cast<std::uint64_t>(products) * s);
  cost.add(total - products * S * work);  // the rest of the chain is communication and waiting for it
  return cost.result();
}

}  // namespace

std::optional<MatmulTime> matmul_time(const MachineConfig& config, const MatmulShape& shape,
                                      const MatmulOptions& options) {
  check_matmul(shape, options, config.d);
  if (matmul_partitions_rows(options.algorithm)) return row_partitioned(config, shape, options);
  if (!matmul_algorithm_info(options.algorithm).two_dimensional) return one_dimensional(config, shape, options);
  if (options.algorithm == A::a1_2d || options.algorithm == A::a1_2d_sbnt)
    return a1_two_dimensional(config, shape, options);
  if (options.algorithm == A::outer_product) return pipelined_outer_product(config, shape, options);
  if (options.algorithm == A::cannon || options.algorithm == A::dekel || options.algorithm == A::sbt_aligned)
    return aligned_two_dimensional(config, shape, options);
  if (const Grid g = matmul_grid(options, config.d); g.n1 != g.n2)
    return rectangular_two_dimensional(config, shape, options, g);
  return transposed_two_dimensional(config, shape, options);
}

std::optional<Time> outer_product_step_time(const MachineConfig& config, const MatmulShape& shape,
                                            const MatmulOptions& options) {
  if (options.algorithm != A::outer_product)
    throw UsageError("matmul: the paper's step count is the pipelined outer product's (outer-product)");
  check_matmul(shape, options, config.d);
  if (config.topology.grid() || !transfer_forms_apply(config)) return std::nullopt;
  const int c = config.d / 2;
  const auto s = Time{1} << c;
  const Grid g{c, c};
  const BlockShape cb = block_shape(shape.P, shape.Q, g), db = block_shape(shape.Q, shape.R, g);
  const CostTable table = CostTable::from(config);
  MachineConfig silent = config;
  silent.flop = 0;
  silent.compute_overhead = 0;
  const std::size_t w = options.element_bytes;
  const Time tc = message_time(silent, w * cb.size(), 1), td = message_time(silent, w * db.size(), 1);
  const bool two_at_once = all_port(config) || (config.ports.kind == Ports::Kind::k && config.ports.n >= 2);
  const auto products = static_cast<Time>(options.products);
  const Time steps = s == 1 ? products : (products + 1) * s + 1;
  return steps * (table.compute(2 * cb.size() * db.cols) + (two_at_once ? std::max(tc, td) : tc + td));
}

}  // namespace hcemu::model
