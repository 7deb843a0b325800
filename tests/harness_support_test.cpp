// The shared pieces of the harness: verification, and what `--algo all` takes from the algorithms' rows.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "harness/verification.hpp"
#include "hcemu/machine.hpp"

namespace hcemu::harness {
namespace {

TEST(FirstFailure, NoReportMeansVerified) {
  FirstFailure failure;
  KernelResult result;
  failure.record_into(result, Machine(MachineConfig{}));
  EXPECT_TRUE(result.verified);
  EXPECT_TRUE(result.verify_message.empty());
}

TEST(FirstFailure, KeepsOneOfTheConcurrentReportsWhole) {
  FirstFailure failure;
  std::vector<std::thread> nodes;
  for (int i = 0; i < 8; ++i) nodes.emplace_back([&, i] { failure.report("node " + std::to_string(i) + ": wrong"); });
  for (auto& t : nodes) t.join();
  KernelResult result;
  failure.record_into(result, Machine(MachineConfig{}));
  EXPECT_FALSE(result.verified);
  EXPECT_EQ(result.verify_message.substr(0, 5), "node ");
  EXPECT_EQ(result.verify_message.substr(result.verify_message.size() - 7), ": wrong");
  EXPECT_LE(result.verify_message.size(), std::string("node 7: wrong").size());
}

TEST(ExpandAll, LeavesAllPortAlgorithmsOutOnOtherPorts) {
  KernelFamily family;
  family.name = "toy";
  Algorithm a, b;
  a.name = "a";
  b.name = "b";
  b.ports = {Ports::Kind::all};
  family.algorithms = {a, b};
  MachineConfig config;
  EXPECT_EQ(family.expand_all(config, KernelCase{}).size(), 1u);
  config.ports = Ports::parse("all");
  const auto cases = family.expand_all(config, KernelCase{});
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[1].algo, "b");
}

}  // namespace
}  // namespace hcemu::harness
