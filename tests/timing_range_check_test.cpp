// timing::RangeCheck passes the common transfer without the wide arithmetic; whatever it passes at once must be in
// the model's range, so it must throw exactly where check_packets_in_range throws. Checked over cost tables from the
// default to every parameter at its largest, and transfers around each of its bounds (size, hops, ready time).
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "common/cost_table.hpp"
#include "hcemu/errors.hpp"
#include "timing/transfer.hpp"

namespace hcemu::timing {
namespace {

bool throws(const auto& check) {
  try {
    check();
    return false;
  } catch (const TimeOverflow&) {
    return true;
  }
}

struct Table {
  std::string name;
  CostTable cost;
};

std::vector<Table> tables() {
  constexpr Time kLargest = 1'000'000'000'000'000;  // 1e9 µs, the largest a config takes
  std::vector<Table> out;
  out.push_back({"zero", CostTable{}});
  CostTable ipsc;
  ipsc.lambda = ipsc.lambda0 = 95'000'000;
  ipsc.tau = 394'000;
  ipsc.delta_hop = 10'000'000;
  out.push_back({"ipsc", ipsc});
  CostTable packets = ipsc;
  packets.packet = 1024;
  packets.short_limit = 100;
  packets.lambda_short = 50'000'000;
  packets.tau_short = 500'000;
  out.push_back({"packets", packets});
  for (Time CostTable::*field : {&CostTable::lambda, &CostTable::tau, &CostTable::delta_hop, &CostTable::delta_msg,
                                 &CostTable::tau_short}) {
    CostTable large = packets;
    large.*field = kLargest;
    out.push_back({"one parameter at 1e9 us", large});
  }
  CostTable tau_large = ipsc;
  tau_large.tau = 1'000'000'000;  // 1 ms per byte: 1 MiB passes a quarter of the range
  out.push_back({"tau 1 ms", tau_large});
  return out;
}

TEST(RangeCheck, ThrowsExactlyWhereTheFullCheckThrows) {
  const std::vector<std::size_t> sizes = {0,         1,         64,        65,         4096,           4097,
                                          1u << 20, (1u << 20) + 1, 1u << 24, std::size_t{1} << 34};
  const std::vector<int> hop_counts = {0, 1, 10, 64, 65, 200};
  const std::vector<Time> readies = {0, 1'000'000, kTimeLimit / 4, kTimeLimit / 2, kTimeLimit / 2 + 1,
                                     kTimeLimit - 1'000'000'000'000, kTimeLimit};
  int checked = 0, overflows = 0;
  for (const Table& table : tables()) {
    const RangeCheck check(table.cost);
    for (std::size_t bytes : sizes)
      for (int hops : hop_counts)
        for (Time ready : readies) {
          Transfer t;
          t.bytes = bytes;
          t.key.ready = ready;
          for (int h = 0; h < hops; ++h) t.route.links.push_back(h);
          const bool full = throws([&] { check_packets_in_range(table.cost, t); });
          EXPECT_EQ(throws([&] { check(t); }), full)
              << table.name << ": " << bytes << " bytes, " << hops << " hops, ready at " << ready << " ps";
          ++checked;
          overflows += full ? 1 : 0;
        }
  }
  // Both outcomes are among the cases.
  EXPECT_GT(overflows, 0);
  EXPECT_LT(overflows, checked);
}

}  // namespace
}  // namespace hcemu::timing
