// The shared pieces of the kernel registry entries.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "kernels/registry_support.hpp"

namespace hcemu::kernels {
namespace {

TEST(FirstFailure, NoReportMeansVerified) {
  FirstFailure failure;
  KernelResult result;
  failure.record_into(result);
  EXPECT_TRUE(result.verified);
  EXPECT_TRUE(result.verify_message.empty());
}

TEST(FirstFailure, KeepsOneOfTheConcurrentReportsWhole) {
  FirstFailure failure;
  std::vector<std::thread> nodes;
  for (int i = 0; i < 8; ++i) nodes.emplace_back([&, i] { failure.report("node " + std::to_string(i) + ": wrong"); });
  for (auto& t : nodes) t.join();
  KernelResult result;
  failure.record_into(result);
  EXPECT_FALSE(result.verified);
  EXPECT_EQ(result.verify_message.substr(0, 5), "node ");
  EXPECT_EQ(result.verify_message.substr(result.verify_message.size() - 7), ": wrong");
  EXPECT_LE(result.verify_message.size(), std::string("node 7: wrong").size());
}

TEST(CasesForEachAlgo, LeavesAllPortAlgorithmsOutOnOtherPorts) {
  MachineConfig config;
  const std::vector<std::string> algos = {"a", "b"};
  EXPECT_EQ(cases_for_each_algo(config, KernelCase{}, algos, {"b"}).size(), 1u);
  config.ports = Ports::parse("all");
  const auto cases = cases_for_each_algo(config, KernelCase{}, algos, {"b"});
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[1].algo, "b");
}

}  // namespace
}  // namespace hcemu::kernels
