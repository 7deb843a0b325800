// EmulatorSettings::nodes_done: a run counts each node whose kernel has returned, for a progress display.
#include <gtest/gtest.h>

#include <atomic>

#include "core_support.hpp"

namespace hcemu {
namespace {

TEST(NodesDone, EachNodeCountsOnceWhenItsKernelReturns) {
  std::atomic<std::uint64_t> done{0};
  EmulatorSettings settings;
  settings.nodes_done = &done;
  Machine machine(test::round_config(3), settings);
  machine.run([](Node& node) { node.barrier(); });
  EXPECT_EQ(done.load(), 8u);
  machine.run([](Node&) {});  // a second run of the same machine counts on
  EXPECT_EQ(done.load(), 16u);
}

TEST(NodesDone, NothingReturnedNothingCountedBeforeTheBarrier) {
  std::atomic<std::uint64_t> done{0};
  std::atomic<std::uint64_t> seen_before_barrier{99};  // no node returns before every node is at the barrier
  EmulatorSettings settings;
  settings.nodes_done = &done;
  Machine machine(test::round_config(2), settings);
  machine.run([&](Node& node) {
    if (node.id() == 0) seen_before_barrier = done.load();
    node.barrier();
  });
  EXPECT_EQ(seen_before_barrier.load(), 0u);
  EXPECT_EQ(done.load(), 4u);
}

}  // namespace
}  // namespace hcemu
