// The exchange and transpose registry entries run every algorithm, verify it, and predict its time exactly.
#include <gtest/gtest.h>

#include "harness/algorithm.hpp"
#include "hcemu/errors.hpp"

namespace hcemu::harness {
namespace {

MachineConfig config_for(int d, const char* ports) {
  MachineConfig c;
  c.d = d;
  c.lambda = 95.0;
  c.tau = 0.394;
  c.delta_msg = 5.15;
  c.rho = 0.54;
  c.barrier_b = 150;
  c.ports = Ports::parse(ports);
  return c;
}

void expect_all_cases_verified_and_predicted(const KernelFamily& info, const MachineConfig& config, KernelCase base) {
  for (const KernelCase& c : info.expand_all(config, base)) {
    const KernelResult r = info.run(config, {}, c);
    EXPECT_TRUE(r.verified) << info.name << " " << c.algo << ": " << r.verify_message;
    ASSERT_TRUE(r.predicted.has_value()) << info.name << " " << c.algo;
    EXPECT_EQ(r.report.makespan, *r.predicted) << info.name << " " << c.algo;
    EXPECT_EQ(info.predict(config, c), r.predicted) << info.name << " " << c.algo;
  }
}

TEST(ExchangeRegistry, EveryExpandedCaseVerifiesInItsPredictedTime) {
  KernelCase base;
  base.m = 60;
  for (const char* ports : {"one", "all"})
    expect_all_cases_verified_and_predicted(exchange_family(), config_for(4, ports), base);
}

TEST(ExchangeRegistry, AutoReportsThePartitionItRan) {
  KernelCase c;
  c.algo = "auto";
  c.m = 16;
  const KernelResult r = exchange_family().run(config_for(5, "one"), {}, c);
  EXPECT_TRUE(r.verified);
  int sum = 0;
  for (int p : r.run_case.params.parts("partition")) sum += p;
  EXPECT_EQ(sum, 5);
  EXPECT_EQ(r.predicted, r.report.makespan);
}

TEST(ExchangeRegistry, UnknownAlgoIsAUsageError) {
  KernelCase c;
  c.algo = "bogus";
  EXPECT_THROW(exchange_family().run(config_for(2, "one"), {}, c), UsageError);
}

TEST(TransposeRegistry, EveryExpandedCaseVerifiesInItsPredictedTime) {
  KernelCase base;
  base.m = 36;  // 3 x 3 blocks of 4-byte elements
  for (const char* ports : {"one", "all"})
    expect_all_cases_verified_and_predicted(transpose_family(), config_for(4, ports), base);
}

}  // namespace
}  // namespace hcemu::harness

namespace hcemu::harness {
namespace {

TEST(Registry, ListsTheKernelFamiliesAndFindsThemByName) {
  std::vector<std::string> names;
  for (const KernelFamily& k : families()) names.emplace_back(k.name);
  EXPECT_EQ(names, (std::vector<std::string>{"exchange", "transpose", "broadcast", "allgather", "histogram", "reduce",
                                             "matmul", "long-send", "scatter", "gather", "permutation"}));
  EXPECT_EQ(find_family("transpose").name, "transpose");
}

TEST(Registry, UnknownKernelNameIsAUsageErrorNamingTheKnownOnes) {
  try {
    find_family("fft");
    ADD_FAILURE() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("exchange, transpose"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hcemu::harness
