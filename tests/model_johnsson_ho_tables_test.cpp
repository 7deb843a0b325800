// Johnsson & Ho (1987) Tables 1-4 entry by entry: hcemu's closed forms, on a machine that reads as the paper's model
// (store-and-forward, start-up τ = λ = 10 µs, t_c = 0.5 µs per element with one-byte elements, packets of B_m bytes,
// no δ, ρ or t_a), give element transfers · t_c + start-ups · τ with the table's counts. Each test names the entries
// it checks and the parameters, chosen where the paper's row and hcemu's algorithm agree (n | M, B | M/n); where they
// do not, the docs (docs/kernels/broadcast.md, allgather.md, scatter.md) say why and the figure the table would give.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <string>
#include <utility>

#include "hcemu/model/collectives.hpp"
#include "hcemu/model/matmul.hpp"
#include "hcemu/model/paper_tables.hpp"
#include "hcemu/model/primitives.hpp"
#include "hcemu/model/scatter.hpp"
#include "hcemu/model/spanning_trees.hpp"
#include "kernel_machines.hpp"

namespace hcemu {
namespace {

constexpr double kStartUp = 10, kPerElement = 0.5;

MachineConfig paper_machine(int n, std::size_t packet = 0, const char* ports = "one") {
  MachineConfig c = test::link_bound_machine(kStartUp, kPerElement);
  c.d = n;
  c.packet = packet;
  c.ports = Ports::parse(ports);
  return c;
}

Time table_time(double element_transfers, double start_ups) {
  return from_us(element_transfers * kPerElement + start_ups * kStartUp);
}

TEST(TreeSchedules, EveryNodeReceivesEachPartOnceAfterItsParentOnThePortsOfItsStep) {
  // The one-port schedules use one dimension a step (s mod n), and every schedule sends a part down a tree edge only
  // after the parent has it.
  for (int n = 1; n <= 8; ++n)
    for (const auto& [schedule, one_port] :
         {std::pair{model::sbnt_all_port_schedule(n), false}, {model::sbt_all_port_schedule(n), false},
          {model::sbnt_one_port_schedule(n), true}, {model::nrsbt_one_port_schedule(n), true}}) {
      EXPECT_EQ(schedule.steps, one_port ? 2 * n - 1 : n);
      for (int k = 0; k < schedule.trees; ++k)
        for (std::uint32_t r = 1; r < (1u << n); ++r) {
          const std::uint32_t p = schedule.parent(k, r);
          ASSERT_EQ(std::popcount(r ^ p), 1) << "n = " << n << " r = " << r;
          const int s = schedule.step(k, r);
          ASSERT_TRUE(s >= 0 && s < schedule.steps);
          if (p != 0) {
            EXPECT_LT(schedule.step(k, p), s) << "n = " << n << " tree " << k << " r = " << r;
          }
          if (one_port) {
            EXPECT_EQ(std::countr_zero(r ^ p), s % n);
          }
        }
    }
}

TEST(TreeSchedules, OnePortNrsbtSendsTwoToTheSPlusOneMinusOneAndThenFewerPartsAStep) {
  // nRSBT-b(1,N) by the sweeps: step s < n carries 2^(s+1) - 1 parts, step n + j carries 2^n - 2^(j+1); their sum is
  // n(N - 1), every part of every other node once. The busiest, step n - 1, is the paper's B_opt = (N - 1)M/n.
  for (int n = 1; n <= 8; ++n) {
    const auto loads = model::tree_schedule_loads(model::nrsbt_one_port_schedule(n));
    for (int s = 0; s < 2 * n - 1; ++s) {
      std::size_t parts = 0;
      for (const auto& port : loads[static_cast<std::size_t>(s)])
        for (std::size_t p : port) parts += p;
      const std::size_t want = s < n ? (std::size_t{2} << s) - 1 : (std::size_t{1} << n) - (std::size_t{2} << (s - n));
      EXPECT_EQ(parts, want) << "n = " << n << " step " << s;
    }
  }
}

TEST(JohnssonHoTableOne, OnePortNrsbtTakesMnElementTransfersAndTwoSweepsOfStartUps) {
  // nRSBT-b(1,1): Mn element transfers, 2Σ_{i<n} ⌈Mi/(nB_m)⌉ + ⌈M/B_m⌉ start-ups.
  // n = 3, M = 24, B_m = 8: 72 and 2(0 + 1 + 2) + 3 = 9.
  EXPECT_EQ(model::nrsbt_one_port_broadcast_time(paper_machine(3, 8), 24), table_time(72, 9));
  // n = 5, M = 1024, B_m = 64: 5120 and 2(0 + 4 + 7 + 10 + 13) + 16 = 84.
  EXPECT_EQ(model::nrsbt_one_port_broadcast_time(paper_machine(5, 64), 1024), table_time(5120, 84));
  // B_m >= M: the "min start-ups" column, 2n - 1.
  EXPECT_EQ(model::nrsbt_one_port_broadcast_time(paper_machine(4), 64), table_time(64 * 4, 7));
}

TEST(JohnssonHoTableOne, OnePortNesbtTakesMPlusNBElementTransfers) {
  // nESBT-b(1,1) with packets of B: M + nB element transfers, ⌈M/B⌉ + n start-ups.
  // n = 3, M = 24, B = 8: 48 and 6; n = 4, M = 1024, B = 64: 1280 and 20.
  EXPECT_EQ(model::nesbt_broadcast_time(paper_machine(3), 24, 8), table_time(48, 6));
  EXPECT_EQ(model::nesbt_broadcast_time(paper_machine(4), 1024, 64), table_time(1280, 20));
}

// ----- The tables' idealised SBnT figures (model/paper_tables.hpp), printed beside the exact tree's ------------------

TEST(JohnssonHoTableTwo, BalancedSbntFigureIsTheTablesRow) {
  // SBnT-b(n,N): (1/n)(N - 1)M element transfers, Σ_i ⌈C(n,i)M/(nB_m)⌉ start-ups. n = 5, M = 32: 198.4 and 5
  // (B_m >= every message, or 64), 13 with B_m = 16.
  EXPECT_EQ(model::sbnt_balanced_table_time(paper_machine(5, 0, "all"), 32), table_time(198.4, 5));
  EXPECT_EQ(model::sbnt_balanced_table_time(paper_machine(5, 64, "all"), 32), table_time(198.4, 5));
  EXPECT_EQ(model::sbnt_balanced_table_time(paper_machine(5, 16, "all"), 32), table_time(198.4, 13));
}

TEST(JohnssonHoTableTwo, ExactSbntIsAboveTheBalancedFigureByItsBusiestPorts) {
  // The exact tree's busiest ports carry 1, 2, 2, 1, 1 blocks (n = 5): 7M = 224 element transfers against 198.4, and
  // 1, 3, 4, 3, 1, 1 (n = 6): 13M against 63M/6 = 10.5M, 24% more data time.
  MachineConfig five = paper_machine(5, 0, "all");
  EXPECT_EQ(*model::sbnt_allgather_time(five, 32, 5), table_time(224, 5));
  MachineConfig six = paper_machine(6, 0, "all");
  EXPECT_EQ(*model::sbnt_allgather_time(six, 60, 6), table_time(13 * 60, 6));
  EXPECT_EQ(*model::sbnt_balanced_table_time(six, 60), table_time(63 * 60 / 6.0, 6));
}

TEST(JohnssonHoTableTwo, OnePortTreeFigureIsTheTablesRow) {
  // SBnT-b(1,N) = nRSBT-b(1,N): (N - 1)M element transfers, max(2n - 1, (N - 1)M/B_m) start-ups. n = 4, M = 32:
  // 480 and 7 without a packet limit, 15 with B_m = 32.
  EXPECT_EQ(model::one_port_tree_allgather_table_time(paper_machine(4), 32), table_time(480, 7));
  EXPECT_EQ(model::one_port_tree_allgather_table_time(paper_machine(4, 32), 32), table_time(480, 15));
  EXPECT_EQ(model::nrsbt_one_port_allgather_time(paper_machine(4), 32), table_time(480, 7));
}

TEST(JohnssonHoTableThree, AllPortSbtScatterTakesHalfTheOnePortData) {
  // SBT-p(n,1): (1/2)NM element transfers, Σ_i ⌈C(n-1,i)M/B_m⌉ start-ups. n = 5, M = 32: 512 and 5, with B_m = 64:
  // 1 + 2 + 3 + 2 + 1 = 9.
  EXPECT_EQ(model::pipelined_sbt_scatter_time(paper_machine(5, 0, "all"), 32), table_time(512, 5));
  EXPECT_EQ(model::pipelined_sbt_scatter_time(paper_machine(5, 64, "all"), 32), table_time(512, 9));
}

TEST(JohnssonHoTableThree, NrsbtScatterIsTheTablesRowWhenNDividesM) {
  // nRSBT-p(n,1), the same row as SBnT-p(n,1): (1/n)(N - 1)M element transfers, Σ_i ⌈C(n,i)M/(nB_m)⌉ start-ups.
  // n = 4, M = 32: 120 and 4, with B_m = 16: 2 + 3 + 2 + 1 = 8; n = 5, M = 40: 248 and 5. The rotated trees meet it
  // where the exact SBnT does not (n = 5: 7 blocks on its busiest root port against 6.2).
  EXPECT_EQ(model::nrsbt_scatter_time(paper_machine(4, 0, "all"), 32), table_time(120, 4));
  EXPECT_EQ(model::nrsbt_scatter_time(paper_machine(4, 16, "all"), 32), table_time(120, 8));
  EXPECT_EQ(model::nrsbt_scatter_time(paper_machine(5, 0, "all"), 40), table_time(248, 5));
  EXPECT_EQ(model::sbnt_balanced_table_time(paper_machine(5, 0, "all"), 40), table_time(248, 5));
  EXPECT_GT(*model::sbnt_scatter_time(paper_machine(5, 0, "all"), 40), table_time(248, 5));
}

TEST(JohnssonHoTableEleven, AOneNPortFigureIsTheLongerOfTheBalancedRowAndColumnBroadcasts) {
  // A1(n): max((N2 - 1)/n2 [P/N1][Q/N2] t_c + n2 τ, (N1 - 1)/n1 [Q/N1][R/N2] t_c + n1 τ) plus arithmetic (none here).
  // d = 3 on a 2 x 4 grid, P = Q = R = 8 doubles: row blocks 4·2 = 8 elements (64 bytes) over n2 = 2, column blocks
  // 4·2 over n1 = 1: max(96 + 2 start-ups, 64 + 1) element-bytes. The exact schedule steps both broadcasts together,
  // one 64-byte block on the busiest port in each of 2 steps: 128 and 2.
  model::MatmulOptions o;
  o.algorithm = model::MatmulAlgorithm::a1_2d_sbnt;
  o.element_bytes = 8;
  o.grid = {1, 2};
  const model::MatmulShape shape{8, 8, 8};
  const MachineConfig all = paper_machine(3, 0, "all");
  EXPECT_EQ(model::a1_n_port_table_time(all, shape, o), table_time(96, 2));
  EXPECT_EQ(model::matmul_time(all, shape, o)->total(), table_time(128, 2));
  // The square 4 x 4 grid of d = 4, 2·2 elements (32 bytes) a block each way: both 48 and 2, against the exact 64
  // and 2 (the SBnT of a 2-cube has a subtree of 2 nodes and one of 1, not 1.5 each).
  o.grid = {2, 2};
  EXPECT_EQ(model::a1_n_port_table_time(paper_machine(4, 0, "all"), shape, o), table_time(48, 2));
  EXPECT_EQ(model::matmul_time(paper_machine(4, 0, "all"), shape, o)->total(), table_time(64, 2));
  // Only A1(n), and only on all ports.
  EXPECT_FALSE(model::a1_n_port_table_time(paper_machine(4, 0, "one"), shape, o).has_value());
  o.algorithm = model::MatmulAlgorithm::a1_2d;
  EXPECT_FALSE(model::a1_n_port_table_time(paper_machine(4, 0, "all"), shape, o).has_value());
}

TEST(JohnssonHoTableFour, NrsbtExchangeCarriesNMOverTwoNAPortEveryStep) {
  // nRSBT-p(n,N): (1/2)NM element transfers, ⌈NM/(2nB_m)⌉ n start-ups. n = 4, M = 32: 256 and 4, with B_m = 32:
  // ⌈64/32⌉·4 = 8.
  EXPECT_EQ(model::nrsbt_exchange_time(paper_machine(4, 0, "all"), 32), table_time(256, 4));
  EXPECT_EQ(model::nrsbt_exchange_time(paper_machine(4, 32, "all"), 32), table_time(256, 8));
}

TEST(JohnssonHoTableFour, BalancedSbntExchangeFigureIsTheTablesRow) {
  // SBnT-p(n,N): (1/2)NM element transfers, Σ_i ⌈Σ_{j>=i} C(n,j)M/(nB_m)⌉ start-ups. n = 5, M = 32: 512 and 5,
  // 4 + 3 + 2 + 1 + 1 = 11 with B_m = 64.
  EXPECT_EQ(model::sbnt_exchange_table_time(paper_machine(5, 0, "all"), 32), table_time(512, 5));
  EXPECT_EQ(model::sbnt_exchange_table_time(paper_machine(5, 64, "all"), 32), table_time(512, 11));
}

TEST(JohnssonHoTableEleven, AlgorithmsTwoToFiveNPortFiguresAreTheTablesFormulas) {
  // Table 11, T_min - arithmetic for B_m >= B_opt: nτ + p(X) [+ p(Y)] + (U(N_a - 1)/n_a + V(N_b - 1)/n_b) t_c with
  // p(X) = (√(X t_c) + √((n - 1)τ))², the pipelined transpose of ref. [10]. Chosen so that every root is whole: d = 4
  // on the 4 × 4 grid (n = 4, n1 = n2 = 2, (N_k - 1)/n_k = 3/2), doubles with t_c = 8 · 0.125 = 1 µs, τ = 3 µs
  // ((n - 1)τ = 9), P = 8, Q = R = 32: [P/N1][Q/N2] = 2·8 = 16 (√16 = 4), [Q/N1][R/N2] = 8·8 = 64 (√64 = 8),
  // [R/N1][P/N2] = 8·2 = 16, [Q/N1][P/N2] = 8·2 = 16, [P/N1][R/N2] = 2·8 = 16, [R/N1][Q/N2] = 8·8 = 64.
  MachineConfig all = test::link_bound_machine(3, 0.125);
  all.d = 4;
  all.ports = Ports::parse("all");
  all.flop = 0;
  all.compute_overhead = 0;
  all.rho = 0;
  const double n = 4, start_up = 3, t_c = 1, spread = 3.0 / 2;
  auto p = [&](double x) {
    const double root = std::sqrt(x * t_c) + std::sqrt((n - 1) * start_up);
    return root * root;
  };
  const double pq = 16, qr = 64, rp = 16, qp = 16, pr = 16, rq = 64;
  const double a2 = n * start_up + p(pq) + (qp * spread + pr * spread) * t_c;           // 12 + 49 + 48
  const double a3 = n * start_up + p(pq) + p(rp) + (qr * spread + rp * spread) * t_c;   // 12 + 49 + 49 + 120
  const double a4 = n * start_up + p(qr) + (rq * spread + pr * spread) * t_c;           // 12 + 121 + 120
  const double a5 = n * start_up + p(qr) + p(rp) + (pq * spread + rp * spread) * t_c;   // 12 + 121 + 49 + 48
  EXPECT_EQ(a2, 109);
  EXPECT_EQ(a3, 230);
  EXPECT_EQ(a4, 253);
  EXPECT_EQ(a5, 230);
  const model::MatmulShape shape{8, 32, 32};
  model::MatmulOptions o;
  o.element_bytes = 8;
  using A = model::MatmulAlgorithm;
  for (const auto& [algorithm, us] : {std::pair{A::a2_2d_sbnt, a2}, {A::a3_2d_sbnt, a3}, {A::a4_2d_sbnt, a4},
                                      {A::a5_2d_sbnt, a5}}) {
    o.algorithm = algorithm;
    SCOPED_TRACE(std::string(model::matmul_algorithm_info(algorithm).name));
    EXPECT_EQ(model::transposed_n_port_table_time(all, shape, o), from_us(us));
    // hcemu's exact time runs Stout & Wagar's transpose and the exact SBnTs: another figure.
    EXPECT_NE(model::matmul_time(all, shape, o)->total(), from_us(us));
  }
  // The arithmetic is Table 10's, the same as one-port: A2 (2[Q/N1] - 1)[R/N2]P + Σ_{i=1..n1}[R/N2][P/2^i] +
  // [R/N2][P/N1] = 15·8·8 + 8·(4 + 2) + 8·2 = 1024 flops, 512 µs at t_a = 0.5 µs.
  all.flop = 0.5;
  o.algorithm = A::a2_2d_sbnt;
  EXPECT_EQ(model::transposed_n_port_table_time(all, shape, o), from_us(a2 + 1024 * 0.5));
  // Only the n-port A2-A5, and only on all ports.
  EXPECT_FALSE(model::transposed_n_port_table_time(paper_machine(4, 0, "one"), shape, o).has_value());
  o.algorithm = A::a2_2d;
  EXPECT_FALSE(model::transposed_n_port_table_time(all, shape, o).has_value());
}

}  // namespace
}  // namespace hcemu
