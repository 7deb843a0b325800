// Matrix multiplication A <- C × D + E (Johnsson & Ho 1987 §5): every algorithm computes the serial product for
// shapes that divide evenly and shapes that do not, on the port model it is made for and on others, and its makespan
// equals model::matmul_time; for chosen shapes the paper's own tables (6, 7, 9, 10) are counted by hand.
#include <gtest/gtest.h>

#include <string>

#include "hcemu/hcemu.hpp"
#include "hcemu/model/costs.hpp"
#include "kernel_machines.hpp"
#include "matmul_support.hpp"

namespace hcemu {
namespace {

using model::Grid;
using model::MatmulAlgorithm;
using model::MatmulOptions;
using model::MatmulShape;
using test::check_matmul;
using test::matmul_machine;
using A = MatmulAlgorithm;


MatmulOptions options(MatmulAlgorithm a, Grid grid = {}, int k = 0, std::size_t element_bytes = 8) {
  MatmulOptions o;
  o.algorithm = a;
  o.grid = grid;
  o.k = k;
  o.element_bytes = element_bytes;
  return o;
}

bool made_for(MatmulAlgorithm a, const char* ports) {
  return model::matmul_algorithm_info(a).ports == "one" || model::matmul_algorithm_info(a).ports == ports;
}

// Even blocks; P, Q, R not multiples of N; Q smaller than N (whole blocks of padding); a single element.
const std::vector<MatmulShape> kShapes = {{16, 16, 16}, {13, 7, 11}, {3, 20, 5}, {1, 1, 1}};

// ----- Every algorithm -----------------------------------------------------------------------------------------------

TEST(Matmul1D, EveryAlgorithmComputesTheProductInItsClosedFormTime) {
  for (A a : {A::a1_cra, A::a1_gcea, A::a1_rotated_gcea, A::a1_sbt, A::a1_sbnt, A::a1_nrsbt, A::a3, A::a3_sbnt, A::a4,
              A::a4_sbnt})
    for (const char* ports : {"one", "all"})
      for (int d : {1, 3})
        for (const MatmulShape& shape : kShapes) check_matmul(matmul_machine(d, ports), shape, options(a), made_for(a, ports));
}

TEST(Matmul, EveryAlgorithmOnASingleNode) {
  for (const auto& row : model::matmul_algorithms())
    for (const MatmulShape& shape : {MatmulShape{13, 7, 11}, MatmulShape{1, 1, 1}})
      check_matmul(matmul_machine(0, "all"), shape, options(row.algorithm));
}

TEST(Matmul, EveryAlgorithmInFloats) {
  // 4-byte elements: the nodes hold, multiply and send floats (small integers, so the product is exact), and the
  // closed forms move 4 bytes an element.
  for (const auto& row : model::matmul_algorithms())
    for (const char* ports : {"one", "all"})
      for (int d : {2, 3, 4}) {
        const bool square = row.two_dimensional && row.algorithm != A::a1_2d && row.algorithm != A::a1_2d_sbnt;
        if (square && d % 2 != 0) continue;
        const Grid grid{d / 2, d - d / 2};
        for (const MatmulShape& shape : {MatmulShape{16, 16, 16}, MatmulShape{13, 7, 11}})
          check_matmul(matmul_machine(d, ports), shape, options(row.algorithm, grid, 1, 4),
                       made_for(row.algorithm, ports));
      }
}

TEST(Matmul, FloatsMoveHalfTheBytesOfDoubles) {
  // Without start-ups, copies or arithmetic the time is τ times the bytes moved: floats take half of doubles'.
  MachineConfig c = test::link_bound_machine(0, 0.01);
  c.d = 4;
  for (const auto& row : model::matmul_algorithms()) {
    if (row.ports != "one") continue;
    const auto doubles = model::matmul_time(c, {64, 64, 64}, options(row.algorithm, {2, 2}, 2, 8));
    const auto floats = model::matmul_time(c, {64, 64, 64}, options(row.algorithm, {2, 2}, 2, 4));
    ASSERT_TRUE(doubles && floats) << row.name;
    EXPECT_EQ(2 * floats->total(), doubles->total()) << row.name;
  }
}

TEST(Matmul1D, RowPartitioningComputesTheProductInItsClosedFormTime) {
  // §5.1, Figure 6: node k holds block row k of every matrix (the grid N × 1).
  for (A a : {A::a1_rows, A::a1_rows_sbnt, A::a3_rows, A::a3_rows_sbnt, A::a4_rows, A::a4_rows_sbnt})
    for (const char* ports : {"one", "half", "all"})
      for (int d : {1, 3})
        for (const MatmulShape& shape : kShapes) check_matmul(matmul_machine(d, ports), shape, options(a), made_for(a, ports));
}

TEST(Matmul1D, RowPartitioningIsColumnPartitioningOfTheTransposedProduct) {
  // "For row partitioning the roles of C and D are interchanged": A^T = D^T·C^T + E^T, so each row algorithm on
  // P × Q × R sends, copies and computes what its column twin does on R × Q × P.
  for (auto [rows, columns] : {std::pair{A::a1_rows, A::a1_sbt}, {A::a1_rows_sbnt, A::a1_sbnt}, {A::a3_rows, A::a3},
                               {A::a3_rows_sbnt, A::a3_sbnt}, {A::a4_rows, A::a4}, {A::a4_rows_sbnt, A::a4_sbnt}})
    for (const MatmulShape& shape : kShapes) {
      const MachineConfig c = matmul_machine(3, "all");
      const auto by_rows = model::matmul_time(c, shape, options(rows));
      const auto by_columns = model::matmul_time(c, {shape.R, shape.Q, shape.P}, options(columns));
      ASSERT_TRUE(by_rows && by_columns) << model::matmul_algorithm_info(rows).name;
      EXPECT_EQ(by_rows->total(), by_columns->total()) << model::matmul_algorithm_info(rows).name;
      EXPECT_EQ(by_rows->flops, by_columns->flops) << model::matmul_algorithm_info(rows).name;
    }
}

TEST(Matmul1D, OnePortAlgorithmsHoldOnHalfDuplexToo) {
  for (A a : {A::a1_cra, A::a1_gcea, A::a1_sbt, A::a3, A::a4})
    for (const MatmulShape& shape : {MatmulShape{16, 16, 16}, MatmulShape{13, 7, 11}})
      check_matmul(matmul_machine(3, "half"), shape, options(a));
}

TEST(Matmul1D, HybridForEveryNumberOfSbtSteps) {
  for (const char* ports : {"one", "half", "all"})
    for (int k = 0; k <= 3; ++k)
      for (const MatmulShape& shape : {MatmulShape{16, 16, 16}, MatmulShape{13, 7, 11}})
        check_matmul(matmul_machine(3, ports), shape, options(A::a1_hybrid, {}, k));
}

TEST(Matmul1D, HybridWithNoSbtStepIsGceaAndWithAllOfThemTheSbtExchange) {
  // k = 0 runs GCEA(1,N); k = n sends what SBT-b(1,N) sends (only the product is split differently, into padded
  // blocks); the paper: "the algorithm with k = n is the same as that of k = n - 1".
  const MachineConfig c = matmul_machine(3, "one");
  const MatmulShape shape{16, 16, 16};
  EXPECT_EQ(model::matmul_time(c, shape, options(A::a1_hybrid, {}, 0))->total(),
            model::matmul_time(c, shape, options(A::a1_gcea))->total());
  EXPECT_EQ(model::matmul_time(c, shape, options(A::a1_hybrid, {}, 3))->communication,
            model::matmul_time(c, shape, options(A::a1_sbt))->communication);
  EXPECT_EQ(model::matmul_time(c, shape, options(A::a1_hybrid, {}, 3))->communication,
            model::matmul_time(c, shape, options(A::a1_hybrid, {}, 2))->communication);
}

TEST(Matmul2D, A1OnEveryGrid) {
  for (const char* ports : {"one", "all"})
    for (int n1 = 0; n1 <= 4; ++n1)
      for (const MatmulShape& shape : {MatmulShape{16, 16, 16}, MatmulShape{13, 7, 11}}) {
        check_matmul(matmul_machine(4, ports), shape, options(A::a1_2d, {n1, 4 - n1}));
        check_matmul(matmul_machine(4, ports), shape, options(A::a1_2d_sbnt, {n1, 4 - n1}), made_for(A::a1_2d_sbnt, ports));
      }
}

TEST(Matmul2D, TransposedAlgorithmsOnSquareGrids) {
  for (A a : {A::a2_2d, A::a3_2d, A::a4_2d, A::a5_2d, A::a2_2d_sbnt, A::a3_2d_sbnt, A::a4_2d_sbnt, A::a5_2d_sbnt})
    for (const char* ports : {"one", "all"})
      for (int d : {2, 4})
        for (const MatmulShape& shape : kShapes) check_matmul(matmul_machine(d, ports), shape, options(a), made_for(a, ports));
}

TEST(Matmul2D, AlgorithmThreeVersionTwoOnSquareGridsOnEveryPortModel) {
  // §5.2.3: the reduction lands A's row block in its own processor row, a scatter along that row places it.
  for (const char* ports : {"one", "half", "all"})
    for (int d : {0, 2, 4, 6})
      for (const MatmulShape& shape : kShapes) check_matmul(matmul_machine(d, ports), shape, options(A::a3_2d_v2));
}

TEST(Matmul2D, TransposedAlgorithmsOnRectangularGrids) {
  // §5.2.2: A2-A5 on N1 × N2 grids, N1 != N2, with the rectangular transpose; P, Q, R multiples of max(N1, N2).
  // §5.2.3: A3 version 2 there too, its reduction to the rows of A and the one- (some-) to-all scatter in them.
  for (A a : {A::a2_2d, A::a3_2d, A::a3_2d_v2, A::a4_2d, A::a5_2d})
    for (const char* ports : {"one", "half", "all"})
      for (int d : {1, 2, 3, 4})
        for (int n1 = 0; n1 <= d; ++n1) {
          if (2 * n1 == d) continue;
          for (const MatmulShape& shape : {MatmulShape{16, 16, 16}, MatmulShape{32, 16, 48}})
            for (std::size_t element : {std::size_t{8}, std::size_t{4}})
              check_matmul(matmul_machine(d, ports), shape, options(a, {n1, d - n1}, 0, element));
        }
}

TEST(Matmul2D, CannonDekelAndTheAlignedSbtOnSquareGridsOnEveryPortModel) {
  // §5.2.1, Figure 17: the alignment's rows and columns move different distances, closed by a barrier each (Q(d)
  // shows here); the multiplication steps send C and D one after the other through one port, side by side on two.
  for (A a : {A::cannon, A::dekel, A::sbt_aligned})
    for (const char* ports : {"one", "half", "k:2", "all"})
      for (int d : {0, 2, 4, 6})
        for (const MatmulShape& shape : kShapes) {
          MachineConfig c = matmul_machine(d, ports);
          c.barrier_a = 1.5;
          c.barrier_b = 0.25;
          check_matmul(c, shape, options(a));
        }
}

TEST(Matmul2D, CannonOnRectangularGridsOnEveryPortModel) {
  // §5.2.1, the paper's code for N1 = k·N2: Cannon's on the virtual Nmax × Nmax torus, one sub-block of the split
  // matrix crossing an edge a step; P, Q and R multiples of max(N1, N2). Both orientations.
  for (const char* ports : {"one", "half", "k:2", "all"})
    for (int d : {1, 2, 3, 4, 5})
      for (int n1 = 0; n1 <= d; ++n1) {
        if (2 * n1 == d) continue;
        for (const MatmulShape& shape : {MatmulShape{32, 32, 32}, MatmulShape{64, 32, 96}})
          for (std::size_t element : {std::size_t{8}, std::size_t{4}}) {
            MachineConfig c = matmul_machine(d, ports);
            c.barrier_a = 1.5;
            c.barrier_b = 0.25;
            check_matmul(c, shape, options(A::cannon, {n1, d - n1}, 0, element));
          }
      }
}

TEST(Matmul2D, DekelAndTheAlignedSbtOnRectangularGridsOnEveryPortModel) {
  // §5.2.1: "directly portable" to N1 != N2 when Q is a multiple of max(N1, N2); the coarse block's sub-blocks stay
  // put, the fine one moves every step. P and R need not divide (their blocks are padded), Q must.
  for (A a : {A::dekel, A::sbt_aligned})
    for (const char* ports : {"one", "half", "k:2", "all"})
      for (int d : {1, 2, 3, 4, 5})
        for (int n1 = 0; n1 <= d; ++n1) {
          if (2 * n1 == d) continue;
          for (const MatmulShape& shape : {MatmulShape{16, 32, 16}, MatmulShape{13, 32, 7}, MatmulShape{3, 64, 40}})
            for (std::size_t element : {std::size_t{8}, std::size_t{4}}) {
              MachineConfig c = matmul_machine(d, ports);
              c.barrier_a = 1.5;
              c.barrier_b = 0.25;
              check_matmul(c, shape, options(a, {n1, d - n1}, 0, element));
            }
        }
}

// ----- The paper's tables, counted by hand ------------------------------------------------------------------------
// Store-and-forward, λ = 10 µs, τ = 0.01 µs per byte (t_c = 0.08 µs per double), t_a = 0.005 µs, ρ = 0: the time is
// E·0.08 + S·10 + F·0.005 µs for E element transfers, S start-ups and F flops.

MachineConfig paper_machine(int d, std::size_t packet_doubles = 0) {
  MachineConfig c = test::link_bound_machine(10, 0.01);
  c.d = d;
  c.flop = 0.005;
  c.packet = 8 * packet_doubles;
  return c;
}
Time paper_time(long transfers, long startups, long flops) {
  return transfers * 8 * from_us(0.01) + startups * from_us(10) + flops * from_us(0.005);
}

void expect_paper(const MachineConfig& c, const MatmulShape& shape, const MatmulOptions& o, long transfers,
                  long startups, long flops) {
  SCOPED_TRACE(test::describe(c, shape, o));
  const auto predicted = model::matmul_time(c, shape, o);
  ASSERT_TRUE(predicted.has_value());
  EXPECT_EQ(predicted->flops, static_cast<std::uint64_t>(flops));
  EXPECT_EQ(predicted->total(), paper_time(transfers, startups, flops));
  const test::MatmulRun run = check_matmul(c, shape, o);
  EXPECT_EQ(run.report.makespan, paper_time(transfers, startups, flops));
}

TEST(PaperTables, TableSixAndSevenOnePortWithUnboundedPackets) {
  // N = 16 (n = 4), B_m >= every message. Table 6 element transfers: A1(1) (N-1)P⌈Q/N⌉; A4(1) ((N-1)P +
  // (n/2)Q)⌈R/N⌉; A3(1) ((N-1)Q + (n/2)P)⌈R/N⌉ + (n/2)P⌈Q/N⌉. Table 7 start-ups n, 2n, 3n; arithmetic 2PQ⌈R/N⌉,
  // PR(2⌈Q/N⌉ - 1) + P(⌈R/N⌉ + Σ_i ⌈R/2^i⌉), 2QR⌈P/N⌉.
  const MachineConfig c = paper_machine(4);
  // P = Q = R = 64: 15·64·4 = 3840; (15·64 + 2·64)·4 = 4352; (15·64 + 2·64)·4 + 2·64·4 = 4864; 32768 flops.
  expect_paper(c, {64, 64, 64}, options(A::a1_sbt), 3840, 4, 32768);
  expect_paper(c, {64, 64, 64}, options(A::a4), 4352, 8, 64 * 64 * 7 + 64 * (4 + 32 + 16 + 8 + 4));
  expect_paper(c, {64, 64, 64}, options(A::a3), 4864, 12, 2 * 64 * 64 * 4);
  // P = Q = 256, R = 16: A1 61440, A4 4352, A3 12544; 131072 flops each.
  expect_paper(c, {256, 256, 16}, options(A::a1_sbt), 61440, 4, 131072);
  expect_paper(c, {256, 256, 16}, options(A::a4), 4352, 8, 256 * 16 * 31 + 256 * (1 + 8 + 4 + 2 + 1));
  expect_paper(c, {256, 256, 16}, options(A::a3), 12544, 12, 131072);
  // A1^l(1) (CRA and GCEA): the same element transfers as A1(1), N - 1 = 15 start-ups; 2PQ⌈R/N⌉ flops.
  expect_paper(c, {64, 64, 64}, options(A::a1_cra), 3840, 15, 32768);
  expect_paper(c, {64, 64, 64}, options(A::a1_gcea), 3840, 15, 32768);
}

TEST(PaperTables, ColumnPartitioningForPNotAboveR) {
  // §5.1: "column partitioning should be used for P <= R for a given type of algorithm". N = 16, P = 16, Q = 64,
  // R = 256: A1 by columns broadcasts P⌈Q/N⌉ = 64 elements a node, 15·64 = 960 transfers; by rows D's block rows
  // ⌈Q/N⌉R = 1024, 15360. Arithmetic 2PQ⌈R/N⌉ = 2QR⌈P/N⌉ = 32768 both.
  const MachineConfig c = paper_machine(4);
  expect_paper(c, {16, 64, 256}, options(A::a1_sbt), 960, 4, 32768);
  expect_paper(c, {16, 64, 256}, options(A::a1_rows), 15360, 4, 32768);
  // And for P > R the rows win: the same matrices transposed.
  expect_paper(c, {256, 64, 16}, options(A::a1_rows), 960, 4, 32768);
}

TEST(PaperTables, TableSixOnePortWithPacketsOfTwoHundredFiftySixDoubles) {
  // B_m = 256 elements, P = Q = R = 64, N = 16: PQ/N = 256. Start-ups: A1(1) Σ_{i<4}⌈2^i·256/256⌉ = 15; A1^l(1)
  // ⌈256/256⌉·15 = 15; A4(1) ⌈QR/(2N B_m)⌉n + Σ_i ⌈2^i PR/(N B_m)⌉ = 4 + 15; A3(1) (⌈PQ/(2N B_m)⌉ +
  // ⌈PR/(2N B_m)⌉)n + Σ_i ⌈2^i QR/(N B_m)⌉ = 8 + 15 (the Σ term with QR: the paper prints PR).
  const MachineConfig c = paper_machine(4, 256);
  expect_paper(c, {64, 64, 64}, options(A::a1_sbt), 3840, 15, 32768);
  expect_paper(c, {64, 64, 64}, options(A::a1_cra), 3840, 15, 32768);
  expect_paper(c, {64, 64, 64}, options(A::a4), 4352, 19, 32768);
  expect_paper(c, {64, 64, 64}, options(A::a3), 4864, 23, 32768);
}

TEST(PaperTables, TableSixOnePortInFloatsWithOneKilobytePackets) {
  // The paper's units: 4-byte floats, t_c = 4τ, and a 1 KB packet holds B_m = 256 of them (128 doubles). P = Q = R =
  // 64, N = 16: the start-ups of the test above, 15, 15, 19 and 23, with packets of 1024 bytes.
  const MachineConfig c = paper_machine(4, 128);
  auto floats = [](A a) { return options(a, {}, 0, 4); };
  auto time = [](long transfers, long startups, long flops) {
    return transfers * 4 * from_us(0.01) + startups * from_us(10) + flops * from_us(0.005);
  };
  for (auto [a, startups] : {std::pair{A::a1_sbt, 15}, {A::a1_cra, 15}, {A::a4, 19}, {A::a3, 23}}) {
    const long transfers = a == A::a4 ? 4352 : a == A::a3 ? 4864 : 3840;
    SCOPED_TRACE(model::matmul_algorithm_info(a).name);
    EXPECT_EQ(model::matmul_time(c, {64, 64, 64}, floats(a))->total(), time(transfers, startups, 32768));
    EXPECT_EQ(check_matmul(c, {64, 64, 64}, floats(a)).report.makespan, time(transfers, startups, 32768));
  }
  // The same packets in doubles hold 128 elements: A1(1) needs Σ_{i<4}⌈2^i·256/128⌉ = 30 start-ups.
  expect_paper(c, {64, 64, 64}, options(A::a1_sbt), 3840, 30, 32768);
}

TEST(PaperTables, TableSixNPort) {
  // All-port, N = 16, P = Q = R = 64 (P⌈Q/N⌉ = 256 doubles). A1^l(n), GCEA(n,N): (1/n)(N - 1)P⌈Q/N⌉ = 960 and
  // ⌈PQ/(nN B_m)⌉(N - 1) = 15 start-ups. A1(n) with nRSBT-b(n,N): 960 and Σ_{t<4}⌈2^t·64/B_m⌉ = 4 with B_m >= 512
  // doubles, 1 + 2 + 4 + 8 = 15 with B_m = 64 (as many as GCEA(n,N): the paper's "for B_m <= M/n these
  // routings are no better than the GCEA(n,N) routing").
  MachineConfig c = paper_machine(4);
  c.ports = Ports::parse("all");
  expect_paper(c, {64, 64, 64}, options(A::a1_rotated_gcea), 960, 15, 32768);
  expect_paper(c, {64, 64, 64}, options(A::a1_nrsbt), 960, 4, 32768);
  c.packet = 8 * 64;
  expect_paper(c, {64, 64, 64}, options(A::a1_nrsbt), 960, 15, 32768);
  // A1(n) with SBnT-b(n,N): the busiest ports of a 4-cube's SBnT carry 1, 2, 1, 1 blocks: 5·256 = 1280 (the
  // paper's balanced (1/n)(N - 1)·256 = 960), and one start-up a step with B_m >= every message.
  c.packet = 0;
  expect_paper(c, {64, 64, 64}, options(A::a1_sbnt), 1280, 4, 32768);
}

TEST(PaperTables, TableNineAndTenOnePortOnAFourByFourGrid) {
  // P = Q = R = 64, N1 = N2 = 4 (n1 = n2 = 2): blocks of 16 × 16 = 256 doubles. Table 9 element transfers: A1 3·256 +
  // 3·256 = 1536; A2 256·4 + 256·3 + 256·3 = 2560 = A4; A3 256·4 + 256·3 + 256·3 + 256·4 = 3584 = A5. Start-ups
  // (B_m >= every message): A1 2 + 2, A2 and A4 4 + 2 + 2, A3 and A5 4 + 2 + 2 + 4. Arithmetic (Table 10): 2Q·16·16
  // = 32768 for A1; for A2-A5 (2·16 - 1)·16·64 + 16·(32 + 16) + 16·16 = 32768.
  const MachineConfig c = paper_machine(4);
  expect_paper(c, {64, 64, 64}, options(A::a1_2d, {2, 2}), 1536, 4, 32768);
  expect_paper(c, {64, 64, 64}, options(A::a2_2d), 2560, 8, 32768);
  expect_paper(c, {64, 64, 64}, options(A::a4_2d), 2560, 8, 32768);
  expect_paper(c, {64, 64, 64}, options(A::a3_2d), 3584, 12, 32768);
  expect_paper(c, {64, 64, 64}, options(A::a5_2d), 3584, 12, 32768);
}

TEST(PaperTables, TableNineA1DependsOnTheGridAsTableTwelveSays) {
  // A1(1): (N2 - 1)⌈P/N1⌉⌈Q/N2⌉ + (N1 - 1)⌈Q/N1⌉⌈R/N2⌉. P = Q = R = 64: 2048 on 2 × 8 and 8 × 2, 3840 on 1 × 16 and
  // 16 × 1 (the one-dimensional A1). P = 256, Q = R = 64: 2816 on 8 × 2, the best, N1/N2 = P/R (Table 12);
  // P = Q = 64, R = 256: 2816 on 2 × 8.
  const MachineConfig c = paper_machine(4);
  expect_paper(c, {64, 64, 64}, options(A::a1_2d, {1, 3}), 2048, 4, 32768);
  expect_paper(c, {64, 64, 64}, options(A::a1_2d, {3, 1}), 2048, 4, 32768);
  expect_paper(c, {64, 64, 64}, options(A::a1_2d, {0, 4}), 3840, 4, 32768);
  expect_paper(c, {64, 64, 64}, options(A::a1_2d, {4, 0}), 3840, 4, 32768);
  expect_paper(c, {256, 64, 64}, options(A::a1_2d, {3, 1}), 2816, 4, 2 * 64 * 32 * 32);
  expect_paper(c, {64, 64, 256}, options(A::a1_2d, {1, 3}), 2816, 4, 2 * 64 * 32 * 32);
  for (int n1 : {0, 1, 2, 4})
    EXPECT_GT(model::matmul_time(c, {256, 64, 64}, options(A::a1_2d, {n1, 4 - n1}))->communication,
              model::matmul_time(c, {256, 64, 64}, options(A::a1_2d, {3, 1}))->communication);
}

TEST(PaperTables, CannonAlignsInHalfTheRingAndRotatesMaxN1N2MinusOneTimes) {
  // §5.2.1: aligning C moves ⌈P/N1⌉⌈Q/N2⌉⌊N2/2⌋ elements across an edge, D likewise ⌈Q/N1⌉⌈R/N2⌉⌊N1/2⌋, then
  // max(N1, N2) - 1 steps each rotate both. P = Q = R = 64 on 4 × 4, blocks of 256: alignment 2·256 + 2·256, the
  // rotations 3·(256 + 256) one-port: 2560 element transfers, 2 + 2 + 3·2 = 10 start-ups; all-port C and D go side
  // by side, 3·256, 7 start-ups. Arithmetic: 4 block products of 2·16·16·16 = 32768.
  MachineConfig c = paper_machine(4);
  expect_paper(c, {64, 64, 64}, options(A::cannon), 2560, 10, 32768);
  c.ports = Ports::parse("all");
  expect_paper(c, {64, 64, 64}, options(A::cannon), 1792, 7, 32768);
  // The SBT-based A1 on the same grid (Table 9: 1536, 4 start-ups) needs Q(⌈P/N1⌉ + ⌈R/N2⌉) of storage against
  // Cannon's constant storage.
}

TEST(PaperTables, DekelAlignsInLogNStepsAndExchangesMaxN1N2MinusOneTimes) {
  // §5.2.1: the set-up phase takes log N2 steps for C and log N1 for D; the multiplication phase N2 - 1 exchanges of
  // ⌈P/N1⌉⌈Q/N2⌉ elements for C and N1 - 1 of ⌈Q/N1⌉⌈R/N2⌉ for D. P = Q = R = 64 on 4 × 4 (blocks of 256):
  // alignment 2·256 + 2·256, then 3·(256 + 256) one-port: 2560 element transfers, 10 start-ups, as Cannon's there
  // (log 4 = ⌊4/2⌋). On 8 × 8 (d = 6, P = Q = R = 64, blocks of 64) Dekel aligns in 3 steps where Cannon needs 4:
  // 3·64·2 + 7·128 = 1280 against 4·64·2 + 7·128 = 1408, 20 and 22 start-ups; 8 products of 2·8·8·8 = 8192 flops.
  const MachineConfig c4 = paper_machine(4), c6 = paper_machine(6);
  expect_paper(c4, {64, 64, 64}, options(A::dekel), 2560, 10, 32768);
  expect_paper(c6, {64, 64, 64}, options(A::dekel), 1280, 20, 8192);
  expect_paper(c6, {64, 64, 64}, options(A::cannon), 1408, 22, 8192);
}

TEST(PaperTables, AlignedSbtMultipliesInLogNSteps) {
  // §5.2.1: with Dekel's alignment the SBT-based algorithm's multiplication phase takes log N2 and log N1 steps.
  // P = Q = R = 64 on 8 × 8 (blocks of 64): alignment 3·64·2 = 384, then steps of 1, 2, 4 blocks of C and D,
  // (1 + 2 + 4)·128 = 896: 1280 element transfers, 6 + 6 = 12 start-ups (Dekel: 20), 8192 flops. Without the
  // alignment (a1-2d, Table 9) the gathers alone move 7·64 + 7·64 = 896 in 6 start-ups, holding twice the storage.
  const MachineConfig c = paper_machine(6);
  expect_paper(c, {64, 64, 64}, options(A::sbt_aligned), 1280, 12, 8192);
  expect_paper(c, {64, 64, 64}, options(A::a1_2d, {3, 3}), 896, 6, 8192);
}

TEST(PaperTables, CannonOnARectangularGridRotatesASubBlockOfCAndAllOfDEachStep) {
  // §5.2.1, the code for N1 = k·N2: "CALL CRA_row(C[1], ⌈P/N1⌉⌈Q/N1⌉); Left rotate C[i] locally; CALL
  // CRA_column(D, ⌈Q/N1⌉⌈R/N2⌉)", N1 - 1 times. On 8 × 2 (k = 4) with P = Q = R = 64, B_m = ∞: C's block 8 × 32 in
  // four sub-blocks of 64, D's block 8 × 32 (256) in four column sub-blocks of 64. Alignment of C: ⌊8/2⌋ = 4 steps of
  // one sub-block (256 elements). Alignment of D, sub-block i of processor column L going L·4 + i rows the shorter way
  // round: column 1 moves sub-block 0 up 4 steps (4·64) and sub-blocks 1, 2, 3 down 3, 2, 1 steps together as far as
  // they go (192 + 128 + 64): 640 elements in 7 start-ups (column 0: 384 in 3). Then 7 steps of 64 + 256: 2240 in 14.
  // 3136 element transfers, 25 start-ups; 8 steps of four 8 × 8 × 8 products, 32768 flops = 2PQR/N. The mirror
  // grid 2 × 8 (D's row sub-blocks move one a step, C whole) takes the same.
  expect_paper(paper_machine(4), {64, 64, 64}, options(A::cannon, {3, 1}), 256 + 640 + 2240, 4 + 7 + 14, 32768);
  expect_paper(paper_machine(4), {64, 64, 64}, options(A::cannon, {1, 3}), 256 + 640 + 2240, 4 + 7 + 14, 32768);
}

TEST(PaperTables, DekelAndTheAlignedSbtOnRectangularGrids) {
  // §5.2.1, GCEA-based: "N2 - 1 communication steps for C ... each step communicating ⌈P/N1⌉⌈Q/N2⌉ elements. For D
  // there are N1 - 1 steps of ⌈Q/N1⌉⌈R/N2⌉ each." On 2 × 8 (d = 4, δ = 2) with P = 32, Q = 64, R = 128, B_m = ∞:
  // C's blocks are 16 × 8 = 128 (one inner block of Q/8), D's 32 × 16 = 512 (four). Alignment: C once (bit 0 of the
  // row index), D once (the high bit of the column index), 640 in 2 start-ups; then 7 steps of C and 1 of D:
  // 7·128 + 512 = 1408 in 8 one-port, 6·128 + max(128, 512) = 1280 in 7 all-port (C and D side by side).
  // Arithmetic: 8 block products of 2·16·8·16 = 32768 = 2PQR/N.
  MachineConfig c = paper_machine(4);
  expect_paper(c, {32, 64, 128}, options(A::dekel, {1, 3}), 640 + 1408, 2 + 8, 32768);
  c.ports = Ports::parse("all");
  expect_paper(c, {32, 64, 128}, options(A::dekel, {1, 3}), 640 + 1280, 2 + 7, 32768);
  // The aligned SBT on 8 × 2 with P = 128, Q = 64, R = 32: C's blocks 16 × 32 = 512 (four inner blocks), D's
  // 8 × 16 = 128 (one). Alignment 512 + 128; D alone across the two dimensions of the inner bits C's block holds,
  // 128 + 256; then C's 512 and D's 4·128 = 512 together: 640 + 384 + 1024 = 2048 in 2 + 2 + 2 = 6 one-port.
  expect_paper(paper_machine(4), {128, 64, 32}, options(A::sbt_aligned, {3, 1}), 2048, 6, 32768);
}

TEST(PaperTables, AlgorithmThreeVersionTwoTradesTheTransposeOfAForAScatter) {
  // P = Q = R = 64 on 4 × 4 (blocks of 16 × 16 = 256), B_m = ∞. Version 1 (Table 9): 3584 element transfers, 12
  // start-ups. Version 2: TXP C n·256 = 1024, SBT-b of D 256 + 512, the reduction of the 16 × 64 partial to the
  // diagonal 2·1024 (whole, where version 1's recursive halving sends 512 + 256), the scatter 512 + 256: 4608, in
  // 4 + 2 + 2 + 2 = 10 start-ups. Arithmetic: the product 16·64·31, the reduction's 2·1024 additions at the
  // diagonal, E 256: 34048 (version 1: 32768).
  const MachineConfig c = paper_machine(4);
  expect_paper(c, {64, 64, 64}, options(A::a3_2d_v2), 1024 + 768 + 2048 + 768, 10, 16 * 64 * 31 + 2048 + 256);
}

TEST(PaperTables, AlgorithmThreeVersionTwoOnARectangularGridReducesToTheRowsOfA) {
  // §5.2.3 on 8 × 2 (d = 4, δ = 2), P = Q = R = 64, B_m = ∞, ρ = 0: the rectangular transpose of C's 8 × 32 blocks
  // (2·256 + 2·128, 4 start-ups), the SBT-b of D's 8 × 32 blocks in the row (256, 1), the 32 × 64 partial of A's row
  // block l of N2 (32·64·15 flops); "the divide and conquer strategy is applied to P/N2": its SBT reduction over the
  // one high bit of the row index (2048, 1; 2048 additions), recursive halving over the two low bits to 8 × 64 row
  // blocks (1024 + 512, 2; 3·512 additions), and the scatter of one 8 × 32 column block along the row (256, 1);
  // E 256 flops. 4864 element transfers, 9 start-ups, 34560 flops.
  expect_paper(paper_machine(4), {64, 64, 64}, options(A::a3_2d_v2, {3, 1}), 768 + 256 + 2048 + 1536 + 256,
               4 + 1 + 1 + 2 + 1, 32 * 64 * 15 + 2048 + 1536 + 256);
}

TEST(PaperTables, RectangularTransposeHasTwoLogNminWholeAndLogNmaxOverNminHalfSteps) {
  // §5.2.2 on the 2 × 8 grid of a 4-cube (nmin = 1, log(Nmax/Nmin) = 2), P = Q = R = 64, B_m = ∞, ρ = 0: the
  // transpose of D's 32 × 8 blocks (256 elements) is 2 log Nmin = 2 steps of 256 and log(Nmax/Nmin) = 2 of 128
  // elements, 4 start-ups. A4 on it: that transpose; SBT-b of the redistributed 8 × 32 blocks of D in the processor
  // columns (1 step of 256); the reduction of the 32 × 64 partial products in the rows, blocks of 32 × 8 (3 steps:
  // 1024, 512, 256); 2816 element transfers, 8 start-ups; arithmetic 32·64·(2·8 - 1) + 7·256 + 256 = 32768.
  const MachineConfig c = paper_machine(4);
  expect_paper(c, {64, 64, 64}, options(A::a4_2d, {1, 3}), 2 * 256 + 2 * 128 + 256 + 1024 + 512 + 256, 4 + 1 + 3,
               32 * 64 * 15 + 7 * 256 + 256);
  // The square 4 × 4 grid takes 2560 transfers (TableNineAndTen above): here the rectangle costs more, as A4 on
  // P = Q = R suits the square grid.
}

// ----- Shapes that are refused -----------------------------------------------------------------------------------

TEST(MatmulShapes, ImpossibleShapesAreUsageErrorsNamingTheConstraint) {
  auto message = [](const MachineConfig& c, const MatmulShape& s, const MatmulOptions& o) -> std::string {
    try {
      model::matmul_time(c, s, o);
    } catch (const UsageError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(message(matmul_machine(2, "one"), {0, 4, 4}, options(A::a1_sbt)).find("at least 1"), std::string::npos);
  EXPECT_NE(message(matmul_machine(3, "one"), {4, 4, 4}, options(A::a2_2d)).find("square processor grid"), std::string::npos);
  EXPECT_NE(message(matmul_machine(3, "one"), {4, 4, 4}, options(A::outer_product)).find("even d"), std::string::npos);
  EXPECT_NE(message(matmul_machine(3, "one"), {6, 8, 8}, options(A::a4_2d, {1, 2})).find("multiples of max(N1, N2) = 4"),
            std::string::npos);
  EXPECT_NE(message(matmul_machine(3, "one"), {8, 8, 8}, options(A::a4_2d, {1, 1})).find("n1 + n2 must equal d"),
            std::string::npos);
  EXPECT_NE(message(matmul_machine(3, "one"), {5, 6, 7}, options(A::dekel, {2, 1})).find("Q a multiple of max(N1, N2) = 4"),
            std::string::npos);
  EXPECT_NE(message(matmul_machine(3, "one"), {4, 4, 4}, options(A::cannon)).find("without a grid n1,n2"), std::string::npos);
  EXPECT_NE(message(matmul_machine(3, "one"), {8, 6, 8}, options(A::cannon, {2, 1})).find("P, Q and R multiples of max(N1, N2) = 4"),
            std::string::npos);
  EXPECT_NE(message(matmul_machine(4, "one"), {4, 4, 4}, options(A::a1_2d, {1, 2})).find("n1 + n2 must equal d"),
            std::string::npos);
  EXPECT_NE(message(matmul_machine(3, "one"), {4, 4, 4}, options(A::a1_hybrid, {}, 4)).find("k = 4"), std::string::npos);
  EXPECT_NE(message(matmul_machine(3, "one"), {4, 4, 4}, options(A::a1_sbt, {}, 0, 2)).find("float (4) or double (8)"),
            std::string::npos);
  // The kernel refuses the same, and blocks of the wrong size.
  MachineConfig c = matmul_machine(2, "one");
  EXPECT_THROW(Machine(c).run([](Node& node) {
    std::vector<double> c_block(3), d_block(16), e_block(16), a_block(16);
    kernels::matmul(node, {4, 4, 16}, options(A::a1_sbt), {c_block, d_block, e_block, a_block});
  }),
               KernelError);
}

TEST(MatmulAlgorithms, EveryNameParsesBackToItsAlgorithm) {
  for (const auto& row : model::matmul_algorithms()) EXPECT_EQ(model::parse_matmul_algorithm(row.name), row.algorithm);
  EXPECT_FALSE(model::parse_matmul_algorithm("a9").has_value());
}

}  // namespace
}  // namespace hcemu
