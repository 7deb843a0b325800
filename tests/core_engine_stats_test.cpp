// Engine statistics (EmulatorSettings::engine_stats, RunReport::engine_stats; docs/engine.md, "Engine statistics"):
// recorded only when asked, counting what the placer did exactly and the host's time consistently, on either engine
// (the suite runs this file on both). Host seconds are never compared with fixed values, only with each other.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "hcemu/hcemu.hpp"

namespace hcemu {
namespace {

// Every node sends one block to every other, in steps of XOR partners (a Direct exchange), with a barrier first so
// that no FORCED message arrives before its receive.
void direct_exchange(Node& node) {
  const int p = node.size();
  std::vector<std::byte> out(static_cast<std::size_t>(p) * 16), in(static_cast<std::size_t>(p) * 16);
  node.barrier();
  for (int j = 1; j < p; ++j) {
    const int partner = node.id() ^ j;
    const auto at = static_cast<std::size_t>(partner) * 16;
    node.exchange(partner, std::span(out).subspan(at, 16), std::span(in).subspan(at, 16), 1);
  }
}

MachineConfig cube(int d) {
  MachineConfig config;
  config.d = d;
  return config;
}

TEST(EngineStats, NoneUnlessAsked) {
  const RunReport report = Machine(cube(3)).run(direct_exchange);
  EXPECT_FALSE(report.engine_stats.has_value());
}

TEST(EngineStats, CountWhatThePlacerDidAndAddUpInTime) {
  EmulatorSettings settings;
  settings.engine_stats = true;
  settings.workers = 2;
  const RunReport report = Machine(cube(4), settings).run(direct_exchange);
  ASSERT_TRUE(report.engine_stats.has_value());
  const EngineStats& s = *report.engine_stats;
  // Every message is one transfer of one hop under circuit switching, placed once: by the placer, or at once by its
  // sender where nothing could contend with it.
  EXPECT_EQ(s.transfers_placed + s.placed_by_senders, report.messages());
  EXPECT_GT(s.transfers_placed, 0u);
  EXPECT_EQ(report.messages(), 16u * 15u);
  EXPECT_GE(s.placement_passes, 1u);
  EXPECT_EQ(s.lookahead, 0);
  EXPECT_EQ(s.wall_seconds, report.wall_seconds);
  EXPECT_GE(s.placing_seconds, 0.0);
  EXPECT_LE(s.placing_seconds, s.wall_seconds);
  EXPECT_GE(s.serial_fraction(), 0.0);
  EXPECT_LE(s.serial_fraction(), 1.0);
  if (report.settings.engine == EngineKind::tasks) {
    EXPECT_EQ(s.engine, "tasks");
    EXPECT_EQ(s.workers, 2);
    ASSERT_EQ(s.per_worker.size(), 2u);
    double placing = 0;
    std::uint64_t slices = 0;
    for (const WorkerStats& w : s.per_worker) {
      EXPECT_GE(w.running_seconds, 0.0);
      EXPECT_GE(w.idle_seconds, 0.0);
      EXPECT_LE(w.running_seconds + w.placing_seconds + w.idle_seconds, s.wall_seconds * 1.01 + 1e-3);
      placing += w.placing_seconds;
      slices += w.slices;
    }
    // The placer runs inside a node's slice on some worker: its time is charged there, all of it.
    EXPECT_NEAR(placing, s.placing_seconds, 1e-9 + 1e-9 * s.placing_seconds);
    EXPECT_GE(slices, 16u);  // every node ran at least once
  } else {
    EXPECT_EQ(s.engine, "os_threads");
    EXPECT_EQ(s.workers, 16);
    EXPECT_TRUE(s.per_worker.empty());
  }
}

TEST(EngineStats, ChangeNoResult) {
  EmulatorSettings with;
  with.engine_stats = true;
  const RunReport a = Machine(cube(4)).run(direct_exchange);
  const RunReport b = Machine(cube(4), with).run(direct_exchange);
  EXPECT_EQ(a.makespan, b.makespan);
  EXPECT_EQ(a.contention_events(), b.contention_events());
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (std::size_t i = 0; i < a.nodes.size(); ++i) EXPECT_EQ(a.nodes[i].final_clock, b.nodes[i].final_clock);
}

TEST(EngineStats, StartAfreshEachRun) {
  EmulatorSettings settings;
  settings.engine_stats = true;
  Machine machine(cube(3), settings);
  const RunReport first = machine.run(direct_exchange);
  const RunReport second = machine.run(direct_exchange);
  ASSERT_TRUE(first.engine_stats && second.engine_stats);
  EXPECT_EQ(first.engine_stats->transfers_placed, second.engine_stats->transfers_placed);
  EXPECT_GE(second.engine_stats->placement_passes, 1u);
}

}  // namespace
}  // namespace hcemu
