// The command on the 2-D torus end to end (Suh, Shin & An 1998): the exchange rows t1, t1.x, t2 and the baseline,
// `-d 2k` as 2^k x 2^k, `plan --topology torus`, the `torus` preset, and `sweep` reproducing the claims of the paper's
// Figures 6 and 7 (§5). Every expected time comes from the closed forms (hcemu/model/torus_exchange_cost.hpp).
//
// Sizes: the emulated runs use tori of 16 x 16 and 32 x 32 (256 and 1024 nodes, a second or two each); 32 x 32 is
// the smallest torus on which T1, T1.1 and T2 are three different algorithms (on 16 x 16 T1 is T1.1, on 8 x 8 it is
// T2). The paper's 64 x 64 and 128 x 128 tori are checked with `sweep --predicted-only`, which emulates nothing.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "cli/config_loader.hpp"
#include "hcemu/model/torus_exchange_cost.hpp"

#include "run_hcemu.hpp"

namespace hcemu::cli {
namespace {

using test::hcemu;
using test::Result;
using test::payload_of;
using test::run_of;
using test::runs_of;

// A preset on the 2^k x 2^k torus, as `--config NAME --topology torus -d 2k` builds it.
MachineConfig torus_of(const std::string& preset, int k, double lambda = -1) {
  MachineConfig c = load_config(preset);
  c.d = 2 * k;
  c.topology = Topology{Topology::Kind::torus, 0, 0};
  if (lambda >= 0) c.lambda = lambda;
  if (preset == "ipsc860") c.delta_msg = 5.15 * c.d;  // the preset's delta_msg_per_d, resolved for this d
  return c;
}

std::map<std::string, nlohmann::json> by_algo(const nlohmann::json& array) {
  std::map<std::string, nlohmann::json> out;
  for (const auto& j : array) out[j["algo"].get<std::string>()] = j;
  return out;
}

TEST(TorusRun, AllRunsT1T2AndTheBaselineEachAtItsClosedForm) {
  // 16 x 16 (k = 4): T1 is x = 1, there is no T1.x strictly between T1 and T2. Under --sync barrier the emulated
  // time of every step is the model's, so the torus rows match their closed forms exactly, with no contention.
  auto j = runs_of(hcemu("run exchange --topology torus -d 8 --algo all --sync barrier -m 8 --json"));
  const auto runs = by_algo(j);
  EXPECT_EQ(runs.size(), 3u);
  ASSERT_TRUE(runs.count("direct") && runs.count("t1") && runs.count("t2")) << j.dump(1);
  const MachineConfig config = torus_of("ipsc860", 4);
  for (const auto& [algo, run] : runs) {
    EXPECT_TRUE(run["verified"].get<bool>()) << algo;
    EXPECT_EQ(run["d"], 8) << algo;
    EXPECT_EQ(run["topology"], "torus:16x16") << algo;
    ASSERT_FALSE(run["lower_bound_ps"].is_null()) << algo;
    EXPECT_LE(run["lower_bound_ps"].get<Time>(), run["emulated_ps"].get<Time>()) << algo;
  }
  EXPECT_EQ(runs.at("t1")["params"]["x"], 1);
  for (const auto& [algo, x] : {std::pair<std::string, int>{"t1", 1}, {"t2", 0}}) {
    const Time expected = model::torus_exchange_time(config, 4, x, 8, Sync::barrier);
    EXPECT_EQ(runs.at(algo)["predicted_ps"].get<Time>(), expected) << algo;
    EXPECT_EQ(runs.at(algo)["emulated_ps"].get<Time>(), expected) << algo;
    EXPECT_EQ(runs.at(algo)["contention_events"], 0) << algo;
  }
  // The baseline ignores the topology: no closed form, its contention counted.
  EXPECT_TRUE(runs.at("direct")["predicted_us"].is_null());
  EXPECT_GT(runs.at("direct")["contention_events"].get<int>(), 0);
}

TEST(TorusRun, T1DotXIsSpeltAsInTheIssue) {
  // T1.2 on 32 x 32 (k = 5), where it is T1 (x = k - 3); the torus preset's barrier costs nothing, so --sync barrier
  // runs the paper's model exactly: Σ_steps (t_s + L_k·m·t_c).
  auto j = run_of(hcemu("run exchange --config torus -d 10 --algo t1.2 -m 2 --sync barrier --json"));
  const MachineConfig config = torus_of("torus", 5);
  const Time expected = model::torus_exchange_time(config, 5, 2, 2, Sync::barrier);
  EXPECT_EQ(j["algo"], "t1.2");
  EXPECT_TRUE(j["verified"].get<bool>());
  EXPECT_EQ(j["predicted_ps"].get<Time>(), expected);
  EXPECT_EQ(j["emulated_ps"].get<Time>(), expected);
  EXPECT_EQ(j["contention_events"], 0);
  // By hand: 12 steps of t_s = 50 µs, and (3·2^3 + 5·2^2 - 5)·2^9 = 19968 blocks of 2 bytes at 0.01 µs a byte.
  EXPECT_EQ(expected, from_us(12 * 50.0 + 19968 * 2 * 0.01));
}

TEST(TorusRun, OnACubeAllLeavesTheTorusRowsOut) {
  auto j = runs_of(hcemu("run exchange -d 3 --algo all -m 8 --json"));
  for (const auto& run : j) {
    const std::string algo = run["algo"];
    EXPECT_NE(algo.rfind("t1", 0), 0u) << algo;
    EXPECT_NE(algo, "t2");
    EXPECT_EQ(run["topology"], "cube");
  }
}

TEST(TorusRun, ExplicitSidesSetTheDimension) {
  auto j = run_of(hcemu("run exchange --topology torus:4x8 --algo direct -m 4 --json"));
  EXPECT_EQ(j["d"], 5);
  EXPECT_EQ(j["topology"], "torus:4x8");
  EXPECT_TRUE(j["verified"].get<bool>());
}

TEST(TorusPlan, DashDCountsTheSideAndTheFastestMemberIsThePlanners) {
  // -d 12 on a torus is the paper's 64 x 64: 4096 nodes.
  auto j = payload_of(hcemu("plan --config torus -d 12 -m 4 --json"), "plan");
  EXPECT_EQ(j["d"], 12);
  EXPECT_EQ(j["k"], 6);
  EXPECT_EQ(j["topology"], "torus:64x64");
  EXPECT_DOUBLE_EQ(j["a"].get<double>(), 5000.0);
  const MachineConfig config = torus_of("torus", 6);
  const model::TorusPlan best = model::torus_plan(config, 6, 4);
  EXPECT_EQ(j["fastest"]["algo"], best.name);
  EXPECT_EQ(j["fastest"]["predicted_ps"].get<Time>(), best.predicted);
  ASSERT_EQ(j["members"].size(), best.times.size());
  for (const auto& member : j["members"]) {
    const int x = member["x"];
    EXPECT_EQ(member["predicted_ps"].get<Time>(), best.times[static_cast<std::size_t>(x)]);
    EXPECT_EQ(member["startups"].get<std::size_t>(), model::torus_startups(6, x));
  }
  const model::TorusEnvelope envelope = model::torus_envelope(config, 6);
  ASSERT_EQ(j["crossovers"].size(), envelope.crossovers.size());
  for (std::size_t i = 0; i < envelope.crossovers.size(); ++i)
    EXPECT_DOUBLE_EQ(j["crossovers"][i]["m"].get<double>(), envelope.crossovers[i].m);
  // Among T1, T1.1 and T2 (the paper's figures): T1, then T1.1, then T2 as the block grows.
  ASSERT_EQ(j["paper_crossovers"].size(), 2u);
  EXPECT_EQ(j["paper_crossovers"][0]["from"], "t1");
  EXPECT_EQ(j["paper_crossovers"][0]["to"], "t1.1");
  EXPECT_EQ(j["paper_crossovers"][1]["from"], "t1.1");
  EXPECT_EQ(j["paper_crossovers"][1]["to"], "t2");
}

TEST(TorusPlan, AlgoLimitsThePlanToThePapersThree) {
  // Suh, Shin & An §5 compare T1, T1.1 and T2 only; on 64 x 64 the family also has T1.2, left out here.
  auto j = payload_of(hcemu("plan --config torus -d 12 -m 4 --algo t1,t1.1,t2 --json"), "plan");
  const MachineConfig config = torus_of("torus", 6);
  const model::TorusPlan all = model::torus_plan(config, 6, 4);
  std::set<std::string> names;
  for (const auto& member : j["members"]) names.insert(member["algo"].get<std::string>());
  EXPECT_EQ(names, (std::set<std::string>{"t1", "t1.1", "t2"}));
  Time least = all.times[0];
  for (int x : {1, model::torus_max_x(6)}) least = std::min(least, all.times[static_cast<std::size_t>(x)]);
  EXPECT_EQ(j["fastest"]["predicted_ps"].get<Time>(), least);
  const model::TorusEnvelope paper = model::torus_envelope(config, 6, Sync::none, {3, 1, 0});
  ASSERT_EQ(j["crossovers"].size(), paper.crossovers.size());
  for (std::size_t i = 0; i < paper.crossovers.size(); ++i)
    EXPECT_DOUBLE_EQ(j["crossovers"][i]["m"].get<double>(), paper.crossovers[i].m);
  EXPECT_FALSE(j.contains("t1x_reading"));
}

TEST(TorusPlan, AT1DotXOfOurReadingSaysWhereItDepartsFromTableOne) {
  auto j = payload_of(hcemu("plan --config torus -d 12 -m 4 --algo t1.2,t2 --json"), "plan");
  ASSERT_EQ(j["members"].size(), 2u);
  ASSERT_TRUE(j.contains("t1x_reading"));
  EXPECT_NE(j["t1x_reading"].get<std::string>().find("Table 1"), std::string::npos);
  const auto text = hcemu("plan --config torus -d 12 -m 4");
  EXPECT_NE(text.out.find("T1.2 (T1.x, x >= 2) follow our reading"), std::string::npos) << text.out;
}

TEST(TorusPlan, ACubeOrANonSquareTorusIsNotPlannedAsATorus) {
  auto r = hcemu("plan --topology torus:4x8");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("square 2^k x 2^k torus"), std::string::npos) << r.err;
}

// The fastest of T1, T1.1, T2 at each block size of a sweep, by emulated or predicted time.
std::map<std::size_t, std::string> fastest_by_m(const nlohmann::json& points, const char* time_key) {
  std::map<std::size_t, std::pair<double, std::string>> best;
  for (const auto& p : points) {
    const std::size_t m = p["m"];
    const double t = p[time_key];
    auto it = best.find(m);
    if (it == best.end() || t < it->second.first) best[m] = {t, p["algo"].get<std::string>()};
  }
  std::map<std::size_t, std::string> out;
  for (const auto& [m, b] : best) out[m] = b.second;
  return out;
}

TEST(TorusSweep, EmulatedRunsShowTheFiguresClaimsOn32x32) {
  // Suh, Shin & An §5 (Figures 6 and 7): T1 is best for small blocks, T1.1 in between, T2 for large blocks, and the
  // crossovers move to larger blocks as a = t_s/t_c grows. On 32 x 32 the closed forms put them at 2.93 and 17.58
  // bytes for a = 5000 and at 5.86 and 35.16 for a = 10000 (model::torus_envelope), so that at m = 4 and 24 the
  // fastest is T1.1 and T2 for a = 5000, T1 and T1.1 for a = 10000: every claim, in 12 runs of 1024 nodes (about a
  // second each).
  const std::string sweep = "sweep exchange --config torus -d 10 --algo t1,t1.1,t2 --sync barrier --m 4,24 --json";
  auto a5000 = runs_of(hcemu(sweep));
  auto a10000 = runs_of(hcemu(sweep + " --set lambda=100"));
  for (const auto* points : {&a5000, &a10000}) {
    ASSERT_EQ(points->size(), 6u);
    for (const auto& p : *points) {
      EXPECT_TRUE(p["verified"].get<bool>());
      EXPECT_EQ(p["emulated_ps"], p["predicted_ps"]) << p["algo"] << " m=" << p["m"];
    }
  }
  EXPECT_EQ(fastest_by_m(a5000, "emulated_us"), (std::map<std::size_t, std::string>{{4, "t1.1"}, {24, "t2"}}));
  EXPECT_EQ(fastest_by_m(a10000, "emulated_us"), (std::map<std::size_t, std::string>{{4, "t1"}, {24, "t1.1"}}));
}

// The first block size of a predicted sweep at which `to` is faster than `from`.
std::size_t first_m_where_faster(const nlohmann::json& points, const std::string& to, const std::string& from) {
  std::map<std::size_t, std::map<std::string, double>> at;
  for (const auto& p : points) at[p["m"]][p["algo"]] = p["predicted_us"];
  for (const auto& [m, times] : at)
    if (times.at(to) < times.at(from)) return m;
  return SIZE_MAX;
}

TEST(TorusSweep, PredictedCurvesOfFigures6And7) {
  // The paper's tori, 64 x 64 (Figure 6) and 128 x 128 (Figure 7), at a = 5000 and 10000: the closed forms only.
  for (int k : {6, 7}) {
    std::size_t previous_t2 = 0;
    for (double lambda : {50.0, 100.0}) {
      const std::string args =
          "sweep exchange --config torus -d " + std::to_string(2 * k) +
          " --algo t1,t1.1,t2 --m 0:48:1 --predicted-only --json --set lambda=" + std::to_string(lambda);
      auto points = runs_of(hcemu(args));
      ASSERT_EQ(points.size(), 3u * 49u);
      const MachineConfig config = torus_of("torus", k, lambda);
      for (const auto& p : points) {
        EXPECT_TRUE(p["emulated_us"].is_null());
        const std::string algo = p["algo"];
        const int x = model::torus_algorithm_x(k, algo);
        EXPECT_EQ(p["predicted_ps"].get<Time>(), model::torus_exchange_time(config, k, x, p["m"]))
            << algo << " m=" << p["m"];
      }
      const auto fastest = fastest_by_m(points, "predicted_us");
      EXPECT_EQ(fastest.at(0), "t1") << "k=" << k << " lambda=" << lambda;
      EXPECT_EQ(fastest.at(4), "t1.1") << "k=" << k << " lambda=" << lambda;
      EXPECT_EQ(fastest.at(48), "t2") << "k=" << k << " lambda=" << lambda;
      // Where T2 overtakes T1.1 moves to larger blocks as a grows.
      const std::size_t t2 = first_m_where_faster(points, "t2", "t1.1");
      EXPECT_GT(t2, previous_t2) << "k=" << k << " lambda=" << lambda;
      previous_t2 = t2;
    }
  }
}

TEST(TorusSweep, PredictedOnlyPlotIsDrawn) {
  auto svg = std::filesystem::temp_directory_path() / ("hcemu-torus-plot-" + std::to_string(::getpid()) + ".svg");
  auto r = hcemu("sweep exchange --config torus -d 12 --algo all --m 0:32:4 --predicted-only --plot " + svg.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(std::filesystem::file_size(svg), 0u);
  std::filesystem::remove(svg);
}

struct BadUsage {
  std::string arguments;
  std::string message;
};

class TorusBadArguments : public ::testing::TestWithParam<BadUsage> {};

TEST_P(TorusBadArguments, GiveTheIntendedErrorAndExitTwo) {
  auto r = hcemu(GetParam().arguments);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(GetParam().message), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, TorusBadArguments,
    ::testing::Values(BadUsage{"run exchange --topology torus -d 7", "-d 6 is 8 x 8, -d 8 is 16 x 16"},
                      BadUsage{"run exchange --topology torus:4x8 -d 6", "are 2^5 nodes (d = 5); leave -d out"},
                      BadUsage{"run exchange --topology torus:4x8 --algo t2", "square 2^k x 2^k torus"},
                      BadUsage{"run exchange -d 4 --algo t1", "made for a 2^k x 2^k torus"},
                      BadUsage{"run exchange --topology torus -d 8 --algo t1.2", "k >= 5"},
                      BadUsage{"run exchange --topology torus -d 6 --algo standard", "made for the hypercube"},
                      BadUsage{"run exchange --topology torus -d 6 --algo t1.9", "no algorithm"},
                      BadUsage{"plan --topology torus -d 8 --algo t1,t1.9", "needs a 2^d x 2^d torus with d >= 12"},
                      BadUsage{"plan --topology torus -d 8 --algo t1,t3", "t3"},
                      BadUsage{"plan -d 5 --algo t1", "--topology torus"}));

}  // namespace
}  // namespace hcemu::cli
