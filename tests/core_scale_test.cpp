// docs/model.md §1: up to d = 13, 8192 node threads, within the machine's memory.
#include <gtest/gtest.h>

#include "core_support.hpp"

namespace hcemu {
namespace {

TEST(Scale, ThirteenDimensionalMachineRunsANeighbourExchange) {
#if defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "ThreadSanitizer supports fewer live threads than the 8192 of a 13-cube";
#endif
  EmulatorSettings settings;
  settings.stack_bytes = 64 << 10;
  settings.arena_bytes = 1 << 16;
  Machine machine(test::round_config(13), settings);
  const auto report = machine.run([](Node& node) {
    std::array<std::byte, 8> out{}, in{};
    node.exchange(node.neighbor(12), out, in);
    node.barrier();
  });
  ASSERT_EQ(report.nodes.size(), 8192u);
  // One pairwise exchange of 8 bytes over one hop, then Q(13).
  const Time expected = test::us(10 + 2 + 1 + 0.5 * 8) + test::us(3 + 4 * 13);
  for (const auto& n : report.nodes) EXPECT_EQ(n.final_clock, expected);
  EXPECT_EQ(report.messages(), 8192u);
}

}  // namespace
}  // namespace hcemu
