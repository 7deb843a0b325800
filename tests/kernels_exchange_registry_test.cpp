// The exchange and transpose registry entries run every algorithm, verify it, and predict its time exactly.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

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

TEST(ExchangeRegistry, OnATorusAllIsT1TheT1xT2AndTheDirectBaseline) {
  // Suh, Shin & An on the 2^k x 2^k torus: k = 5 has T1 (x = 2), T1.1 and T2; k = 4 has T1 (= T1.1) and T2; k = 3
  // only T2 (T1 is T2). Under Sync::barrier each runs in its closed form (model::torus_exchange_time); Direct, the
  // baseline that ignores the topology, runs verified and without a prediction.
  const std::map<int, std::vector<std::string>> expected = {
      {3, {"direct", "t2"}}, {4, {"direct", "t1", "t2"}}, {5, {"direct", "t1", "t1.1", "t2"}}};
  for (const auto& [k, algos] : expected) {
    MachineConfig config = config_for(2 * k, "one");
    config.topology = Topology::parse("torus");
    KernelCase base;
    base.m = 4;
    base.sync = Sync::barrier;
    std::vector<std::string> names;
    for (const KernelCase& c : exchange_family().expand_all(config, base)) names.push_back(c.algo);
    EXPECT_EQ(names, algos) << "k=" << k;
    if (k == 5) continue;  // direct on 1024 nodes is a million messages; k = 3 and 4 run them all
    for (const KernelCase& c : exchange_family().expand_all(config, base)) {
      const KernelResult r = exchange_family().run(config, {}, c);
      EXPECT_TRUE(r.verified) << c.algo << ": " << r.verify_message;
      if (c.algo == "direct") {
        EXPECT_FALSE(r.predicted.has_value());
        EXPECT_GT(r.report.contention_events(), 0u);
        continue;
      }
      ASSERT_TRUE(r.predicted.has_value()) << c.algo;
      EXPECT_EQ(r.report.makespan, *r.predicted) << c.algo;
      EXPECT_EQ(r.report.contention_events(), 0u) << c.algo;
    }
  }
  // On the cube none of them is in `all`, and asking for one is a usage error.
  for (const KernelCase& c : exchange_family().expand_all(config_for(4, "one"), KernelCase{}))
    EXPECT_FALSE(c.algo.starts_with("t")) << c.algo;
  KernelCase t2;
  t2.algo = "t2";
  EXPECT_THROW(exchange_family().run(config_for(4, "one"), {}, t2), UsageError);
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
