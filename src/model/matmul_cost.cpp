// The closed forms of the matrix multiplications as hcemu runs them (src/kernels/matmul_*.cpp), built from the
// primitives' closed forms (model/primitives.hpp, exchange.hpp, collectives.hpp, transpose.hpp). Every phase of
// every algorithm starts and ends at the same moment on every node (the nodes do the same work on equal blocks), so
// the phases add up.
#include <algorithm>
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

// Cannon's and Dekel's algorithms on the s × s grid (src/kernels/matmul_aligned.cpp; §5.2.1). Cannon's alignment
// rotates C in row K by min(K, s - K) and D in column L by min(L, s - L) CRA steps, at most ⌊s/2⌋ each (the paper's
// ⌈P/N1⌉⌈Q/N2⌉⌊N2/2⌋ elements across an edge for C); Dekel's exchanges across one dimension for every set bit of
// the row (column) index, at most log s steps each (the aligned SBT too). Each alignment is closed by a barrier
// (Q(d)). Then s - 1 steps (the aligned SBT: log s steps, step i moving 2^i blocks of each), each moving C and D: one
// after the other through a single port, side by side where the node drives two links at once (all-port, k:N with
// N >= 2); s block products of 2pqr flops.
std::optional<MatmulTime> aligned_two_dimensional(const MachineConfig& config, const MatmulShape& shape,
                                                  const MatmulOptions& options) {
  const int c = config.d / 2;
  const auto s = std::size_t{1} << c;
  const Grid g{c, c};
  const BlockShape cb = block_shape(shape.P, shape.Q, g), db = block_shape(shape.Q, shape.R, g);
  Cost cost(config, options.element_bytes);
  const std::size_t w = options.element_bytes;
  const MachineConfig& m = cost.silent;
  if (s > 1) {
    const Time c_step = pairwise_exchange_time(m, w * cb.size(), 1), d_step = pairwise_exchange_time(m, w * db.size(), 1);
    const bool side_by_side = all_port(config) || (config.ports.kind == Ports::Kind::k && config.ports.n >= 2);
    // One after the other through one port, D's exchange overlaps C's under a port overlap (docs/model.md §14): the
    // step is then a chain through the port queues that this form does not follow.
    if (!side_by_side && config.port_overlap > 0) return std::nullopt;
    const auto align_steps = static_cast<Time>(options.algorithm == A::cannon ? s / 2 : static_cast<std::size_t>(c));
    cost.add(align_steps * (c_step + d_step) + 2 * cost.table.barrier(config.d));
    auto step = [&](std::size_t blocks) {
      const Time tc = pairwise_exchange_time(m, blocks * w * cb.size(), 1), td = pairwise_exchange_time(m, blocks * w * db.size(), 1);
      return side_by_side ? std::max(tc, td) : tc + td;
    };
    if (options.algorithm == A::sbt_aligned)
      for (int i = 0; i < c; ++i) cost.add(step(std::size_t{1} << i));
    else
      cost.add(static_cast<Time>(s - 1) * step(1));
  }
  cost.flops(s * 2 * cb.size() * db.cols);
  // A block product after the alignment and after each step (the aligned SBT: each step's pairs in one call).
  cost.calls(options.algorithm == A::sbt_aligned ? 1 + static_cast<std::size_t>(c) : s);
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
// diagonal): a form only where one chain stays the longest for every K, s = 1 (K·W) and half duplex, where the one
// port carries all a node's 2(s - 1) transfers of a multiplication in and out: (K + 1)s·W + (s - 1)(2K + 1)T, and
// s = 2: (K + 1)s·W + K·s·T + max(T_C, T_D). Elsewhere the longest chain changes with K and with W against T_C and
// T_D (one-port s = 4 has two linear pieces up to K = 4, three at K = 5, five at K = 6, one of them not symmetric in
// T_C and T_D; all-port three to seven from K = 2), and hcemu gives no form rather than a wrong one.
// These were derived by following the chains of the schedule through the rules of docs/model.md §4 and §5 and hold
// for every s, λ, τ, δ, δ', ρ, t_a, t_o, packets and short messages (tests/kernels_matmul_outer_test.cpp holds the
// emulator to them). Not on a port overlap (§14): an early-freed port lets the second transfer of a pair start while
// the first still moves, and the chain then depends on where the overlaps fall; nor on a torus or mesh, where the
// Gray-code ring's neighbours are not one hop apart; nor under LogGP, whose holds are not its message times (§12).
std::optional<MatmulTime> pipelined_outer_product(const MachineConfig& config, const MatmulShape& shape,
                                                  const MatmulOptions& options) {
  if (config.topology.grid() || !transfer_forms_apply(config)) return std::nullopt;
  const bool two_at_once = all_port(config) || (config.ports.kind == Ports::Kind::k && config.ports.n >= 2);
  if (!two_at_once && config.port_overlap > 0) return std::nullopt;
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
  } else if (products > 1) {
    if (config.ports.kind != Ports::Kind::half) return std::nullopt;
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
