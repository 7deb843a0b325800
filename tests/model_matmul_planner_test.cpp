// The planner for the matrix multiplications reproduces Johnsson & Ho's (1987) comparisons: the regions of
// Figures 11-14 for column partitioning (A1 below the lower plane, A4 between the planes, A3 above the upper one, in
// the cube of P/N, Q/N, R/N), how they move with τ/t_c and N, and the optimal grid of Table 12.
#include <gtest/gtest.h>

#include <array>
#include <algorithm>
#include <tuple>

#include "hcemu/errors.hpp"

#include "hcemu/model/matmul.hpp"
#include "hcemu/model/matmul_planner.hpp"

namespace hcemu {
namespace {

using model::MatmulAlgorithm;
using model::MatmulShape;
using A = MatmulAlgorithm;

// The paper's model: store-and-forward, one-port, B_m = ∞, start-up τ = ratio·t_c, t_c = 8τ per byte for doubles.
MachineConfig figure_machine(int d, double ratio) {
  MachineConfig c;
  c.d = d;
  c.tau = 0.125;  // t_c = 1 µs per double
  c.lambda = ratio * 1.0;
  c.switching = Switching::store_and_forward;
  c.flop = 0.01;
  return c;
}

constexpr std::array kColumnAlgorithms = {A::a1_sbt, A::a4, A::a3};

// The best of A1, A4, A3 at P = x·N, Q = y·N, R = z·N, as 0, 1, 2.
int best(const MachineConfig& c, std::size_t x, std::size_t y, std::size_t z) {
  const auto n = static_cast<std::size_t>(c.nodes());
  const A a = model::best_matmul(c, {x * n, y * n, z * n}, kColumnAlgorithms).options.algorithm;
  return a == A::a1_sbt ? 0 : a == A::a4 ? 1 : 2;
}

// How many points of the grid {1..16}^3 of (P/N, Q/N, R/N) (every `step`-th) each algorithm wins; checks on the way
// that along every vertical line (fixed Q/N, R/N, P/N rising) the winners come in the order A1, A4, A3.
std::array<int, 3> regions(const MachineConfig& c, std::size_t step = 1) {
  std::array<int, 3> count{};
  for (std::size_t y = 1; y <= 16; y += step)
    for (std::size_t z = 1; z <= 16; z += step) {
      int last = 0;
      for (std::size_t x = 1; x <= 16; x += step) {
        const int b = best(c, x, y, z);
        EXPECT_GE(b, last) << "P/N = " << x << ", Q/N = " << y << ", R/N = " << z;
        last = b;
        ++count[static_cast<std::size_t>(b)];
      }
    }
  return count;
}

TEST(MatmulPlanner, FigureElevenRegionsAreStackedA1ThenA4ThenA3) {
  // N = 16, τ = t_c, B_m = ∞: every vertical line meets A1, then A4, then A3, and every region is there.
  const auto count = regions(figure_machine(4, 1));
  for (int k : count) EXPECT_GT(k, 0);
}

TEST(MatmulPlanner, EqualDimensionsOrderA1BelowA4BelowA3) {
  // "For P/N = Q/N = R/N, the communication complexity of the A1 is less than that of the A4, which in turn is less
  // than the A3."
  const MachineConfig c = figure_machine(4, 1);
  for (std::size_t x : {1, 4, 16}) {
    const MatmulShape s{16 * x, 16 * x, 16 * x};
    const auto plans = model::plan_matmul(c, s, kColumnAlgorithms);
    ASSERT_EQ(plans.size(), 3u);
    EXPECT_EQ(plans[0].options.algorithm, A::a1_sbt);
    EXPECT_EQ(plans[1].options.algorithm, A::a4);
    EXPECT_EQ(plans[2].options.algorithm, A::a3);
  }
}

TEST(MatmulPlanner, LargerStartUpsGiveA1MoreOfTheCube) {
  // Figure 12 (τ = 1000 t_c) against Figure 11: "the regions of the A3 and the A4 are gradually taken over by A1".
  const auto eleven = regions(figure_machine(4, 1)), twelve = regions(figure_machine(4, 1000));
  EXPECT_GT(twelve[0], eleven[0]);
  EXPECT_LT(twelve[1] + twelve[2], eleven[1] + eleven[2]);
}

TEST(MatmulPlanner, MoreProcessorsGiveA3AndA4MoreOfTheCube) {
  // Figure 13 (N = 1024) against Figure 11: "part of the A1 region is taken over by the A3 and the A4", and the cube
  // splits into three regions of about the same size.
  const auto eleven = regions(figure_machine(4, 1), 3), thirteen = regions(figure_machine(10, 1), 3);
  EXPECT_LT(thirteen[0], eleven[0]);
  EXPECT_GT(thirteen[1] + thirteen[2], eleven[1] + eleven[2]);
  const int total = thirteen[0] + thirteen[1] + thirteen[2];
  for (int k : thirteen) {
    EXPECT_GT(k, total / 5);
    EXPECT_LT(k, total / 2);
  }
}

TEST(MatmulPlanner, FigureFourteenSmallMatricesKeepTheOrder) {
  // 1 <= P, Q, R <= N (N = 16): the same stacking along P, with blocks of one row or column padded.
  const MachineConfig c = figure_machine(4, 1);
  for (std::size_t q = 1; q <= 16; q += 3)
    for (std::size_t r = 1; r <= 16; r += 3) {
      int last = 0;
      for (std::size_t p = 1; p <= 16; ++p) {
        const A a = model::best_matmul(c, {p, q, r}, kColumnAlgorithms).options.algorithm;
        const int b = a == A::a1_sbt ? 0 : a == A::a4 ? 1 : 2;
        EXPECT_GE(b, last) << p << " " << q << " " << r;
        last = b;
      }
    }
}

TEST(MatmulPlanner, BestTwoDimensionalGridHasTheAspectRatioOfTheMatrices) {
  // Table 12: A1(1) is best on N1 = sqrt(PN/R), N2 = sqrt(RN/P): N1/N2 = P/R, whatever Q.
  const MachineConfig c = figure_machine(4, 1);
  const std::array one = {A::a1_2d};
  for (auto [shape, n1] : {std::pair{MatmulShape{256, 64, 64}, 3}, {MatmulShape{64, 64, 256}, 1},
                           {MatmulShape{64, 64, 64}, 2}, {MatmulShape{64, 512, 64}, 2}}) {
    const auto best = model::best_matmul(c, shape, one);
    EXPECT_EQ(best.options.grid.n1, n1) << shape.P << " " << shape.Q << " " << shape.R;
  }
}

TEST(MatmulPlanner, TwoDimensionalPartitioningIsNeverWorse) {
  // §6: "a two-dimensional partitioning yields a complexity that is at most the same as that of a one-dimensional
  // partitioning" (A1 on the 1 × N grid is the one-dimensional A1).
  const MachineConfig c = figure_machine(4, 1);
  const std::array one_d = {A::a1_sbt}, two_d = {A::a1_2d};
  for (const MatmulShape& s : {MatmulShape{64, 64, 64}, MatmulShape{256, 32, 16}, MatmulShape{16, 128, 256}})
    EXPECT_LE(model::best_matmul(c, s, two_d).time.total(), model::best_matmul(c, s, one_d).time.total());
}

TEST(MatmulPlanner, RectangularGridsForAlgorithmsTwoToFive) {
  // §5.2.2: P = R = 64, Q = 1024, N = 64, t_c = τ = 1 µs. On the square 8 × 8 grid A2 and A4 communicate 13772 µs.
  // A4 on the 2 × 32 grid: the transpose of D's 512 × 2 blocks (B = 1024 elements) in 2 log Nmin = 2 steps of B and
  // log(Nmax/Nmin) = 4 of B/2, 2·1025 + 4·513 = 4102 µs; the broadcast of the redistributed 32 × 32 blocks in the
  // processor columns, 1025 µs; the reduction of the 32 × 64 partial products in the rows, 5 steps of 1024 down to 64
  // elements, 1984 + 5 = 1989 µs: 7116 µs. (Table 9 bounds the transpose by n(B t_c + τ) = 6150 µs, 9164 in all.)
  const MachineConfig c = figure_machine(6, 1);
  const std::array four = {A::a4_2d};
  const std::array two_to_five = {A::a2_2d, A::a3_2d, A::a4_2d, A::a5_2d};
  model::MatmulOptions square;
  square.algorithm = A::a4_2d;
  EXPECT_EQ(model::matmul_time(c, {64, 1024, 64}, square)->communication, from_us(13772));
  model::MatmulOptions two_by_32 = square;
  two_by_32.grid = {1, 5};
  EXPECT_EQ(model::matmul_time(c, {64, 1024, 64}, two_by_32)->communication, from_us(7116));
  // The best grid for A4 is as fast (the 1 × 64 grid ties: no transpose steps of a whole block, 6 of half a block).
  const auto best = model::best_matmul(c, {64, 1024, 64}, four);
  EXPECT_NE(best.options.grid.n1, best.options.grid.n2);
  EXPECT_EQ(best.time.communication, from_us(7116));
  EXPECT_EQ(model::best_matmul(c, {64, 1024, 64}, two_to_five).time.communication, from_us(7116));
  // Every grid was tried: the 6 + 1 grids of a 6-cube, less none (64 | P, Q, R).
  EXPECT_EQ(model::plan_matmul(c, {64, 1024, 64}, four).size(), 7u);
  // Shapes that max(N1, N2) does not divide keep only the grids that take them: on a 6-cube every rectangular grid
  // has max(N1, N2) >= 16, which does not divide 24, so the square grid alone.
  EXPECT_EQ(model::plan_matmul(c, {24, 24, 24}, four).size(), 1u);
  // On an odd cube the rectangular grids are the only ones; A3 version 2 takes them too (§5.2.3).
  EXPECT_EQ(model::plan_matmul(figure_machine(5, 1), {64, 64, 64}, four).size(), 6u);
  const std::array version_two = {A::a3_2d_v2};
  EXPECT_EQ(model::plan_matmul(figure_machine(5, 1), {64, 64, 64}, version_two).size(), 6u);
  EXPECT_EQ(model::plan_matmul(c, {64, 1024, 64}, version_two).size(), 7u);
}

TEST(MatmulPlanner, CannonDekelAndTheAlignedSbtOnRectangularGridsFollowTheShape) {
  // §5.2.1: both are A1, whose grid should have N1/N2 = P/R (Table 12). N = 16, t_c = τ = 1 µs, P = 256, Q = R = 64.
  // Dekel on the square 4 × 4 grid: blocks of C 64 × 16 (1024), of D 16 × 16 (256); alignment 2·(1025 + 257), then
  // 3·(1025 + 257): 6410 µs. On 8 × 2 (C's block holds four inner blocks of 8): alignment 1025 + 257, one step of
  // both, six of D alone: 1282 + 1282 + 6·257 = 4106 µs. On 16 × 1, no alignment, 15 steps of D: 3855 µs, the best.
  const MachineConfig c = figure_machine(4, 1);
  const std::array dekel = {A::dekel};
  model::MatmulOptions o;
  o.algorithm = A::dekel;
  EXPECT_EQ(model::matmul_time(c, {256, 64, 64}, o)->communication, from_us(6410));
  o.grid = {3, 1};
  EXPECT_EQ(model::matmul_time(c, {256, 64, 64}, o)->communication, from_us(4106));
  const auto tall = model::best_matmul(c, {256, 64, 64}, dekel);
  EXPECT_EQ(tall.options.grid, (model::Grid{4, 0}));
  EXPECT_EQ(tall.time.communication, from_us(3855));
  // R > P: the mirror image, a wide grid.
  EXPECT_EQ(model::best_matmul(c, {64, 64, 256}, dekel).options.grid, (model::Grid{0, 4}));
  // The aligned SBT: 4 × 4 6408 µs, 8 × 2 1282 + (257 + 513) + (1025 + 1025) = 4102, 16 × 1 257 + 513 + 1025 + 2049 =
  // 3844 µs.
  const std::array sbt = {A::sbt_aligned};
  o.algorithm = A::sbt_aligned;
  EXPECT_EQ(model::matmul_time(c, {256, 64, 64}, o)->communication, from_us(4102));
  EXPECT_EQ(model::best_matmul(c, {256, 64, 64}, sbt).time.communication, from_us(3844));
  // Cannon's: 6410 µs on 4 × 4 as Dekel's. On 16 × 1 C's block (16 × 64) is 16 virtual columns that turn in place;
  // D's (4 × 64) 16 column sub-blocks of 16 elements, sub-block i going i rows up (i <= 8) or 16 - i down: up steps
  // of 8, 7, ..., 1 sub-blocks, down steps of 7, ..., 1, 64·16 elements in 15 start-ups, 1039 µs; then 15 steps of
  // D (257 µs): 4894 µs, the best, and 1 × 16 for R = 4P.
  const std::array cannon = {A::cannon};
  o.algorithm = A::cannon;
  o.grid = {};
  EXPECT_EQ(model::matmul_time(c, {256, 64, 64}, o)->communication, from_us(6410));
  const auto cannon_best = model::best_matmul(c, {256, 64, 64}, cannon);
  EXPECT_EQ(cannon_best.options.grid, (model::Grid{4, 0}));
  EXPECT_EQ(cannon_best.time.communication, from_us(1039 + 15 * 257));
  EXPECT_EQ(model::best_matmul(c, {64, 64, 256}, cannon).options.grid, (model::Grid{0, 4}));
  // Every grid is tried where max(N1, N2) divides Q (P and R are padded): all 5 of a 4-cube for Q = 64, only the
  // square one and 8 × 2, 2 × 8 for Q = 24 (8 | 24, 16 does not); on an odd cube the rectangular ones alone.
  EXPECT_EQ(model::plan_matmul(c, {256, 64, 64}, dekel).size(), 5u);
  EXPECT_EQ(model::plan_matmul(c, {5, 24, 7}, dekel).size(), 3u);
  EXPECT_EQ(model::plan_matmul(figure_machine(3, 1), {5, 8, 7}, sbt).size(), 4u);
  EXPECT_EQ(model::plan_matmul(figure_machine(3, 1), {5, 6, 7}, sbt).size(), 0u);
  // Cannon's needs P and R to divide too: on a 4-cube with Q = 64 and P = 24, only the square grid and 8 × 2, 2 × 8.
  EXPECT_EQ(model::plan_matmul(c, {24, 64, 64}, cannon).size(), 3u);
}

TEST(MatmulPlanner, ConsidersOnlyAlgorithmsWithAClosedFormOnTheMachine) {
  MachineConfig one = figure_machine(4, 1);
  for (const auto& p : model::plan_matmul(one, {64, 64, 64}))
    EXPECT_NE(model::matmul_algorithm_info(p.options.algorithm).ports, "all") << model::matmul_algorithm_info(p.options.algorithm).name;
  MachineConfig all = one;
  all.ports = Ports::parse("all");
  const auto plans = model::plan_matmul(all, {64, 64, 64});
  EXPECT_TRUE(std::any_of(plans.begin(), plans.end(), [](const model::PlannedMatmul& p) {
    return p.options.algorithm == A::a1_2d_sbnt;
  }));
  const std::array none = {A::a1_sbnt};  // an n-port algorithm: no closed form on a one-port machine
  EXPECT_THROW(model::best_matmul(one, {64, 64, 64}, none), UsageError);
}

TEST(MatmulPlanner, RowsOrColumnsByTheShape) {
  // §5.1: "column partitioning should be used for P <= R": for A1, which broadcasts C by columns (P⌈Q/N⌉ a node)
  // and D by rows (⌈Q/N⌉R). A3 and A4 move D's and C's blocks the other way round (A3 by columns broadcasts D,
  // ⌈R/N⌉Q a node; A4 by columns transposes D's ⌈Q/N⌉⌈R/N⌉ blocks), so for them the rows win at P < R.
  const MachineConfig c = figure_machine(4, 1);
  for (auto [columns, rows, columns_at_small_p] :
       {std::tuple{A::a1_sbt, A::a1_rows, true}, {A::a3, A::a3_rows, false}, {A::a4, A::a4_rows, false}}) {
    const std::array candidates{columns, rows};
    EXPECT_EQ(model::best_matmul(c, {32, 64, 512}, candidates).options.algorithm, columns_at_small_p ? columns : rows);
    EXPECT_EQ(model::best_matmul(c, {512, 64, 32}, candidates).options.algorithm, columns_at_small_p ? rows : columns);
  }
}

TEST(MatmulPlanner, CannonCompetesOnEveryGridThatTakesTheShape) {
  // Cannon's algorithm (§5.2.1) on the square grid and, on the virtual Nmax × Nmax torus, on every rectangular one
  // whose max(N1, N2) divides P, Q and R: all 5 grids of a 4-cube and the 4 of a 3-cube for m = 64; for m = 6 only
  // the square grid of a 4-cube (4 does not divide 6), none on a 3-cube.
  const std::array candidates{A::cannon};
  EXPECT_EQ(model::plan_matmul(figure_machine(4, 1), {64, 64, 64}, candidates).size(), 5u);
  EXPECT_EQ(model::plan_matmul(figure_machine(3, 1), {64, 64, 64}, candidates).size(), 4u);
  EXPECT_EQ(model::plan_matmul(figure_machine(4, 1), {6, 6, 6}, candidates).size(), 1u);
  EXPECT_TRUE(model::plan_matmul(figure_machine(3, 1), {6, 6, 6}, candidates).empty());
}

}  // namespace
}  // namespace hcemu
