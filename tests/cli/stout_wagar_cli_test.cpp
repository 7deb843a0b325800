// `hcemu run` end to end for the kernels of Stout & Wagar (1990) §3-6: long-send, scatter, gather and permutation on
// the `linkbound` preset (the paper's machine). The built binary is run, its JSON parsed, and every number checked
// against the closed forms and lower bounds of src/model; bad arguments give exit code 2 and name the flag.
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
#include "hcemu/model/long_send.hpp"
#include "hcemu/model/lower_bounds.hpp"
#include "hcemu/model/permutation.hpp"
#include "hcemu/model/scatter.hpp"

#include "run_hcemu.hpp"

namespace hcemu::cli {
namespace {

using test::hcemu;
using test::Result;
using test::run_of;
using test::runs_of;

std::set<std::string> algos_of(const nlohmann::json& array) {
  std::set<std::string> algos;
  for (const auto& o : array) algos.insert(o["algo"].get<std::string>());
  return algos;
}

// Every case verified, emulated in its predicted time where it has one, never faster than its lower bound, and
// without contention (the paper's schedules, and the e-cube routes of the cases below, share no link at once).
void expect_sound(const nlohmann::json& o, Time bound) {
  const std::string algo = o["algo"];
  EXPECT_TRUE(o["verified"].get<bool>()) << algo;
  if (!o["predicted_ps"].is_null()) {
    EXPECT_EQ(o["predicted_ps"].get<Time>(), o["emulated_ps"].get<Time>()) << algo;
  }
  EXPECT_EQ(o["lower_bound_ps"].get<Time>(), bound) << algo;
  EXPECT_LE(bound, o["emulated_ps"].get<Time>()) << algo;
  EXPECT_EQ(o["contention_events"], 0) << algo;
}

MachineConfig linkbound() { return load_config("linkbound"); }

TEST(LongSendCommand, RunsEveryOppositeCornerAlgorithmOnTheLinkBoundPreset) {
  const std::size_t m = 60000;
  auto j = runs_of(hcemu("run long-send --config linkbound --algo all -m 60000 --json"));
  ASSERT_TRUE(j.is_array());
  // X.O.C. SEND needs a destination short of the opposite corner, so --algo all leaves it out here.
  EXPECT_EQ(algos_of(j), (std::set<std::string>{"direct", "ocs1", "ocs2", "ocs3", "ocs4", "as1", "as2", "as3",
                                                "oc-exchange", "arbitrary-exchange"}));
  const MachineConfig c = linkbound();
  const int d = c.d, far = (1 << d) - 1;
  for (const auto& o : j) {
    expect_sound(o, model::long_send_lower_bound(c, m, 0, far));
    EXPECT_EQ(o["params"]["src"], 0);
    EXPECT_EQ(o["params"]["dst"], far);
    const std::string algo = o["algo"];
    const Time emulated = o["emulated_ps"].get<Time>();
    const int g = o["params"].value("groups", 0);
    if (algo == "direct") {
      EXPECT_EQ(emulated, model::direct_send_time(c, m, d));
    }
    if (algo == "ocs1") {
      EXPECT_EQ(emulated, model::oc_send_1_time(c, m, d));
    }
    if (algo == "ocs2") {
      EXPECT_EQ(emulated, *model::oc_send_2_time(c, m, d));
    }
    if (algo == "ocs3") {
      EXPECT_EQ(emulated, *model::oc_send_3_time(c, m, d));
    }
    if (algo == "ocs4" || algo == "as1" || algo == "oc-exchange") {
      EXPECT_EQ(g, model::optimal_oc_send_groups(c, m, d));
      EXPECT_EQ(emulated, *model::oc_send_4_time(c, m, d, g));
    }
    if (algo == "as2") {
      EXPECT_EQ(emulated, *model::arbitrary_send_2_time(c, m, d, g));
    }
  }
  // The paper's β-free τm + dβ of O.C. SEND 2 (Stout & Wagar 1990 §3): 60000 + 5·100 µs.
  for (const auto& o : j)
    if (o["algo"] == "ocs2") {
      EXPECT_EQ(o["emulated_us"].get<double>(), 60500.0);
    }
}

TEST(LongSendCommand, ADestinationShortOfTheCornerAddsTheXocSends) {
  const std::size_t m = 6000;
  auto j = runs_of(hcemu("run long-send --config linkbound --dst 3 --algo all -m 6000 --json"));
  EXPECT_EQ(algos_of(j),
            (std::set<std::string>{"direct", "ocs1", "ocs2", "ocs3", "ocs4", "as1", "as2", "xocs1", "xocs2", "as3",
                                   "oc-exchange", "arbitrary-exchange"}));
  const MachineConfig c = linkbound();
  for (const auto& o : j) {
    expect_sound(o, model::long_send_lower_bound(c, m, 0, 3));
    EXPECT_EQ(o["params"]["dst"], 3);
    if (o["algo"] == "xocs1") {
      EXPECT_EQ(o["emulated_ps"].get<Time>(), *model::xoc_send_time(c, m, 2, 1));
    }
    // Both ways at once, in one ARBITRARY SEND 3's time (Stout & Wagar 1990 §4).
    if (o["algo"] == "arbitrary-exchange") {
      EXPECT_EQ(o["emulated_ps"].get<Time>(),
                *model::arbitrary_send_3_time(c, m, 2, o["params"]["groups"], o["params"]["xoc-groups"]));
    }
  }
}

TEST(LongSendCommand, NodeZeroIsADestinationLikeAnyOther) {
  auto j = run_of(hcemu("run long-send --config linkbound --src 5 --dst 0 --algo ocs2 -m 600 --json"));
  EXPECT_EQ(j["params"]["src"], 5);
  EXPECT_EQ(j["params"]["dst"], 0);
  EXPECT_EQ(j["emulated_ps"].get<Time>(), *model::oc_send_2_time(linkbound(), 600, 2));
  EXPECT_TRUE(j["verified"].get<bool>());
}

TEST(LongSendCommand, BadPairsAreUsageErrors) {
  auto corner = hcemu("run long-send --config linkbound --algo xocs1");
  EXPECT_EQ(corner.exit_code, 2);
  EXPECT_NE(corner.err.find("--dst"), std::string::npos) << corner.err;
  auto outside = hcemu("run long-send --config linkbound --dst 32");
  EXPECT_EQ(outside.exit_code, 2);
  EXPECT_NE(outside.err.find("--dst 32"), std::string::npos) << outside.err;
  auto elsewhere = hcemu("run broadcast --src 1");
  EXPECT_EQ(elsewhere.exit_code, 2);
  EXPECT_NE(elsewhere.err.find("--src"), std::string::npos) << elsewhere.err;
}

TEST(LongSendCommand, TheTableShowsTheLowerBound) {
  auto r = hcemu("run long-send --config linkbound -m 60000");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("lower bound µs"), std::string::npos) << r.out;
  // τm/d + β = 60000/5 + 100 µs (Stout & Wagar 1990 §9).
  EXPECT_NE(r.out.find("12100.00"), std::string::npos) << r.out;
}

TEST(ScatterCommand, RunsEveryScatterFromAnyRoot) {
  const std::size_t m = 840;
  const MachineConfig c = linkbound();
  for (const std::string root : {"0", "6"}) {
    auto j = runs_of(hcemu("run scatter --config linkbound -m 840 --root " + root + " --json"));
    EXPECT_EQ(algos_of(j),
              (std::set<std::string>{"distribute-1", "distribute-2", "sbt", "pipelined-sbt", "sbnt", "nrsbt"}));
    for (const auto& o : j) {
      expect_sound(o, model::scatter_lower_bound(c, m));
      const std::string algo = o["algo"];
      const Time emulated = o["emulated_ps"].get<Time>();
      if (algo == "distribute-1") {
        EXPECT_EQ(emulated, *model::distribute_1_time(c, m));
      }
      if (algo == "distribute-2") {
        EXPECT_EQ(emulated, *model::distribute_2_time(c, m));
      }
      if (algo == "sbt") {
        EXPECT_EQ(emulated, model::sbt_scatter_time(c, m));
      }
      if (algo == "sbnt") {
        EXPECT_EQ(emulated, *model::sbnt_scatter_time(c, m));
      }
      if (algo == "nrsbt") {
        EXPECT_EQ(emulated, *model::nrsbt_scatter_time(c, m));
      }
    }
  }
  // DISTRIBUTE 1 (Stout & Wagar 1990 §5) with lcm(1..5) | m: (2^d - 1)τm/d + dβ = 31·840/5 + 500 µs.
  auto one = run_of(hcemu("run scatter --config linkbound -m 840 --algo distribute-1 --json"));
  EXPECT_EQ(one["emulated_us"].get<double>(), 31 * 840 / 5 + 500.0);
}

TEST(GatherCommand, RunsEveryGather) {
  const std::size_t m = 840;
  const MachineConfig c = linkbound();
  auto j = runs_of(hcemu("run gather --config linkbound -m 840 --root 9 --json"));
  EXPECT_EQ(algos_of(j), (std::set<std::string>{"collect-1", "collect-2", "sbt"}));
  for (const auto& o : j) {
    expect_sound(o, model::gather_lower_bound(c, m));
    const std::string algo = o["algo"];
    const Time emulated = o["emulated_ps"].get<Time>();
    if (algo == "collect-1") {
      EXPECT_EQ(emulated, *model::collect_1_time(c, m));
    }
    if (algo == "collect-2") {
      EXPECT_EQ(emulated, *model::collect_2_time(c, m));
    }
    if (algo == "sbt") {
      EXPECT_EQ(emulated, model::sbt_gather_time(c, m));
    }
  }
  auto root = hcemu("run gather --config linkbound --root 32");
  EXPECT_EQ(root.exit_code, 2) << root.err;
}

TEST(PermutationCommand, BitReversalRunsTheBaselineAndPermutedSend) {
  // Pieces of 60 = lcm(1..5) bytes balance every stage of PERMUTED SEND's exchanges: m = 32·60.
  const std::size_t m = 1920;
  auto j = runs_of(hcemu("run permutation --config linkbound --perm bit-reversal --algo all -m 1920 --json"));
  // INVERSION routes only the inversion permutation, so --algo all leaves it out.
  EXPECT_EQ(algos_of(j), (std::set<std::string>{"ecube", "permuted-send"}));
  const MachineConfig c = linkbound();
  const auto image = model::bit_reversal_permutation(c.d).image;
  for (const auto& o : j) {
    EXPECT_EQ(o["params"]["perm"], "bit-reversal");
    expect_sound(o, model::permutation_lower_bound(c, m, image));
    if (o["algo"] == "permuted-send") {
      // τm + 2dβ (Stout & Wagar 1990 §6).
      EXPECT_EQ(o["emulated_us"].get<double>(), 1920 + 2 * 5 * 100.0);
    } else {
      EXPECT_EQ(o["emulated_ps"].get<Time>(), *model::ecube_permutation_time(c, m, image));
    }
  }
}

TEST(PermutationCommand, InversionIsTheDefaultAndRunsAllThree) {
  const std::size_t m = 1920;
  auto j = runs_of(hcemu("run permutation --config linkbound -m 1920 --json"));
  EXPECT_EQ(algos_of(j), (std::set<std::string>{"ecube", "inversion", "permuted-send"}));
  const MachineConfig c = linkbound();
  for (const auto& o : j) {
    EXPECT_EQ(o["params"]["perm"], "inversion");
    expect_sound(o, model::permutation_lower_bound(c, m, model::inversion_permutation(c.d).image));
    // INVERSION: τm + dβ (Stout & Wagar 1990 §6).
    if (o["algo"] == "inversion") {
      EXPECT_EQ(o["emulated_us"].get<double>(), 1920 + 5 * 100.0);
    }
  }
}

TEST(PermutationCommand, TheBaselineCountsItsContention) {
  // Bit reversal on 4 bits under circuit switching: four routes find a link held by a lower source's route
  // (tests/kernels_permutation_test.cpp works it out); the table shows them.
  auto j =
      run_of(hcemu("run permutation --config linkbound -d 4 --switching circuit --perm bit-reversal "
                    "--algo ecube -m 100 --json"));
  EXPECT_EQ(j["contention_events"], 4);
  EXPECT_TRUE(j["predicted_ps"].is_null());
  EXPECT_TRUE(j["verified"].get<bool>());
}

TEST(PermutationCommand, BadPermutationsAreUsageErrors) {
  auto only_inversion = hcemu("run permutation --config linkbound --algo inversion --perm shuffle");
  EXPECT_EQ(only_inversion.exit_code, 2);
  EXPECT_NE(only_inversion.err.find("--perm inversion"), std::string::npos) << only_inversion.err;
  auto unknown = hcemu("run permutation --config linkbound --perm transpose");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("--perm"), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("bit-reversal"), std::string::npos) << unknown.err;
  auto elsewhere = hcemu("run exchange --perm shuffle");
  EXPECT_EQ(elsewhere.exit_code, 2);
}

}  // namespace
}  // namespace hcemu::cli
