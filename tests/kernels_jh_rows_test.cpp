// The rows of the `hcemu` command for Johnsson & Ho's (1987) primitives (broadcast, allgather and exchange rows; the
// reduce family) and matrix multiplications (the matmul family): every row, run through its family's harness on
// random data, verifies, and where its closed form holds the emulated makespan equals it to the picosecond. The
// kernels themselves are checked in kernels_jh_primitives_test, kernels_reduction_test and kernels_matmul_test;
// here it is what the rows add: the harness's data and verification, the parameters resolved (the paper's optimal
// chunk, the best grid and k), the port models a row claims, and the errors for shapes an algorithm cannot take.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <tuple>
#include <vector>

#include "harness/algorithm.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/model/collectives.hpp"
#include "hcemu/model/matmul.hpp"
#include "hcemu/model/matmul_planner.hpp"
#include "hcemu/model/paper_tables.hpp"
#include "hcemu/model/primitives.hpp"
#include "kernel_machines.hpp"

namespace hcemu {
namespace {

using harness::KernelCase;
using harness::KernelFamily;
using harness::KernelResult;

MachineConfig machine(int d, const char* ports) {
  MachineConfig c = test::ipsc_like();
  c.d = d;
  c.ports = Ports::parse(ports);
  c.flop = 0.05;
  return c;
}

// Runs one case and checks what every row promises: the data verified, the prediction as the closed form says
// (present exactly where the row claims the port model, and equal to the makespan), and predict() without a run.
KernelResult check_row(const KernelFamily& family, const MachineConfig& config, const KernelCase& c,
                       bool closed_form = true) {
  const harness::Algorithm& row = family.algorithm(c.algo);
  const KernelResult r = family.run(config, {}, c);
  EXPECT_TRUE(r.verified) << r.verify_message;
  EXPECT_EQ(r.report.contention_events(), 0u);
  if (closed_form && row.suits(config.ports)) {
    EXPECT_TRUE(r.predicted.has_value()) << "no closed form";
    if (r.predicted) {
      EXPECT_EQ(r.report.makespan, *r.predicted) << to_us(r.report.makespan) << " µs emulated";
    }
  } else {
    EXPECT_FALSE(r.predicted.has_value()) << "a closed form where the model has none";
  }
  EXPECT_EQ(family.predict(config, r.run_case), r.predicted);
  return r;
}

// ----- The primitives' rows ------------------------------------------------------------------------------------------

using PrimitiveRow = std::tuple<std::string, std::string>;  // family, row

class JohnssonHoPrimitiveRows : public ::testing::TestWithParam<PrimitiveRow> {};

TEST_P(JohnssonHoPrimitiveRows, VerifyAndTakeTheirClosedFormWhereTheirPortModelIs) {
  const auto& [family_name, algo] = GetParam();
  const KernelFamily& family = harness::find_family(family_name);
  for (int d : {0, 1, 3, 4})
    for (const char* ports : {"one", "all"}) {
      SCOPED_TRACE("d = " + std::to_string(d) + ", ports " + ports);
      KernelCase c;
      c.algo = algo;
      c.m = family_name == "reduce" ? 13 : 101;  // m does not divide into d parts or chunks evenly
      c.root = (5 % (1 << d));
      c.seed = 11;
      check_row(family, machine(d, ports), c, algo != "rotated-cra");
    }
}

INSTANTIATE_TEST_SUITE_P(Rows, JohnssonHoPrimitiveRows,
                         ::testing::Values(PrimitiveRow{"broadcast", "gray-code"},
                                           PrimitiveRow{"broadcast", "rotated-gray-code"},
                                           PrimitiveRow{"broadcast", "pipelined-sbt"},
                                           PrimitiveRow{"broadcast", "sbnt"}, PrimitiveRow{"broadcast", "nrsbt"},
                                           PrimitiveRow{"broadcast", "two-rooted-cbt"},
                                           PrimitiveRow{"broadcast", "nrsbt-one-port"},
                                           PrimitiveRow{"allgather", "cra"}, PrimitiveRow{"allgather", "rotated-cra"},
                                           PrimitiveRow{"allgather", "gcea"}, PrimitiveRow{"allgather", "rotated-gcea"},
                                           PrimitiveRow{"allgather", "sbnt"}, PrimitiveRow{"allgather", "nrsbt"},
                                           PrimitiveRow{"allgather", "pipelined-sbt"},
                                           PrimitiveRow{"allgather", "sbnt-one-port"},
                                           PrimitiveRow{"allgather", "nrsbt-one-port"},
                                           PrimitiveRow{"scatter", "pipelined-sbt"}, PrimitiveRow{"scatter", "sbnt"},
                                           PrimitiveRow{"scatter", "nrsbt"},
                                           PrimitiveRow{"exchange", "sbnt"}, PrimitiveRow{"exchange", "nrsbt"},
                                           PrimitiveRow{"reduce", "sbt"},
                                           PrimitiveRow{"reduce", "recursive-halving"}, PrimitiveRow{"reduce", "sbnt"}),
                         [](const ::testing::TestParamInfo<PrimitiveRow>& row) {
                           std::string name = std::get<0>(row.param) + "_" + std::get<1>(row.param);
                           for (char& ch : name)
                             if (ch == '-') ch = '_';
                           return name;
                         });

TEST(JohnssonHoPrimitiveRows, GrayCodeChunkGivesTableOnesTime) {
  // Johnsson & Ho Table 1, GC(1,1) with B | M: (M + (N - 2)B) t_c + (⌈M/B⌉ + N - 2) τ. N = 8, M = 24 bytes, B = 8,
  // t_c = 0.5 µs per byte, start-up 10 µs: (24 + 48)·0.5 + (3 + 6)·10 = 126 µs.
  MachineConfig config = test::link_bound_machine(10, 0.5);
  config.d = 3;
  KernelCase c;
  c.algo = "gray-code";
  c.m = 24;
  c.root = 6;
  c.params.set("chunk", 8);
  const KernelResult r = check_row(harness::find_family("broadcast"), config, c);
  EXPECT_EQ(r.run_case.params.number("chunk"), 8u);
  EXPECT_EQ(r.report.makespan, from_us(126));
}

TEST(JohnssonHoPrimitiveRows, ZeroChunkRunsThePapersOptimalChunk) {
  // B_opt = sqrt(Mτ/(h t_c)) for a pipeline of h + 1 levels: h = N - 2 for the Gray-code path, n - 1 for the trees.
  MachineConfig config = machine(4, "all");
  const KernelFamily& family = harness::find_family("broadcast");
  for (const auto& [algo, h] : {std::pair{"gray-code", 14}, {"pipelined-sbt", 3}, {"sbnt", 3}, {"two-rooted-cbt", 3}}) {
    SCOPED_TRACE(algo);
    KernelCase c;
    c.algo = algo;
    c.m = 5000;
    const KernelResult r = check_row(family, config, c);
    EXPECT_EQ(r.run_case.params.number("chunk"), model::optimal_pipeline_chunk(config, 5000, h));
    EXPECT_GT(r.run_case.params.number("chunk"), 0u);
  }
}

TEST(JohnssonHoPrimitiveRows, NrsbtIsTheSameKernelAsBroadcastTwoAndCompleteBroadcast) {
  // §4.1.4 and §4.2.3: the n rotated spanning binomial trees are Stout & Wagar's BROADCAST 2 and COMPLETE BROADCAST.
  const MachineConfig config = machine(4, "all");
  for (const auto& [family_name, other] : {std::pair{"broadcast", "bcast2"}, {"allgather", "completed"}}) {
    SCOPED_TRACE(family_name);
    const KernelFamily& family = harness::find_family(family_name);
    KernelCase a, b;
    a.algo = "nrsbt";
    b.algo = other;
    a.m = b.m = 333;
    const KernelResult ra = check_row(family, config, a), rb = check_row(family, config, b);
    EXPECT_EQ(ra.report.makespan, rb.report.makespan);
    EXPECT_EQ(ra.report.messages(), rb.report.messages());
  }
}

TEST(JohnssonHoPrimitiveRows, SbntRowsCarryTheirTablesBalancedFigureBesideTheExactOne) {
  // Tables 2-4 count perfectly balanced subtrees; the rows predict the exact tree and report the table's figure.
  const MachineConfig config = machine(5, "all");
  for (const auto& [family_name, algo, table] :
       {std::tuple{"allgather", "sbnt", model::sbnt_balanced_table_time(config, 64)},
        {"scatter", "sbnt", model::sbnt_balanced_table_time(config, 64)},
        {"exchange", "sbnt", model::sbnt_exchange_table_time(config, 64)}}) {
    SCOPED_TRACE(std::string(family_name) + " " + algo);
    KernelCase c;
    c.algo = algo;
    c.m = 64;
    const KernelResult r = check_row(harness::find_family(family_name), config, c);
    ASSERT_TRUE(r.paper_table.has_value());
    EXPECT_EQ(r.paper_table, table);
    EXPECT_GT(*r.predicted, *r.paper_table);  // the busiest port of the exact tree carries more than C(n,s)/n
  }
  KernelCase c;
  c.algo = "gcea";
  EXPECT_FALSE(check_row(harness::find_family("allgather"), config, c).paper_table.has_value());
}

TEST(JohnssonHoPrimitiveRows, ScatterNrsbtMeetsTableThreesFigureThatSbntOnlyApproaches) {
  // Table 3 prints one row for SBnT-p(n,1) and nRSBT-p(n,1); the rotated trees divide the data evenly, the SBnT the
  // nodes unevenly. n = 5 and M = 64 bytes with 5 ∤ 64: the first four parts are 13 bytes, the last 12, so the exact
  // time is above the table's by what the longer parts add; with M = 65 it is the table's to the picosecond.
  MachineConfig config = machine(5, "all");
  config.rho = 0;
  const KernelFamily& family = harness::find_family("scatter");
  for (std::size_t m : {std::size_t{64}, std::size_t{65}}) {
    SCOPED_TRACE("m = " + std::to_string(m));
    KernelCase c;
    c.algo = "nrsbt";
    c.m = m;
    const KernelResult r = check_row(family, config, c);
    ASSERT_TRUE(r.paper_table.has_value());
    EXPECT_EQ(r.paper_table, model::sbnt_balanced_table_time(config, m));
    if (m % 5 == 0)
      EXPECT_EQ(*r.predicted, *r.paper_table);
    else
      EXPECT_GT(*r.predicted, *r.paper_table);
    c.algo = "sbnt";
    EXPECT_GT(*check_row(family, config, c).predicted, *r.predicted);
  }
}

TEST(MatmulRows, TheNPortTwoDimensionalA1CarriesTableElevensMaxOfRowAndColumn) {
  // Table 11 A1(n): the balanced row and column broadcasts taken as independent, max(row, column) plus arithmetic,
  // beside the exact time of the grid the row resolved; the one-port A1 2-D has no such figure.
  const KernelFamily& family = harness::find_family("matmul");
  const MachineConfig config = machine(4, "all");
  KernelCase c;
  c.algo = "a1-2d-sbnt";
  c.m = 16;
  const KernelResult r = check_row(family, config, c);
  model::MatmulOptions o;
  o.algorithm = model::MatmulAlgorithm::a1_2d_sbnt;
  o.element_bytes = config.element;
  const auto& grid = r.run_case.params.parts("grid");
  o.grid = {grid.at(0), grid.at(1)};
  ASSERT_TRUE(r.paper_table.has_value());
  EXPECT_EQ(r.paper_table, model::a1_n_port_table_time(config, {16, 16, 16}, o));
  EXPECT_GT(*r.predicted, *r.paper_table);
  c.algo = "a1-2d";
  EXPECT_FALSE(check_row(family, config, c).paper_table.has_value());
}

TEST(JohnssonHoPrimitiveRows, OnlyThePortModelsARowIsMadeForRunUnderAlgoAll) {
  const KernelFamily& family = harness::find_family("allgather");
  KernelCase base;
  base.m = 8;
  std::vector<std::string> one, all;
  for (const KernelCase& c : family.expand_all(machine(3, "one"), base)) one.push_back(c.algo);
  for (const KernelCase& c : family.expand_all(machine(3, "all"), base)) all.push_back(c.algo);
  EXPECT_EQ(one, (std::vector<std::string>{"recursive-doubling", "cra", "gcea", "sbnt-one-port", "nrsbt-one-port"}));
  EXPECT_EQ(all, (std::vector<std::string>{"recursive-doubling", "completed", "cra", "rotated-cra", "gcea",
                                           "rotated-gcea", "sbnt", "nrsbt", "pipelined-sbt", "sbnt-one-port",
                                           "nrsbt-one-port"}));
}

TEST(ReduceRows, OneToAllReductionPaysDStepsOfAMessageAndACombine) {
  // §4.5: the reverse of the SBT broadcast, d·(T(8b) + t_a·b), here hand-worked on a store-and-forward machine:
  // b = 100 doubles, start-up 10 µs, 0.01 µs per byte, t_a = 0.05 µs: 3·(10 + 8 + 5) = 69 µs.
  MachineConfig config = test::link_bound_machine(10, 0.01);
  config.d = 3;
  config.flop = 0.05;
  KernelCase c;
  c.algo = "sbt";
  c.m = 100;
  c.root = 3;
  const KernelResult r = check_row(harness::find_family("reduce"), config, c);
  EXPECT_EQ(r.report.makespan, from_us(69));
}

TEST(ReduceRows, ARootOutsideTheCubeIsAUsageError) {
  KernelCase c;
  c.algo = "sbt";
  c.root = 8;
  EXPECT_THROW(harness::find_family("reduce").run(machine(3, "one"), {}, c), UsageError);
}

// ----- The matrix multiplications' rows ------------------------------------------------------------------------------

class MatmulRows : public ::testing::TestWithParam<std::string> {};

// Every row on one-port and all-port machines, on shapes that do and do not divide evenly into the blocks: the
// product of random doubles as the serial one, the makespan as matmul_time where it has one.
TEST_P(MatmulRows, ComputeTheProductInTheirClosedFormTime) {
  const std::string& algo = GetParam();
  const KernelFamily& family = harness::find_family("matmul");
  const auto a = *model::parse_matmul_algorithm(algo);
  const bool square = model::matmul_algorithm_info(a).two_dimensional && a != model::MatmulAlgorithm::a1_2d &&
                      a != model::MatmulAlgorithm::a1_2d_sbnt;
  for (int d : {0, 2, 3})
    for (const char* ports : {"one", "all"})
      for (const auto& [P, Q, R] : {std::array<std::uint64_t, 3>{8, 8, 8}, {5, 7, 3}, {13, 2, 9}}) {
        if (square && d % 2 != 0) continue;
        SCOPED_TRACE("d = " + std::to_string(d) + ", ports " + ports + ", P Q R = " + std::to_string(P) + " " +
                     std::to_string(Q) + " " + std::to_string(R));
        KernelCase c;
        c.algo = algo;
        c.params.set("P", P);
        c.params.set("Q", Q);
        c.params.set("R", R);
        c.seed = 5;
        check_row(family, machine(d, ports), c, true);
      }
}

std::vector<std::string> matmul_names() {
  std::vector<std::string> names;
  for (const auto& info : model::matmul_algorithms()) names.emplace_back(info.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Rows, MatmulRows, ::testing::ValuesIn(matmul_names()),
                         [](const ::testing::TestParamInfo<std::string>& row) {
                           std::string name = row.param;
                           for (char& ch : name)
                             if (ch == '-') ch = '_';
                           return name;
                         });

TEST(MatmulRows, OneRowPerAlgorithmNamedAsTheModelSpellsIt) {
  EXPECT_EQ(harness::find_family("matmul").algorithm_names(), matmul_names());
}

TEST(MatmulRows, MIsTheSideOfSquareMatricesUnlessPQOrRSayOtherwise) {
  const KernelFamily& family = harness::find_family("matmul");
  const MachineConfig config = machine(2, "one");
  KernelCase c;
  c.algo = "a1-sbt";
  c.m = 6;
  c.params.set("R", 10);
  const KernelResult r = check_row(family, config, c);
  model::MatmulOptions o;
  o.algorithm = model::MatmulAlgorithm::a1_sbt;
  EXPECT_EQ(r.predicted, model::matmul_time(config, {6, 6, 10}, o)->total());
}

TEST(MatmulRows, WithoutAGridA1TwoDimensionalRunsTheGridThePlannerFindsFastest) {
  // Table 12: the best grid follows the matrices' aspect ratio; the row asks the planner for it.
  const KernelFamily& family = harness::find_family("matmul");
  const MachineConfig config = machine(4, "one");
  KernelCase c;
  c.algo = "a1-2d";
  c.params.set("P", 64);
  c.params.set("Q", 4);
  c.params.set("R", 4);
  const KernelResult r = check_row(family, config, c);
  const std::array candidates{model::MatmulAlgorithm::a1_2d};
  const model::Grid best = model::best_matmul(config, {64, 4, 4}, candidates).options.grid;
  EXPECT_EQ(r.run_case.params.parts("grid"), (std::vector<int>{best.n1, best.n2}));
  c.params.set("grid", std::vector<int>{0, 4});
  EXPECT_EQ(check_row(family, config, c).run_case.params.parts("grid"), (std::vector<int>{0, 4}));
}

TEST(MatmulRows, WithoutKTheHybridRunsTheBestNumberOfSbtSteps) {
  const KernelFamily& family = harness::find_family("matmul");
  MachineConfig config = machine(5, "one");
  config.packet = 1024;
  KernelCase c;
  c.algo = "a1-hybrid";
  c.m = 32;
  const KernelResult r = check_row(family, config, c);
  const int k = static_cast<int>(r.run_case.params.number("k"));
  ASSERT_GE(k, 1);
  for (int other = 1; other <= 5; ++other) {
    KernelCase given = c;
    given.params.set("k", static_cast<std::uint64_t>(other));
    EXPECT_LE(*r.predicted, *family.predict(config, given)) << "k = " << other;
  }
}

TEST(MatmulRows, ShapesAnAlgorithmCannotTakeAreUsageErrorsNamingWhatIsAllowed) {
  const KernelFamily& family = harness::find_family("matmul");
  const auto message = [&](const MachineConfig& config, KernelCase c) -> std::string {
    try {
      family.run(config, {}, c);
    } catch (const UsageError& e) {
      return e.what();
    }
    return "no error";
  };
  KernelCase c;
  c.algo = "a3";
  c.m = 0;
  EXPECT_NE(message(machine(2, "one"), c).find("P, Q, R >= 1"), std::string::npos) << message(machine(2, "one"), c);
  c.algo = "a2-2d";
  c.m = 6;  // no square grid on a 3-cube, and max(N1, N2) = 4 does not divide 6
  EXPECT_NE(message(machine(3, "one"), c).find("even d, a rectangular one P, Q and R multiples of max(N1, N2)"),
            std::string::npos);
  c.algo = "a2-2d-sbnt";
  EXPECT_NE(message(machine(3, "all"), c).find("even d"), std::string::npos);
  c.algo = "a2-2d";
  c.algo = "a1-2d";
  c.params.set("grid", std::vector<int>{1, 1});
  EXPECT_NE(message(machine(3, "one"), c).find("n1 + n2 must equal d"), std::string::npos);
  c.params.set("grid", std::vector<int>{1, 1, 1});
  EXPECT_NE(message(machine(3, "one"), c).find("two numbers n1,n2"), std::string::npos);
  c = {};
  c.algo = "a1-hybrid";
  c.m = 4;
  c.params.set("k", 4);
  EXPECT_NE(message(machine(3, "one"), c).find("must be in 0..3"), std::string::npos);
}

TEST(MatmulRows, AlgoAllLeavesOutTheSquareGridOnesOnAnOddCubeAndTheNPortOnesOnOnePort) {
  // On a 3-cube the one-port A2-A5, A3 version 2 and Cannon's run on a rectangular grid where max(N1, N2) = 4
  // divides P, Q, R (m = 4), Dekel's and the aligned SBT where it divides Q, not otherwise (m = 6); the outer
  // product and the n-port A2-A5 need the square grid.
  const KernelFamily& family = harness::find_family("matmul");
  KernelCase base;
  base.m = 6;
  std::vector<std::string> one;
  for (const KernelCase& c : family.expand_all(machine(3, "one"), base)) one.push_back(c.algo);
  EXPECT_EQ(one, (std::vector<std::string>{"a1-cra", "a1-gcea", "a1-sbt", "a1-hybrid", "a3", "a4", "a1-rows", "a3-rows",
                                           "a4-rows", "a1-2d"}));
  base.m = 4;
  one.clear();
  for (const KernelCase& c : family.expand_all(machine(3, "one"), base)) one.push_back(c.algo);
  EXPECT_EQ(one, (std::vector<std::string>{"a1-cra", "a1-gcea", "a1-sbt", "a1-hybrid", "a3", "a4", "a1-rows", "a3-rows",
                                           "a4-rows", "a1-2d", "a2-2d", "a3-2d", "a3-2d-v2", "a4-2d", "a5-2d",
                                           "cannon", "dekel", "sbt-aligned"}));
  EXPECT_EQ(family.expand_all(machine(2, "all"), base).size(), model::matmul_algorithms().size());
}

}  // namespace
}  // namespace hcemu
