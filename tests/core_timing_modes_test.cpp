// docs/model.md §8: virtual timing is deterministic; wall timing agrees with it.
#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <thread>

#include "core_support.hpp"
#include "hcemu/report_json.hpp"

namespace hcemu {
namespace {

using test::round_config;
using test::us;

// An all-to-all with every receive posted up front, then the XOR schedule of sends, with the kernel itself
// yielding at random between operations.
Kernel all_to_all(std::uint64_t seed) {
  return [seed](Node& node) {
    std::mt19937_64 rng(seed * 1000 + static_cast<std::uint64_t>(node.id()));
    const int n = node.size();
    std::vector<std::vector<std::byte>> in(static_cast<std::size_t>(n), std::vector<std::byte>(24));
    std::vector<Request> recvs, sends;
    for (int k = 1; k < n; ++k) recvs.push_back(node.post_recv(node.id() ^ k, in[static_cast<std::size_t>(k)]));
    std::vector<std::byte> out(24, std::byte(node.id()));
    for (int k = 1; k < n; ++k) {
      if (rng() % 3 == 0) std::this_thread::yield();
      sends.push_back(node.isend(node.id() ^ k, out));
      node.wait(recvs[static_cast<std::size_t>(k - 1)]);
    }
    node.wait_all(sends);
    node.barrier();
  };
}

TEST(Virtual, SameKernelGivesIdenticalClocksInEveryRun) {
  auto config = round_config(4);
  std::vector<Time> first;
  for (unsigned run = 1; run <= 50; ++run) {
    EmulatorSettings settings;
    settings.yield_seed = run;
    Machine machine(config, settings);
    auto report = machine.run(all_to_all(run));
    std::vector<Time> clocks;
    for (const auto& n : report.nodes) clocks.push_back(n.final_clock);
    if (run == 1) first = clocks;
    else ASSERT_EQ(clocks, first) << "run " << run;
    EXPECT_EQ(report.contention_events(), 0u);
  }
  Time expected = 0;
  for (int k = 1; k < 16; ++k) expected += us(10 + 2 + std::popcount(static_cast<unsigned>(k)) + 0.5 * 24);
  EXPECT_EQ(first[0], expected + us(3 + 4 * 4));
}

TEST(Native, InjectsNoDelay) {
  EmulatorSettings settings;
  settings.timing = Timing::native;
  const auto report = Machine(round_config(2), settings).run([](Node& node) {
    node.elapse(from_us(1e6));  // a second of model time is not waited for
    node.barrier();
  });
  EXPECT_LT(report.wall_seconds, 0.5);
}

TEST(Trace, RecordsSpansForTransfersAndBarriers) {
  EmulatorSettings settings;
  settings.trace = true;
  const auto report = Machine(round_config(1), settings).run([](Node& node) {
    std::vector<std::byte> buf(8);
    node.exchange(node.neighbor(0), buf, buf);
    node.barrier();
  });
  int sends = 0, barriers = 0;
  for (const auto& s : report.trace) {
    sends += s.kind == "send";
    barriers += s.kind == "barrier";
  }
  EXPECT_EQ(sends, 2);
  EXPECT_EQ(barriers, 2);
  const auto trace = to_chrome_trace(report);
  EXPECT_TRUE(trace.contains("traceEvents"));
}

}  // namespace
}  // namespace hcemu
