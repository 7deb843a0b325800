// Engine statistics (EmulatorSettings::engine_stats, RunReport::engine_stats; docs/engine.md, "Engine statistics"):
// recorded only when asked, counting what the placer did exactly and the host's time consistently, on either engine
// (the suite runs this file on both). Host seconds are never compared with fixed values, only with each other.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstddef>
#include <vector>

#include "hcemu/hcemu.hpp"
#include "hcemu/kernels/exchange.hpp"
#include "hcemu/model/transfer.hpp"

namespace hcemu {
namespace {

// Every node sends one block of `bytes` to every other, in steps of XOR partners (a Direct exchange), with a barrier
// first so that no FORCED message arrives before its receive.
void direct_exchange_of(Node& node, std::size_t bytes) {
  const int p = node.size();
  std::vector<std::byte> out(static_cast<std::size_t>(p) * bytes), in(static_cast<std::size_t>(p) * bytes);
  node.barrier();
  for (int j = 1; j < p; ++j) {
    const int partner = node.id() ^ j;
    const auto at = static_cast<std::size_t>(partner) * bytes;
    node.exchange(partner, std::span(out).subspan(at, bytes), std::span(in).subspan(at, bytes), 1);
  }
}

void direct_exchange(Node& node) { direct_exchange_of(node, 16); }

MachineConfig cube(int d) {
  MachineConfig config;
  config.d = d;
  return config;
}

// With costs, so that every transfer has a lead (docs/engine.md, "Placing in parallel"); the default config has none.
MachineConfig costed_cube(int d) {
  MachineConfig config = cube(d);
  config.lambda = 50;
  config.tau = 0.5;
  return config;
}

// Two workers, with the statistics on; `share_from`: EmulatorSettings::placing_share_from.
RunReport run_with_stats(const MachineConfig& config,
                         std::size_t share_from = EmulatorSettings{}.placing_share_from) {
  EmulatorSettings settings;
  settings.engine_stats = true;
  settings.workers = 2;
  settings.placing_share_from = share_from;
  return Machine(config, settings).run(direct_exchange);
}

TEST(EngineStats, NoneUnlessAsked) {
  const RunReport report = Machine(cube(3)).run(direct_exchange);
  EXPECT_FALSE(report.engine_stats.has_value());
}

TEST(EngineStats, CountWhatThePlacerDidAndAddUpInTime) {
  const RunReport report = run_with_stats(costed_cube(4));
  ASSERT_TRUE(report.engine_stats.has_value());
  const EngineStats& s = *report.engine_stats;
  // Every message is one transfer of one hop under circuit switching, placed once: by the placer, or at once by its
  // sender where nothing could contend with it.
  EXPECT_EQ(s.transfers_placed + s.placed_by_senders, report.messages());
  EXPECT_GT(s.transfers_placed, 0u);
  EXPECT_EQ(report.messages(), 16u * 15u);
  EXPECT_GE(s.placement_passes, 1u);
  // Every transfer here is ready together with the others of its step, and the least time from a ready time to what
  // a placing brings is the shortest of them, a 16-byte message over one hop (docs/model.md §3): whole steps go in
  // one batch each.
  EXPECT_EQ(s.lookahead, model::message_time(costed_cube(4), 16, 1));
  EXPECT_GE(s.batches, 1u);
  EXPECT_LE(s.batches, s.transfers_placed);
  EXPECT_LE(s.transfers_shared, s.transfers_placed);
  EXPECT_GE(s.shared_seconds, 0.0);
  EXPECT_LE(s.shared_seconds, s.placing_seconds);
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
    // The placer runs on some worker, inside a node's slice or as that worker's queue runs dry: its time is charged
    // there, all of it; a worker that joins a shared level is charged its part of it besides, at most the level's time.
    EXPECT_GE(placing, s.placing_seconds * (1 - 1e-9) - 1e-9);
    EXPECT_LE(placing, s.placing_seconds + s.shared_seconds * (s.workers - 1) + 1e-3);
    EXPECT_GE(slices, 16u);  // every node ran at least once
  } else {
    EXPECT_EQ(s.engine, "os_threads");
    EXPECT_EQ(s.workers, 16);
    EXPECT_TRUE(s.per_worker.empty());
  }
}

// With every level of two or more shared (EmulatorSettings::placing_share_from), the tasks engine places whole steps
// in shared levels: a step's transfers share no link, sender or receiver. The count does not depend on which
// workers joined; os_threads has no workers to share with.
TEST(EngineStats, CountTheTransfersPlacedInSharedLevels) {
  const RunReport report = run_with_stats(costed_cube(4), 2);
  ASSERT_TRUE(report.engine_stats.has_value());
  const EngineStats& s = *report.engine_stats;
  if (report.settings.engine == EngineKind::tasks)
    EXPECT_EQ(s.transfers_shared, s.transfers_placed);
  else
    EXPECT_EQ(s.transfers_shared, 0u);
}

// A step j of the Direct exchange is a step of pairs along j: one batch of its transfers, and under store-and-forward
// one per hop of its routes, each hop ready once the one before has brought its first packet (docs/engine.md,
// "Placing in parallel"). Steps j = 1 cross dimension-0 links only, which their senders place. A circuit's pair
// shares both its nodes, so each batch is two levels. A store-and-forward hop touches its sender on the first hop
// only and its receiver on the last only: a batch of hops is one level, except on routes of one hop (j = 2^k), where
// a pair's two hops share both nodes again. On the tasks engine every circuit's step is taken whole (no queue, one
// ready time, one mask); a store-and-forward hop's is not.
TEST(EngineStats, CountTheLevelsOfAStepOfPairs) {
  constexpr int d = 5, p = 1 << d;
  for (Switching switching : {Switching::circuit, Switching::store_and_forward}) {
    SCOPED_TRACE(switching == Switching::circuit ? "circuit" : "store-and-forward");
    MachineConfig config = costed_cube(d);
    config.switching = switching;
    const RunReport report = run_with_stats(config, 2);
    ASSERT_TRUE(report.engine_stats.has_value());
    const EngineStats& s = *report.engine_stats;
    std::uint64_t batches = 0, levels = 0;
    for (int j = 2; j < p; ++j) {
      const auto hops = static_cast<std::uint64_t>(std::popcount(static_cast<unsigned>(j)));
      if (switching == Switching::circuit) {
        batches += 1;
        levels += 2;
      } else {
        batches += hops;
        levels += hops == 1 ? 2 : hops;
      }
    }
    EXPECT_EQ(s.batches, batches);
    EXPECT_EQ(s.shared_levels, report.settings.engine == EngineKind::tasks ? levels : 0u);
    const bool whole = report.settings.engine == EngineKind::tasks && switching == Switching::circuit;
    EXPECT_EQ(s.steps_whole, whole ? batches : 0u);
  }
}

// Every node of a 4-cube sends to its partner across three dimensions at 0, 1, 2 or 3 µs (its id mod 4): ready within
// one lead of each other, the 16 transfers are one batch. With the lookahead limited to half a microsecond
// (EmulatorSettings::placing_lookahead_limit) they are four, one per ready time, with the same clocks, and the limit is
// the lookahead reported.
TEST(EngineStats, ALookaheadLimitNarrowsTheBatches) {
  const Kernel staggered = [](Node& node) {
    node.elapse(from_us(node.id() % 4));
    std::vector<std::byte> in(64);
    node.exchange(node.id() ^ 7, std::vector<std::byte>(64), in);
  };
  EmulatorSettings settings;
  settings.engine_stats = true;
  settings.workers = 2;
  const MachineConfig config = costed_cube(4);
  const RunReport whole = Machine(config, settings).run(staggered);
  settings.placing_lookahead_limit = 0.5;
  const RunReport narrow = Machine(config, settings).run(staggered);
  ASSERT_TRUE(whole.engine_stats && narrow.engine_stats);
  EXPECT_EQ(whole.engine_stats->batches, 1u);
  EXPECT_EQ(narrow.engine_stats->batches, 4u);
  EXPECT_EQ(whole.engine_stats->lookahead, model::message_time(config, 64, 3));
  EXPECT_EQ(narrow.engine_stats->lookahead, from_us(0.5));
  EXPECT_EQ(narrow.engine_stats->lookahead_limit, from_us(0.5));
  EXPECT_EQ(whole.engine_stats->lookahead_limit, 0);
  EXPECT_EQ(narrow.engine_stats->transfers_placed, 16u);
  ASSERT_EQ(whole.nodes.size(), narrow.nodes.size());
  for (std::size_t i = 0; i < whole.nodes.size(); ++i)
    EXPECT_EQ(whole.nodes[i].final_clock, narrow.nodes[i].final_clock) << "node " << i;
}

// Where a transfer brings its events at its very ready time (no costs), each is placed alone.
TEST(EngineStats, NoLookaheadWithoutCosts) {
  const RunReport report = run_with_stats(cube(4));
  ASSERT_TRUE(report.engine_stats.has_value());
  EXPECT_EQ(report.engine_stats->lookahead, 0);
  EXPECT_EQ(report.engine_stats->batches, report.engine_stats->transfers_placed);
  EXPECT_EQ(report.engine_stats->transfers_shared, 0u);
}

// With placing_early, a worker whose nodes have all stopped places what no running node can still come before
// (docs/engine.md, "Placing while others run"). Here the nodes of the second worker's home (the upper half) spin on
// the host before they send, so the first worker's nodes, which exchange among themselves at once (across a dimension
// that other routes share, so that the placer places them), stop first: their transfers, ready at 0 from lower nodes
// than any still running, are placed in an early pass. Its time is placing,
// but not serial. The clocks are those of a run without. On the tasks engine the upper half spins until the lower half
// has exchanged (at most 2 s), not for a fixed time that a loaded host could spend elsewhere; with one thread per
// node nothing is placed until every node stops, so there it spins 2 ms.
TEST(EngineStats, CountThePassesPlacedWhileOthersRun) {
  EmulatorSettings settings;
  settings.engine_stats = true;
  settings.workers = 2;
  settings.placing_early = true;
  const bool tasks = settings.engine == EngineKind::tasks;
  std::atomic<int> lower_exchanged{0};
  const Kernel kernel = [&](Node& node) {
    const int half = node.size() / 2;
    if (node.id() >= half) {
      const auto until =
          std::chrono::steady_clock::now() + (tasks ? std::chrono::milliseconds(2000) : std::chrono::milliseconds(2));
      while (std::chrono::steady_clock::now() < until && !(tasks && lower_exchanged.load() >= half)) {
      }
    }
    std::vector<std::byte> in(16);
    node.exchange(node.id() ^ (half / 2), std::vector<std::byte>(16), in);  // across a link others reach: placed
    if (node.id() < half) lower_exchanged.fetch_add(1);
    direct_exchange(node);
  };
  const MachineConfig config = costed_cube(5);
  const RunReport early = Machine(config, settings).run(kernel);
  settings.placing_early = false;
  const RunReport once = Machine(config, settings).run(kernel);
  ASSERT_TRUE(early.engine_stats && once.engine_stats);
  EXPECT_EQ(early.makespan, once.makespan);
  ASSERT_EQ(early.nodes.size(), once.nodes.size());
  for (std::size_t i = 0; i < once.nodes.size(); ++i)
    EXPECT_EQ(early.nodes[i].final_clock, once.nodes[i].final_clock) << "node " << i;
  const EngineStats& s = *early.engine_stats;
  EXPECT_LE(s.early_passes, s.placement_passes);
  EXPECT_LE(s.early_seconds, s.placing_seconds);
  EXPECT_EQ(once.engine_stats->early_passes, 0u);
  EXPECT_EQ(once.engine_stats->early_seconds, 0.0);
  if (early.settings.engine == EngineKind::tasks) {
    EXPECT_GT(s.early_passes, 0u);
    EXPECT_GT(s.early_seconds, 0.0);
  } else {
    EXPECT_EQ(s.early_passes, 0u);  // os_threads has no workers: it places once every node has stopped
  }
  EXPECT_NEAR(s.serial_fraction() * s.wall_seconds,
              std::max(0.0, s.placing_seconds - s.shared_seconds - s.waiting_seconds - s.early_seconds), 1e-12);
}

// On k:N ports a sender waits for its transfers to be placed only to learn which channel frees first, so the release
// of a transfer that ends its sender's wait bounds a pass at the transfer's ready time (docs/engine.md, "Placing
// transfers in model time"). A release that ends no wait bounds nothing: the library's Direct exchange waits for the
// partner's message in each step, not for its send, and a step is one pass, as on one port. On one worker no node
// woken in a pass runs before the pass ends, so the count is exact there.
TEST(EngineStats, AStepOfTheDirectExchangeIsOnePassOnKPortsToo) {
  EmulatorSettings settings;
  settings.engine_stats = true;
  settings.workers = 1;
  if (settings.engine != EngineKind::tasks) GTEST_SKIP() << "one thread per node: woken nodes run during a pass";
  constexpr int d = 5;
  constexpr std::size_t m = 16;
  const Kernel direct = [](Node& node) {
    const std::vector<std::byte> send(static_cast<std::size_t>(node.size()) * m);
    std::vector<std::byte> recv(send.size());
    kernels::direct_exchange(node, send, recv, m);
  };
  for (const char* ports : {"one", "k:2", "k:3"}) {
    SCOPED_TRACE(ports);
    MachineConfig config = costed_cube(d);
    config.ports = Ports::parse(ports);
    const RunReport report = Machine(config, settings).run(direct);
    ASSERT_TRUE(report.engine_stats.has_value());
    EXPECT_EQ(report.engine_stats->placement_passes, (1u << d) - 1);
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

// A machine that runs twice reports each run's own figures: the second run's blocks are larger, so its lookahead is
// larger, and what it placed and shared is its own.
TEST(EngineStats, StartAfreshEachRun) {
  EmulatorSettings settings;
  settings.engine_stats = true;
  settings.workers = 2;
  settings.placing_share_from = 2;
  const MachineConfig config = costed_cube(4);
  Machine machine(config, settings);
  const RunReport first = machine.run(direct_exchange);
  const RunReport second = machine.run([](Node& node) { direct_exchange_of(node, 64); });
  ASSERT_TRUE(first.engine_stats && second.engine_stats);
  const EngineStats& a = *first.engine_stats;
  const EngineStats& b = *second.engine_stats;
  EXPECT_EQ(a.transfers_placed, b.transfers_placed);
  EXPECT_GE(b.placement_passes, 1u);
  EXPECT_EQ(a.lookahead, model::message_time(config, 16, 1));
  EXPECT_EQ(b.lookahead, model::message_time(config, 64, 1));
  EXPECT_EQ(a.transfers_shared, b.transfers_shared);
  EXPECT_LE(b.transfers_shared, b.transfers_placed);
  EXPECT_GE(b.batches, 1u);
  EXPECT_LE(b.batches, b.transfers_placed);
  EXPECT_LE(b.shared_seconds, b.placing_seconds);
  if (second.settings.engine == EngineKind::tasks) {
    EXPECT_EQ(b.transfers_shared, b.transfers_placed);  // each step is one level of two or more
  }
}

}  // namespace
}  // namespace hcemu
