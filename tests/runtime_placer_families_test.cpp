// Every algorithm of every family, through the harness, placed in parallel (docs/engine.md, "Placing in parallel"):
// three workers sharing every level of two transfers or more, windows no wider than 3 µs
// (EmulatorSettings::placing_lookahead_limit), random yields; and three workers placing while others run
// ("Placing while others run"). Each gives the report of the placer alone on one worker, to the picosecond (every
// node's clock and arena mark, the contention, the discards), and verifies its data. The machines cover what the
// levels and the windows depend on: circuits on one port, on k:2 ports and on all ports, store-and-forward in
// packets, FORCED and UNFORCED receives, LogGP, the torus, and k:2 ports on a mesh.
#include <gtest/gtest.h>

#include <cctype>
#include <ostream>
#include <string>
#include <vector>

#include "hcemu/algorithm.hpp"
#include "hcemu/errors.hpp"
#include "kernel_machines.hpp"
#include "reference_scheduler.hpp"

namespace hcemu {
namespace {

struct Preset {
  const char* name;
  MachineConfig config;
};

std::vector<Preset> presets() {
  std::vector<Preset> out;
  MachineConfig ipsc = test::ipsc_like();
  ipsc.d = 5;
  out.push_back({"circuit", ipsc});
  MachineConfig all_port = test::circuit_machine();
  all_port.d = 4;
  all_port.ports = Ports::parse("all");
  out.push_back({"circuit_all_port", all_port});
  MachineConfig packets = test::link_bound_machine();
  packets.d = 4;
  packets.ports = Ports::parse("all");
  packets.packet = 24;
  out.push_back({"store_and_forward", packets});
  MachineConfig forced = test::ipsc_like();
  forced.d = 4;
  forced.protocol = Protocol::forced;
  out.push_back({"forced", forced});
  out.push_back({"loggp", test::loggp_machine(4)});
  MachineConfig torus = test::ipsc_like();
  torus.topology = Topology::parse("torus:4x8");
  torus.d = 5;
  out.push_back({"torus", torus});
  MachineConfig k_ports = test::ipsc_like();
  k_ports.d = 4;
  k_ports.ports = Ports::parse("k:2");
  out.push_back({"k_ports", k_ports});
  MachineConfig k_mesh = test::link_bound_machine();
  k_mesh.topology = Topology::parse("mesh:4x4");
  k_mesh.d = 4;
  k_mesh.ports = Ports::parse("k:2");
  k_mesh.packet = 24;
  out.push_back({"k_ports_mesh_store_and_forward", k_mesh});
  return out;
}

struct Case {
  Preset preset;
  std::string family;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.family << " on " << c.preset.name; }

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const Preset& p : presets())
    for (const KernelFamily& f : families()) out.push_back({p, f.name});
  return out;
}

class PlacerFamilies : public ::testing::TestWithParam<Case> {};

TEST_P(PlacerFamilies, EveryAlgorithmPlacedInParallelEqualsThePlacerAlone) {
  const Case& c = GetParam();
  const MachineConfig& config = c.preset.config;
  const KernelFamily& family = find_family(c.family);
  KernelCase base;
  base.m = 32;
  std::vector<KernelCase> runs;
  try {
    runs = family.expand_all(config, base);
  } catch (const UsageError& e) {
    GTEST_SKIP() << e.what();
  }
  if (runs.empty()) GTEST_SKIP() << "no algorithm of the family runs on this machine";
  EmulatorSettings alone;
  alone.engine = EngineKind::tasks;
  alone.workers = 1;
  alone.placing_share_from = 0;
  EmulatorSettings parallel;
  parallel.engine = EngineKind::tasks;
  parallel.workers = 3;
  parallel.placing_share_from = 2;
  parallel.placing_lookahead_limit = 3;
  parallel.yield_seed = 7;
  EmulatorSettings early;
  early.engine = EngineKind::tasks;
  early.workers = 3;
  early.placing_early = true;
  early.yield_seed = 5;
  for (const KernelCase& k : runs) {
    SCOPED_TRACE(k.algo);
    const KernelResult want = family.run(config, alone, k);
    EXPECT_TRUE(want.verified) << want.verify_message;
    EXPECT_GT(want.report.makespan, 0);
    for (const EmulatorSettings& settings : {parallel, early}) {
      SCOPED_TRACE(settings.placing_early ? "placing early" : "levels shared, narrow windows");
      const KernelResult got = family.run(config, settings, k);
      EXPECT_TRUE(got.verified) << got.verify_message;
      EXPECT_EQ(got.report.makespan, want.report.makespan);
      ASSERT_EQ(got.report.nodes.size(), want.report.nodes.size());
      for (std::size_t i = 0; i < want.report.nodes.size(); ++i) {
        EXPECT_EQ(got.report.nodes[i].final_clock, want.report.nodes[i].final_clock) << "node " << i;
        EXPECT_EQ(got.report.nodes[i].arena_high_water, want.report.nodes[i].arena_high_water) << "node " << i;
      }
      EXPECT_EQ(test::contention_of(got.report), test::contention_of(want.report));
      EXPECT_EQ(got.report.forced_discards.size(), want.report.forced_discards.size());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Harness, PlacerFamilies, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& param) {
                           std::string s = param.param.family + "_on_" + param.param.preset.name;
                           for (char& ch : s)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return s;
                         });

}  // namespace
}  // namespace hcemu
