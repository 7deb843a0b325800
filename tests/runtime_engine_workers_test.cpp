// How many workers the task engine starts (runtime/engine.hpp, EmulatorSettings::workers): the number asked for, or
// one per core, but never more than a run's nodes, since a worker beyond them only spins and is waited for
// (`--workers 1000` on 32 nodes took 7.3 s instead of 0.02 s).
#include <gtest/gtest.h>

#include <atomic>
#include <memory>

#include "hcemu/hcemu.hpp"
#include "runtime/engine.hpp"

namespace hcemu::detail {
namespace {

EngineOptions asking_for(int workers, int nodes) {
  EngineOptions options;
  options.workers = workers;
  options.nodes = nodes;
  options.stack_bytes = 64u << 10;
  return options;
}

TEST(TaskEngineWorkers, NoMoreThanTheNodes) {
  const std::unique_ptr<Engine> engine = make_task_engine(asking_for(1000, 32));
  EXPECT_EQ(engine->workers(), 32);
  std::atomic<int> ran{0};
  engine->run(32, [&](int) { ran.fetch_add(1, std::memory_order_relaxed); }, [] {});
  EXPECT_EQ(ran.load(), 32);
}

TEST(TaskEngineWorkers, AsManyAsAskedForWhenTheNodesAreMore) {
  EXPECT_EQ(make_task_engine(asking_for(3, 32))->workers(), 3);
  EXPECT_EQ(make_task_engine(asking_for(3, 0))->workers(), 3);  // 0 nodes: no cap
}

TEST(TaskEngineWorkers, OnePerCoreIsCappedToo) {
  EXPECT_EQ(make_task_engine(asking_for(0, 1))->workers(), 1);
  EXPECT_GE(make_task_engine(asking_for(0, 0))->workers(), 1);
}

TEST(TaskEngineWorkers, AMachineWithFarMoreWorkersThanNodesRunsAsWithFew) {
  MachineConfig config;
  config.d = 5;
  EmulatorSettings many;
  many.engine = EngineKind::tasks;
  many.workers = 1000;
  EmulatorSettings one = many;
  one.workers = 1;
  const auto kernel = [](Node& node) {
    std::byte b{};
    for (int k = 0; k < node.dim(); ++k) node.exchange(node.neighbor(k), std::span(&b, 1), std::span(&b, 1), k);
  };
  EXPECT_EQ(Machine(config, many).run(kernel).makespan, Machine(config, one).run(kernel).makespan);
}

}  // namespace
}  // namespace hcemu::detail
