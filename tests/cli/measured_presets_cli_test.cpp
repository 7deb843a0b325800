// The preset ipsc860-measured against the points Nicol & Bokhari (1994) §4 report as measured on the iPSC/860
// (docs/configs.md, "Measured points"): each within 5% of the paper's value, from the closed forms of
// docs/model.md §9 and §13, and the emulated run equal to its closed form. The paper's values are read off its text.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <vector>

#include "cli/config_loader.hpp"
#include "hcemu/hcemu.hpp"
#include "hcemu/kernels/exchange.hpp"
#include "hcemu/model/exchange.hpp"
#include "hcemu/model/planner.hpp"

namespace hcemu::cli {
namespace {

MachineConfig measured(int d) {
  MachineConfig c = load_config("ipsc860-measured");
  c.d = d;
  c.delta_msg = 5.15 * d;  // the preset's delta_msg_per_d, resolved for this d
  return c;
}

void expect_within_5_percent(double hcemu, double paper, const char* what) {
  EXPECT_LE(std::abs(hcemu - paper), 0.05 * paper) << what << ": hcemu " << hcemu << ", paper " << paper;
}

// The first whole block size from which `partition` is the optimal one.
std::size_t first_optimal(const MachineConfig& config, const model::Partition& partition, std::size_t from) {
  for (std::size_t m = from; m < 1000; ++m)
    if (model::optimal_partition_by_enumeration(config, m, Sync::pairwise).partition == partition) return m;
  return 0;
}

TEST(MeasuredPresets, Ipsc860MeasuredKeepsIpsc860AndAddsTheShortProtocol) {
  const MachineConfig c = load_config("ipsc860-measured");
  EXPECT_EQ(c.d, 5);
  EXPECT_DOUBLE_EQ(c.lambda, 95.0);
  EXPECT_DOUBLE_EQ(c.delta_msg, 5.15 * 5);
  EXPECT_EQ(c.short_limit, 100u);  // "messages of 100 bytes or fewer are treated differently"
  ASSERT_TRUE(c.lambda_short.has_value());
  ASSERT_TRUE(c.tau_short.has_value());
}

// Figure 2 (d = 5): "the observed cost for DE with 1 byte messages is approximately 7 msec".
TEST(MeasuredPresets, DirectExchangeOfOneByteBlocksOnFiveDimensions) {
  const MachineConfig config = measured(5);
  const Time predicted = model::direct_exchange_time(config, 1, Sync::pairwise);
  expect_within_5_percent(to_us(predicted), 7000.0, "DE, d = 5, m = 1");

  Machine machine(config);
  const std::size_t n = std::size_t{1} << config.d;
  auto report = machine.run([&](Node& node) {
    std::vector<std::byte> send(n, std::byte{1}), recv(n);
    kernels::direct_exchange(node, send, recv, 1, {Sync::pairwise});
  });
  EXPECT_EQ(report.makespan, predicted);
  EXPECT_TRUE(report.forced_discards.empty());
}

// Figure 2: (2, 3) "has lower cost than DE for all message sizes up to about 100 bytes, after which DE is better".
TEST(MeasuredPresets, FiveDimensionsSwitchToDirectNearOneHundredBytes) {
  const MachineConfig config = measured(5);
  EXPECT_EQ(model::optimal_partition_by_enumeration(config, 1, Sync::pairwise).partition, (model::Partition{2, 3}));
  expect_within_5_percent(static_cast<double>(first_optimal(config, {5}, 1)), 100.0, "d = 5: DE optimal from");
}

// Figure 3 (d = 6): "at m ≈ 32 the cost of DE and SE are equal".
TEST(MeasuredPresets, SixDimensionsDirectAndStandardCrossNearThirtyTwoBytes) {
  const MachineConfig config = measured(6);
  std::size_t m = 1;
  while (model::direct_exchange_time(config, m, Sync::pairwise) > model::standard_exchange_time(config, m, Sync::pairwise))
    ++m;
  expect_within_5_percent(static_cast<double>(m), 32.0, "d = 6: DE no dearer than SE from");
}

}  // namespace
}  // namespace hcemu::cli
