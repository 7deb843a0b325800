// The allreduce kernels against a sequential sum and their closed forms, through hcemu::testing: each case of a sweep
// over d, port models, switching and the size m is a test of its own (RecursiveDoubling.SumsInItsClosedForm/
// d3_half_m5_store_and_forward, ...). Then the family's rows as the command runs them.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "allreduce.hpp"
#include "hcemu/algorithm.hpp"
#include "hcemu/testing/gtest.hpp"

namespace {

using Data = std::vector<double>;
using hcemu::testing::Case;

// An iPSC/860-like machine (λ, τ, δ' from Bokhari 1993 §3) with a cost per addition.
hcemu::MachineConfig machine() {
  hcemu::MachineConfig c;
  c.lambda = 95.0;
  c.tau = 0.394;
  c.delta_msg = 10.3;
  c.flop = 0.05;
  return c;
}

// Whole numbers, so that a sum in any order is exact and the reference is equality.
Data whole_numbers(const Case& c, int, std::mt19937_64& rng) {
  Data v(c.m);
  for (double& x : v) x = static_cast<double>(static_cast<std::int64_t>(rng() % 2001) - 1000);
  return v;
}

std::vector<Data> sums(const Case&, const std::vector<Data>& in) {
  Data total(in.front().size(), 0.0);
  for (const Data& v : in)
    for (std::size_t k = 0; k < v.size(); ++k) total[k] += v[k];
  return std::vector<Data>(in.size(), total);
}

// Every case: d = 0..5, every port model, circuit and store-and-forward, sizes that do and do not divide into 2^d
// blocks.
hcemu::testing::KernelCheck<double> allreduce_check(void (*kernel)(hcemu::Node&, std::span<double>),
                                                    hcemu::Time (*closed_form)(const hcemu::MachineConfig&,
                                                                               std::size_t)) {
  hcemu::testing::KernelCheck<double> check;
  check.dims(0, 5)
      .ports({"one", "half", "k:2", "all"})
      .sizes({1, 5, 64})
      .base(machine())
      .variant("store-and-forward",
               [](hcemu::MachineConfig& c) { c.switching = hcemu::Switching::store_and_forward; })
      .variant("circuit", nullptr)
      .input(whole_numbers)
      .kernel([kernel](hcemu::Node& node, std::span<const double> in, Data& out) {
        out.assign(in.begin(), in.end());
        kernel(node, out);
      })
      .reference(sums)
      .predict([closed_form](const Case& c) { return closed_form(c.config, c.m); })
      .tolerance(hcemu::testing::Tolerance::exact())
      .no_contention();
  return check;
}

HCEMU_KERNEL_CHECKS(RecursiveDoubling, SumsInItsClosedForm) {
  checks.add(allreduce_check(allreduce::recursive_doubling, allreduce::recursive_doubling_time));
}

HCEMU_KERNEL_CHECKS(Ring, SumsInItsClosedForm) {
  checks.add(allreduce_check(allreduce::ring, allreduce::ring_time));
}

TEST(AllreduceRows, EveryRowRunsVerifiedInItsClosedFormAboveTheBound) {
  const hcemu::KernelFamily& family = hcemu::find_family("allreduce");
  for (const char* ports : {"one", "all"}) {
    hcemu::MachineConfig config = machine();
    config.d = 4;
    config.ports = hcemu::Ports::parse(ports);
    hcemu::KernelCase base;
    base.m = 100;
    const std::vector<hcemu::KernelCase> cases = family.expand_all(config, base);
    ASSERT_EQ(cases.size(), 2u) << ports;
    for (const hcemu::KernelCase& c : cases) {
      const hcemu::KernelResult r = family.run(config, {}, c);
      EXPECT_TRUE(r.verified) << c.algo << ": " << r.verify_message;
      ASSERT_TRUE(r.predicted && r.lower_bound) << c.algo;
      EXPECT_EQ(r.report.makespan, *r.predicted) << c.algo << " " << ports;
      EXPECT_LE(*r.lower_bound, *r.predicted) << c.algo << " " << ports;
    }
  }
}

// With one port the bound is d start-ups; with all ports on the cube ⌈log_(d+1) 2^d⌉: 2 for d = 4 (25 > 16).
TEST(AllreduceRows, TheLowerBoundCountsStartUpsByFanIn) {
  hcemu::MachineConfig config = machine();
  config.d = 4;
  EXPECT_EQ(allreduce::lower_bound(config, 1), 4 * hcemu::from_us(95.0));
  config.ports = hcemu::Ports::parse("all");
  EXPECT_EQ(allreduce::lower_bound(config, 1), 2 * hcemu::from_us(95.0));
}

TEST(AllreduceRows, ATorusIsRefusedUpFront) {
  hcemu::MachineConfig config = machine();
  config.d = 4;
  config.topology = hcemu::Topology::parse("torus");
  hcemu::KernelCase c;
  c.algo = "ring";
  EXPECT_THROW(hcemu::find_family("allreduce").run(config, {}, c), hcemu::UsageError);
}

}  // namespace
