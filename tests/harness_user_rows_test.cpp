// A program's own rows (hcemu/algorithm.hpp): registered families and rows join the built-in ones, names that clash
// are refused, and a row's run through hcemu::run_verified gives the verdict its nodes reached.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hcemu/algorithm.hpp"
#include "hcemu/errors.hpp"

namespace {

using hcemu::Algorithm;
using hcemu::KernelCase;
using hcemu::KernelFamily;
using hcemu::KernelResult;
using hcemu::MachineConfig;
using hcemu::Time;

// Every node computes m flops, then checks nothing: the makespan is t_a·m (docs/model.md §6), the closed form.
Algorithm compute_row(std::string name) {
  Algorithm row;
  row.name = std::move(name);
  row.paper = "a test's own row";
  row.run = [](const MachineConfig& config, const hcemu::EmulatorSettings& settings, const KernelCase& c) {
    return hcemu::run_verified(config, settings, [&](hcemu::Node& node, const hcemu::FailFn&) { node.compute(c.m); });
  };
  row.predict = [](const MachineConfig& config, const KernelCase& c) -> std::optional<Time> {
    return hcemu::from_us(config.flop) * static_cast<Time>(c.m);
  };
  return row;
}

KernelFamily compute_family(std::string name, std::vector<Algorithm> rows) {
  KernelFamily family;
  family.name = std::move(name);
  family.summary = "a test's own family";
  family.m_is = "flops per node";
  family.algorithms = std::move(rows);
  return family;
}

// Once the registry has been read (as the command reads it before parsing), a registration is checked at once.
std::string usage_error_of(const std::function<void()>& f) {
  hcemu::families();
  try {
    f();
  } catch (const hcemu::UsageError& e) {
    return e.what();
  }
  return "no error";
}

// Registered before main in this order, the row ahead of its family: what is registered before the registry is read
// is taken families first, whatever the order of static initialisation.
HCEMU_REGISTER_ALGORITHM("static-family", compute_row("second"));
HCEMU_REGISTER_FAMILY(compute_family("static-family", {compute_row("first")}));

TEST(UserRows, RegisteredBeforeMainTheRowJoinsItsFamilyWhateverTheOrder) {
  const KernelFamily& family = hcemu::find_family("static-family");
  EXPECT_EQ(family.algorithm_names(), (std::vector<std::string>{"first", "second"}));
}

TEST(UserRows, ARegisteredFamilyIsListedAfterTheBuiltInOnes) {
  hcemu::register_family(compute_family("listed-family", {compute_row("only")}));
  std::vector<std::string> names;
  for (const KernelFamily& f : hcemu::families()) names.push_back(f.name);
  const auto exchange = std::find(names.begin(), names.end(), "exchange");
  const auto listed = std::find(names.begin(), names.end(), "listed-family");
  ASSERT_NE(listed, names.end());
  EXPECT_LT(exchange, listed);
}

TEST(UserRows, AFamilyWithoutADefaultRunsItsFirstRow) {
  hcemu::register_family(compute_family("default-family", {compute_row("a"), compute_row("b")}));
  EXPECT_EQ(hcemu::find_family("default-family").default_algo, "a");
}

TEST(UserRows, ARowOfABuiltInFamilyRunsInItsClosedForm) {
  hcemu::register_algorithm("exchange", compute_row("my-exchange"));
  const KernelFamily& exchange = hcemu::find_family("exchange");
  MachineConfig config;
  config.d = 2;
  config.flop = 0.5;
  KernelCase c;
  c.algo = "my-exchange";
  c.m = 10;
  const KernelResult r = exchange.run(config, {}, c);
  EXPECT_TRUE(r.verified) << r.verify_message;
  ASSERT_TRUE(r.predicted.has_value());
  EXPECT_EQ(*r.predicted, 10 * hcemu::from_us(0.5));
  EXPECT_EQ(r.report.makespan, *r.predicted);
}

TEST(UserRows, AFamilyNamedLikeABuiltInOneIsRefused) {
  const std::string error =
      usage_error_of([] { hcemu::register_family(compute_family("broadcast", {compute_row("mine")})); });
  EXPECT_NE(error.find("'broadcast' exists already (built in)"), std::string::npos) << error;
  EXPECT_NE(error.find("register_algorithm"), std::string::npos) << error;
}

TEST(UserRows, ARowNamedLikeABuiltInRowIsRefused) {
  const std::string error = usage_error_of([] { hcemu::register_algorithm("exchange", compute_row("direct")); });
  EXPECT_NE(error.find("kernel 'exchange' has an algorithm named 'direct' already (built in)"), std::string::npos)
      << error;
}

TEST(UserRows, ARowOfAMissingFamilyIsRefusedWithTheNearestName) {
  const std::string error = usage_error_of([] { hcemu::register_algorithm("exchang", compute_row("x")); });
  EXPECT_NE(error.find("did you mean 'exchange'?"), std::string::npos) << error;
}

TEST(UserRows, TheWordAllIsNoAlgorithmName) {
  const std::string error = usage_error_of([] { hcemu::register_algorithm("exchange", compute_row("all")); });
  EXPECT_NE(error.find("'all' is --algo's word"), std::string::npos) << error;
}

TEST(UserRows, ARowWithoutRunIsRefused) {
  Algorithm row = compute_row("idle");
  row.run = nullptr;
  const std::string error = usage_error_of([&] { hcemu::register_algorithm("exchange", row); });
  EXPECT_NE(error.find("has no run"), std::string::npos) << error;
}

TEST(RunVerified, ANodeThatFailsMakesTheRunUnverifiedWithItsSentence) {
  MachineConfig config;
  config.d = 3;
  const KernelResult r = hcemu::run_verified(config, {}, [](hcemu::Node& node, const hcemu::FailFn& fail) {
    if (node.id() == 5) fail("node 5: wrong");
  });
  EXPECT_FALSE(r.verified);
  EXPECT_EQ(r.verify_message, "node 5: wrong");
}

TEST(RunVerified, NodesThatNeverFailMakeTheRunVerified) {
  MachineConfig config;
  config.d = 3;
  const KernelResult r = hcemu::run_verified(config, {}, [](hcemu::Node&, const hcemu::FailFn&) {});
  EXPECT_TRUE(r.verified);
  EXPECT_EQ(r.report.nodes.size(), 8u);
}

}  // namespace
