// `hcemu run matmul`, `sweep matmul` and `plan matmul` end to end, and the rows of Johnsson & Ho's primitives from
// the command line: the built binary is run, its JSON parsed and checked against the closed forms (src/model), on
// both engines, and bad shapes give the intended error and exit code.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "cli/config_loader.hpp"
#include "hcemu/model/matmul.hpp"
#include "hcemu/model/matmul_planner.hpp"

#include "run_hcemu.hpp"

namespace hcemu::cli {
namespace {

using test::hcemu;
using test::Result;
using test::payload_of;
using test::run_of;
using test::runs_of;

model::MatmulOptions options(model::MatmulAlgorithm a) {
  model::MatmulOptions o;
  o.algorithm = a;
  return o;
}

TEST(RunMatmul, OneAlgorithmOnAShapeThatDoesNotDivideIsTheSerialProductInItsClosedFormTime) {
  for (const char* engine : {"tasks", "os_threads"}) {
    SCOPED_TRACE(engine);
    auto j = run_of(hcemu(std::string("run matmul --algo a4 --P 10 --Q 7 --R 5 --json --engine ") + engine));
    EXPECT_EQ(j["kernel"], "matmul");
    EXPECT_EQ(j["algo"], "a4");
    EXPECT_TRUE(j["verified"].get<bool>());
    EXPECT_EQ(j["params"]["P"], 10);
    EXPECT_EQ(j["params"]["Q"], 7);
    EXPECT_EQ(j["params"]["R"], 5);
    const MachineConfig c = load_config("ipsc860");  // the default machine, d = 5
    const auto t = model::matmul_time(c, {10, 7, 5}, options(model::MatmulAlgorithm::a4));
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(j["predicted_ps"].get<Time>(), t->total());
    EXPECT_EQ(j["emulated_ps"].get<Time>(), t->total());
  }
}

TEST(RunMatmul, AlgoAllRunsEveryRowOnAnAllPortSquareGridAndMarksTheFastest) {
  auto j = runs_of(hcemu("run matmul -d 2 -m 6 --ports all --json"));
  ASSERT_TRUE(j.is_array());
  std::set<std::string> algos;
  int optimal = 0;
  Time best = kNever;
  std::string best_algo, marked;
  for (const auto& o : j) {
    algos.insert(o["algo"].get<std::string>());
    EXPECT_TRUE(o["verified"].get<bool>()) << o["algo"];
    if (o["optimal"].get<bool>()) ++optimal, marked = o["algo"].get<std::string>();
    ASSERT_FALSE(o["predicted_ps"].is_null()) << o["algo"];  // every row has a closed form on all-port
    EXPECT_EQ(o["predicted_ps"].get<Time>(), o["emulated_ps"].get<Time>()) << o["algo"];
    if (o["predicted_ps"].get<Time>() < best) best = o["predicted_ps"].get<Time>(), best_algo = o["algo"];
  }
  EXPECT_EQ(algos.size(), model::matmul_algorithms().size());
  EXPECT_EQ(optimal, 1);
  EXPECT_EQ(marked, best_algo);
  // The table form names the rows too.
  auto table = hcemu("run matmul -d 2 -m 6 --ports all");
  EXPECT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("a1-2d grid=("), std::string::npos);
  EXPECT_NE(table.out.find("* optimal by the model"), std::string::npos);
}

TEST(RunMatmul, OuterProductPrintsThePapersStepsBesideItsChain) {
  // docs/kernels/matmul.md: the exact time of the MIMD chain, and §5.2.1's 2√N + 1 SIMD steps as the table figure.
  for (const char* engine : {"tasks", "os_threads"}) {
    auto j = run_of(hcemu(std::string("run matmul --algo outer-product -d 4 -m 16 --json --engine ") + engine));
    EXPECT_TRUE(j["verified"].get<bool>());
    MachineConfig c = load_config("ipsc860");
    c.d = 4;
    c.delta_msg = 5.15 * 4;  // the preset's delta_msg_per_d, resolved for this d
    model::MatmulOptions o = options(model::MatmulAlgorithm::outer_product);
    const auto t = model::matmul_time(c, {16, 16, 16}, o);
    const auto steps = model::outer_product_step_time(c, {16, 16, 16}, o);
    ASSERT_TRUE(t && steps);
    EXPECT_EQ(j["predicted_ps"].get<Time>(), t->total());
    EXPECT_EQ(j["emulated_ps"].get<Time>(), t->total());
    EXPECT_EQ(j["paper_table_ps"].get<Time>(), *steps);
  }
}

TEST(RunMatmul, OuterProductRunsKProductsEachCheckedAgainstTheSerialOne) {
  // --products K: K multiplications through the same wave fronts (§5.2.1); half duplex has a sum, one-port the
  // schedule's longest chain (docs/kernels/matmul.md), both the exact time, and both print the paper's
  // (K + 1)√N + 1 steps.
  for (const char* engine : {"tasks", "os_threads"}) {
    auto half = run_of(hcemu(std::string("run matmul --algo outer-product --products 3 -d 4 -m 12 --ports half --json "
                                         "--engine ") + engine));
    EXPECT_TRUE(half["verified"].get<bool>());
    EXPECT_EQ(half["params"]["products"], 3);
    EXPECT_EQ(half["predicted_ps"], half["emulated_ps"]);
    MachineConfig c = load_config("ipsc860");
    c.d = 4;
    c.delta_msg = 5.15 * 4;  // the preset's delta_msg_per_d, resolved for this d
    c.ports = Ports::parse("half");
    model::MatmulOptions o = options(model::MatmulAlgorithm::outer_product);
    o.products = 3;
    EXPECT_EQ(half["paper_table_ps"].get<Time>(), *model::outer_product_step_time(c, {12, 12, 12}, o));
    auto one = run_of(hcemu(std::string("run matmul --algo outer-product --products 3 -d 4 -m 12 --json --engine ") +
                            engine));
    EXPECT_TRUE(one["verified"].get<bool>());
    EXPECT_EQ(one["predicted_ps"], one["emulated_ps"]);
  }
  auto wrong = hcemu("run matmul --algo a1-sbt --products 2 -d 2 -m 8");
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_NE(wrong.err.find("--products"), std::string::npos) << wrong.err;
}

TEST(RunMatmul, GridAndKAreFlagsOfTheirRows) {
  auto grid = run_of(hcemu("run matmul --algo a1-2d --grid 0,3 -d 3 -m 9 --json"));
  EXPECT_EQ(grid["params"]["grid"].get<std::vector<int>>(), (std::vector<int>{0, 3}));
  EXPECT_TRUE(grid["verified"].get<bool>());
  EXPECT_EQ(grid["predicted_ps"], grid["emulated_ps"]);
  auto hybrid = run_of(hcemu("run matmul --algo a1-hybrid --k 2 -d 3 -m 9 --json"));
  EXPECT_EQ(hybrid["params"]["k"], 2);
  EXPECT_EQ(hybrid["predicted_ps"], hybrid["emulated_ps"]);
}

TEST(RunMatmul, ShapesTheAlgorithmsCannotTakeAreUsageErrors) {
  struct Bad {
    std::string arguments, message;
  };
  for (const Bad& bad : {
           Bad{"run matmul --algo a1-2d --grid 1,1 -d 3", "n1 + n2 must equal d"},
           Bad{"run matmul --algo a1-2d --grid 1,x -d 3", "--grid 1,x: expected integers >= 0"},
           Bad{"run matmul --algo a2-2d-sbnt -d 3 --ports all", "needs a square processor grid, an even d"},
           Bad{"run matmul --algo a2-2d -d 3 -m 6", "a rectangular one P, Q and R multiples of max(N1, N2)"},
           Bad{"run matmul --algo a4-2d --grid 1,2 -d 3 -m 6", "multiples of max(N1, N2) = 4"},
           Bad{"run matmul --algo dekel --grid 1,2 -d 3 -m 6", "Q a multiple of max(N1, N2) = 4"},
           Bad{"run matmul --algo sbt-aligned -d 3 -m 6", "a rectangular one Q a multiple of max(N1, N2)"},
           Bad{"run matmul --algo cannon --grid 1,2 -d 3 -m 6", "P, Q and R multiples of max(N1, N2) = 4"},
           Bad{"run matmul --algo a2-2d-sbnt --grid 1,2 -d 3 --ports all", "takes no --grid"},
           Bad{"run matmul --algo a1-sbt --grid 1,2 -d 3", "takes no --grid"},
           Bad{"run matmul --algo a1-hybrid --k 4 -d 3", "must be in 0..3"},
           Bad{"run matmul --algo a3 -m 0 -d 2", "P, Q, R >= 1"},
           Bad{"run exchange --grid 1,2", "takes no --grid"},
       }) {
    SCOPED_TRACE(bad.arguments);
    auto r = hcemu(bad.arguments);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(bad.message), std::string::npos) << r.err;
  }
}

TEST(RunMatmul, IpscYaleSbtBasedMultiplicationBeatsGceaBased) {
  // Johnsson & Ho (1987) §5.1, Figure 9: P = Q = R = 32 on the Yale iPSC's 5-cube, the SBT-based multiplication
  // below the GCEA-based one (tests/kernels_matmul_ipsc_test.cpp checks the findings of Figures 9 and 10 in full).
  auto j = runs_of(hcemu("run matmul --config ipsc-yale -m 32 --algo all --json"));
  Time sbt = 0, gcea = 0;
  for (const auto& o : j) {
    EXPECT_TRUE(o["verified"].get<bool>()) << o["algo"];
    EXPECT_EQ(o["d"], 5);
    if (o["algo"] == "a1-sbt") sbt = o["emulated_ps"].get<Time>();
    if (o["algo"] == "a1-gcea") gcea = o["emulated_ps"].get<Time>();
  }
  ASSERT_GT(sbt, 0);
  EXPECT_LT(sbt, gcea);
}

TEST(RunMatmul, IpscYaleHybridTimeFallsUpToThreeSbtSteps) {
  // Figure 10 in the paper's units: the preset's element is the 4-byte float, so a block column of P = 32 floats
  // is 128 bytes and 2^3 of them fill the 1 KB packet: the time falls up to k = 3 and stays there. In doubles
  // (--element double) the same block is 256 bytes and the time stops falling after k = 2.
  auto hybrid = [](int k, const std::string& element) {
    const auto o = run_of(hcemu("run matmul --config ipsc-yale -m 32 --algo a1-hybrid --json --k " + std::to_string(k) +
                                element));
    EXPECT_TRUE(o["verified"].get<bool>());
    EXPECT_EQ(o["predicted_ps"], o["emulated_ps"]);
    EXPECT_EQ(o["params"]["element"], element.empty() ? "float" : "double") << o.dump();
    return o["emulated_ps"].get<Time>();
  };
  std::vector<Time> floats, doubles;
  for (int k = 1; k <= 4; ++k) {
    floats.push_back(hybrid(k, ""));
    doubles.push_back(hybrid(k, " --element double"));
  }
  EXPECT_LT(floats[1], floats[0]);
  EXPECT_LT(floats[2], floats[1]);
  EXPECT_EQ(floats[3], floats[2]);
  EXPECT_LT(doubles[1], doubles[0]);
  EXPECT_EQ(doubles[2], doubles[1]);
}

TEST(RunMatmul, TableColumnOfTheNPortAlgorithmsTwoToFive) {
  // Table 11's A2(n)-A5(n) figures (model_johnsson_ho_tables_test derives them from the formulas: 109, 230, 253, 230
  // µs on this machine and shape) beside the exact schedules, which the emulator meets on both engines.
  const std::string machine = "--config linkbound --ports all -d 4 --set tau=0.125 --set lambda=3 --set flop=0 "
                              "--set rho=0 --set compute_overhead=0 --P 8 --Q 32 --R 32 --json";
  for (const auto& [algo, table] : {std::pair{"a2-2d-sbnt", 109.0}, {"a3-2d-sbnt", 230.0}, {"a4-2d-sbnt", 253.0},
                                    {"a5-2d-sbnt", 230.0}})
    for (const char* engine : {"tasks", "os_threads"}) {
      SCOPED_TRACE(std::string(algo) + " " + engine);
      const auto o = run_of(hcemu("run matmul --algo " + std::string(algo) + " " + machine + " --engine " + engine));
      EXPECT_TRUE(o["verified"].get<bool>());
      EXPECT_EQ(o["predicted_ps"], o["emulated_ps"]);
      EXPECT_DOUBLE_EQ(o["paper_table_us"].get<double>(), table);
    }
}

TEST(RunMatmul, ElementIsFloatOrDouble) {
  auto r = hcemu("run matmul --algo a1-sbt -d 2 -m 8 --element half");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("float or double"), std::string::npos) << r.err;
  // The machine's key sets the default; --element overrides it.
  const auto o = run_of(hcemu("run matmul --algo a1-sbt -d 2 -m 8 --set element=float --json"));
  EXPECT_EQ(o["params"]["element"], "float");
  EXPECT_TRUE(o["verified"].get<bool>());
  EXPECT_EQ(o["predicted_ps"], o["emulated_ps"]);
  auto plan = hcemu("plan matmul -d 2 -m 8 --element float --json");
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_NE(plan.out.find("\"element\": \"float\""), std::string::npos) << plan.out;
  EXPECT_EQ(hcemu("plan matmul -d 2 -m 8 --element int").exit_code, 2);
}

TEST(SweepMatmul, SweepsTheSideOfTheMatrices) {
  auto j = runs_of(hcemu("sweep matmul --algo a1-sbt,a4 -d 2 -m 4,9 --json"));
  ASSERT_TRUE(j.is_array()) << j.dump();
  ASSERT_EQ(j.size(), 4u);
  std::set<std::size_t> sides;
  for (const auto& p : j) {
    sides.insert(p["m"].get<std::size_t>());
    EXPECT_TRUE(p["verified"].get<bool>());
    EXPECT_EQ(p["predicted_ps"], p["emulated_ps"]);
  }
  EXPECT_EQ(sides, (std::set<std::size_t>{4, 9}));
}

// Johnsson & Ho's model of Figures 11-14: store-and-forward, one port, no packet limit, t_c = 1 µs a double, the
// start-up τ = t_c, N = 16.
const std::string kFigureMachine = "--config linkbound --ports one -d 4 --set tau=0.125 --set lambda=1 --set flop=0.01";

TEST(PlanMatmul, FigureElevensRegionsA1BelowA4BelowA3) {
  // On a vertical line of Figure 11 (Q/N = 8 and R/N = 6 fixed, P/N rising) the best of A1, A4, A3 is A1 for small
  // P, then A4, then A3; model_matmul_planner_test checks the whole cube of shapes on the planner.
  const auto best_at = [](std::size_t P) {
    auto j = payload_of(
        hcemu("plan matmul " + kFigureMachine + " --algo a1-sbt,a4,a3 --Q 128 --R 96 --json --P " + std::to_string(P)),
        "plan");
    return j["optimal"]["algo"].get<std::string>();
  };
  EXPECT_EQ(best_at(16), "a1-sbt");
  EXPECT_EQ(best_at(64), "a4");
  EXPECT_EQ(best_at(256), "a3");
}

TEST(PlanMatmul, AlgorithmsTwoToFiveOnRectangularGrids) {
  // §5.2.2, P = R = 64, Q = 1024 on a 6-cube: A4 communicates 13772 µs on the square grid, 7116 µs on 2 × 32
  // (model_matmul_planner_test counts both); the plan names a rectangular grid, and the run on it takes its
  // predicted time.
  const std::string machine = "--config linkbound --ports one -d 6 --set tau=0.125 --set lambda=1 --set flop=0.01";
  auto j = payload_of(hcemu("plan matmul " + machine + " --algo a4-2d --P 64 --Q 1024 --R 64 --json"), "plan");
  const auto grid = j["optimal"]["grid"];
  EXPECT_NE(grid[0], grid[1]) << j.dump();
  EXPECT_DOUBLE_EQ(j["optimal"]["communication_us"].get<double>(), 7116.0);
  const auto o = run_of(hcemu("run matmul " + machine + " --algo a4-2d --grid 1,5 --P 64 --Q 1024 --R 64 --json"));
  EXPECT_TRUE(o["verified"].get<bool>());
  EXPECT_EQ(o["predicted_ps"], o["emulated_ps"]);
}

TEST(PlanMatmul, DekelAndTheAlignedSbtOnRectangularGrids) {
  // §5.2.1: P = 256, Q = R = 64 on a 4-cube, t_c = τ = 1 µs: Dekel communicates 6410 µs on 4 × 4, 3855 µs on 16 × 1
  // (model_matmul_planner_test counts both); the plan names the tall grid, the run on it (and on 8 × 2, on both
  // engines) takes its predicted time.
  const std::string machine = "--config linkbound --ports one -d 4 --set tau=0.125 --set lambda=1 --set flop=0.01";
  auto j = payload_of(hcemu("plan matmul " + machine + " --algo dekel,sbt-aligned --P 256 --Q 64 --R 64 --json"), "plan");
  EXPECT_EQ(j["optimal"]["grid"], (std::vector<int>{4, 0})) << j.dump();
  for (const char* engine : {"tasks", "os_threads"})
    for (const char* run : {"--algo dekel --grid 4,0", "--algo sbt-aligned --grid 3,1", "--algo dekel --grid 1,3"}) {
      SCOPED_TRACE(std::string(engine) + " " + run);
      const auto o = run_of(hcemu("run matmul " + machine + " " + run + " --P 256 --Q 64 --R 64 --json --engine " + engine));
      EXPECT_TRUE(o["verified"].get<bool>());
      EXPECT_EQ(o["predicted_ps"], o["emulated_ps"]);
    }
}

TEST(PlanMatmul, NamesThePlannersBestAndListsEveryCandidate) {
  auto j = payload_of(hcemu("plan matmul --P 64 --Q 16 --R 16 --json"), "plan");
  const MachineConfig c = load_config("ipsc860");  // the default machine, d = 5
  const auto plans = model::plan_matmul(c, {64, 16, 16});
  ASSERT_EQ(j["plans"].size(), plans.size());
  EXPECT_EQ(j["optimal"]["algo"], model::matmul_algorithm_info(plans.front().options.algorithm).name);
  EXPECT_EQ(j["optimal"]["predicted_ps"].get<Time>(), plans.front().time.total());
  for (std::size_t i = 1; i < plans.size(); ++i)
    EXPECT_LE(j["plans"][i - 1]["predicted_ps"].get<Time>(), j["plans"][i]["predicted_ps"].get<Time>());
  auto table = hcemu("plan matmul --P 64 --Q 16 --R 16");
  EXPECT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("fastest by the closed forms: "), std::string::npos);
  auto bad = hcemu("plan matmul --algo a9");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("did you mean"), std::string::npos) << bad.err;
  // `plan` alone still plans the exchange.
  EXPECT_TRUE(payload_of(hcemu("plan -d 3 -m 10 --json"), "plan").contains("hull"));
}

TEST(PrimitiveRows, RunFromTheCommandLineInTheirClosedFormTime) {
  for (const std::string kernel : {"broadcast --algo gray-code --chunk 16", "broadcast --algo sbnt",
                                   "allgather --algo rotated-gcea", "exchange --algo sbnt", "reduce --algo sbnt"}) {
    SCOPED_TRACE(kernel);
    auto j = run_of(hcemu("run " + kernel + " -d 3 -m 40 --ports all --json"));
    EXPECT_TRUE(j["verified"].get<bool>());
    EXPECT_FALSE(j["predicted_ps"].is_null());
    EXPECT_EQ(j["predicted_ps"], j["emulated_ps"]);
  }
}

}  // namespace
}  // namespace hcemu::cli
