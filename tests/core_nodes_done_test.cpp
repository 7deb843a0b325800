// EmulatorSettings::nodes_done and model_time_placed: how far a run is, for a progress display.
#include <gtest/gtest.h>

#include <atomic>
#include <span>
#include <vector>

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

// Every node sends a block to every other at once: routes of two and three hops share links, so the placer places
// them in model time. What it says it has reached is the ready time of a transfer it placed: after the start, before
// the end (a transfer takes a start-up at least), and the same in every run.
TEST(ModelTimePlaced, ThePlacerSaysHowFarItIsInModelTime) {
  std::atomic<Time> placed{-1};
  EmulatorSettings settings;
  settings.model_time_placed = &placed;
  Machine machine(test::round_config(3), settings);
  const Kernel all_to_all = [](Node& node) {
    std::vector<std::byte> out(8), in(8 * static_cast<std::size_t>(node.size()));
    std::vector<Request> requests;
    for (int peer = 0; peer < node.size(); ++peer)
      if (peer != node.id()) {
        requests.push_back(node.post_recv(peer, std::span(in).subspan(8 * static_cast<std::size_t>(peer), 8), 0));
        requests.push_back(node.isend(peer, out, 0));
      }
    node.wait_all(requests);
  };
  const RunReport report = machine.run(all_to_all);
  const Time first = placed.load();
  EXPECT_GT(first, 0);
  EXPECT_LT(first, report.makespan);
  placed.store(-1);
  machine.run(all_to_all);
  EXPECT_EQ(placed.load(), first);
}

}  // namespace
}  // namespace hcemu
