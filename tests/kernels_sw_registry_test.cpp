// The registry entries of Stout & Wagar's (1990) long sends, scatter and gather, and permutations (with Johnsson &
// Ho's 1987 SBT-p and SBnT-p): every algorithm `--algo all` runs, for d = 0..7, on the link-bound machine (all-port,
// store-and-forward, β = λ) and a one-port circuit-switched one, verifies its data through the family's harness,
// takes exactly its closed form where the model has one, and is never faster than its family's lower bound, which
// its row reports.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "harness/algorithm.hpp"
#include "hcemu/model/long_send.hpp"
#include "hcemu/model/lower_bounds.hpp"
#include "hcemu/model/permutation.hpp"
#include "kernel_machines.hpp"

namespace hcemu::harness {
namespace {

using test::circuit_machine;
using test::link_bound_machine;

MachineConfig with(MachineConfig c, int d, const char* ports) {
  c.d = d;
  c.ports = Ports::parse(ports);
  return c;
}

// The machines of every case: the paper's link-bound cube (and one with a local-copy cost, which the spread sends
// and PERMUTED SEND pay at the destination), and a one-port circuit-switched cube where only the algorithms made
// for every port model run.
std::vector<MachineConfig> machines(int d) {
  MachineConfig copying = link_bound_machine();
  copying.rho = 0.002;
  return {with(link_bound_machine(), d, "all"), with(copying, d, "all"), with(circuit_machine(), d, "one")};
}

// The family's bound for the case as run, straight from model/lower_bounds.hpp.
Time expected_bound(std::string_view family, const MachineConfig& c, const KernelCase& k) {
  if (family == "long-send")
    return model::long_send_lower_bound(c, k.m, static_cast<int>(k.params.number("src")),
                                        static_cast<int>(k.params.number("dst")));
  if (family == "scatter") return model::scatter_lower_bound(c, k.m);
  if (family == "gather") return model::gather_lower_bound(c, k.m);
  return model::permutation_lower_bound(c, k.m, model::permutation_by_name(k.params.text("perm"), c.d).image);
}

// The cases of one family at one d that differ in what the user gives: the pair, the root, the permutation.
std::vector<KernelCase> bases(std::string_view family, int d) {
  const int nodes = 1 << d, mask = nodes - 1;
  std::vector<KernelCase> out;
  KernelCase base;
  base.seed = 7;
  if (family == "long-send") {
    base.m = 77;          // divides into no unit count: padding everywhere
    out.push_back(base);  // node 0 to its opposite corner
    // A pair at distance about d/2 in scattered dimensions, where X.O.C. SEND runs too.
    base.params.set("src", static_cast<std::uint64_t>(5 & mask));
    base.params.set("dst", static_cast<std::uint64_t>((5 & mask) ^ (0x5a & mask)));
    base.m = 420;
    out.push_back(base);
  } else if (family == "scatter" || family == "gather") {
    base.m = 60;
    out.push_back(base);
    base.root = 5 & mask;
    base.m = 13;
    out.push_back(base);
  } else {
    for (const char* perm : {"inversion", "bit-reversal", "shuffle", "rotation", "reflection", "random:9"}) {
      base.m = 100;
      base.params.set("perm", std::string(perm));
      out.push_back(base);
    }
  }
  return out;
}

struct Sweep {
  std::string family;
  int d;
};

class StoutWagarRegistry : public ::testing::TestWithParam<Sweep> {};

TEST_P(StoutWagarRegistry, EveryAlgorithmVerifiesInItsClosedFormAndAboveItsBound) {
  const auto& [name, d] = GetParam();
  const KernelFamily& family = find_family(name);
  int runs = 0, predicted = 0;
  for (const MachineConfig& config : machines(d))
    for (const KernelCase& base : bases(name, d))
      for (const KernelCase& c : family.expand_all(config, base)) {
        SCOPED_TRACE(name + " " + c.algo + " ports " + config.ports.str() + " " +
                     std::string(to_string(config.switching)) + " rho " + std::to_string(config.rho) + " m " +
                     std::to_string(c.m) + " root " + std::to_string(c.root) + " perm " + c.params.text("perm") +
                     " src " + std::to_string(c.params.number("src")) + " dst " +
                     (c.params.has("dst") ? std::to_string(c.params.number("dst")) : "corner"));
        const KernelResult r = family.run(config, {}, c);
        ++runs;
        EXPECT_TRUE(r.verified) << r.verify_message;
        ASSERT_TRUE(r.lower_bound.has_value());
        if (r.predicted) {
          ++predicted;
          EXPECT_EQ(r.report.makespan, *r.predicted);
          EXPECT_LE(*r.lower_bound, *r.predicted);
        }
        EXPECT_EQ(*r.lower_bound, expected_bound(name, config, r.run_case));
        EXPECT_LE(*r.lower_bound, r.report.makespan);
        // The paper's schedules are built free of contention (docs/model.md §7); only the e-cube baseline may contend.
        if (c.algo != "ecube") {
          EXPECT_EQ(r.report.contention_events(), 0u);
        }
      }
  EXPECT_GT(runs, 0);
  EXPECT_GT(predicted, 0);  // the link-bound machine has a closed form for most of them
}

std::vector<Sweep> sweeps() {
  std::vector<Sweep> all;
  for (const char* family : {"long-send", "scatter", "gather", "permutation"})
    for (int d = 0; d <= 7; ++d) all.push_back({family, d});
  return all;
}

INSTANTIATE_TEST_SUITE_P(FamiliesAndDimensions, StoutWagarRegistry, ::testing::ValuesIn(sweeps()),
                         [](const ::testing::TestParamInfo<Sweep>& sweep) {
                           std::string label = sweep.param.family + "_d" + std::to_string(sweep.param.d);
                           for (char& ch : label)
                             if (ch == '-') ch = '_';
                           return label;
                         });

// What --algo all runs follows the case: X.O.C. SEND only short of the opposite corner, INVERSION only for the
// inversion permutation, the all-port algorithms only on all-port machines.
TEST(StoutWagarRegistry, AlgoAllRunsWhatTheCaseAllows) {
  const auto names = [](const std::vector<KernelCase>& cases) {
    std::vector<std::string> algos;
    for (const KernelCase& c : cases) algos.push_back(c.algo);
    return algos;
  };
  const MachineConfig all = with(link_bound_machine(), 4, "all"), one = with(circuit_machine(), 4, "one");
  KernelCase corner;
  EXPECT_EQ(names(long_send_family().expand_all(all, corner)),
            (std::vector<std::string>{"direct", "ocs1", "ocs2", "ocs3", "ocs4", "as1", "as2", "as3", "oc-exchange",
                                      "arbitrary-exchange"}));
  KernelCase near = corner;
  near.params.set("dst", std::uint64_t{6});
  EXPECT_EQ(
      names(long_send_family().expand_all(all, near)),
      (std::vector<std::string>{"direct", "ocs1", "ocs2", "ocs3", "ocs4", "as1", "as2", "xocs1", "xocs2", "as3",
                                "oc-exchange", "arbitrary-exchange"}));
  EXPECT_EQ(names(long_send_family().expand_all(one, near)), (std::vector<std::string>{"direct", "ocs1"}));

  KernelCase inversion, shuffle;
  shuffle.params.set("perm", std::string("shuffle"));
  EXPECT_EQ(names(permutation_family().expand_all(all, inversion)),
            (std::vector<std::string>{"ecube", "inversion", "permuted-send"}));
  EXPECT_EQ(names(permutation_family().expand_all(all, shuffle)), (std::vector<std::string>{"ecube", "permuted-send"}));
  EXPECT_EQ(names(permutation_family().expand_all(one, inversion)), (std::vector<std::string>{"ecube"}));
  EXPECT_EQ(names(scatter_family().expand_all(one, {})), (std::vector<std::string>{"sbt"}));
  EXPECT_EQ(names(gather_family().expand_all(all, {})), (std::vector<std::string>{"collect-1", "collect-2", "sbt"}));
}

TEST(StoutWagarRegistry, CasesTheAlgorithmsCannotRunAreUsageErrors) {
  const MachineConfig c = with(link_bound_machine(), 3, "all");
  KernelCase xoc;
  xoc.algo = "xocs1";  // to the opposite corner: no dimension to step out along
  EXPECT_THROW(long_send_family().run(c, {}, xoc), UsageError);
  KernelCase far = xoc;
  far.algo = "direct";
  far.params.set("dst", std::uint64_t{8});
  EXPECT_THROW(long_send_family().run(c, {}, far), UsageError);
  KernelCase inversion;
  inversion.algo = "inversion";
  inversion.params.set("perm", std::string("bit-reversal"));
  EXPECT_THROW(permutation_family().run(c, {}, inversion), UsageError);
  KernelCase unknown;
  unknown.algo = "ecube";
  unknown.params.set("perm", std::string("transpose"));
  EXPECT_THROW(permutation_family().run(c, {}, unknown), UsageError);
  KernelCase root;
  root.algo = "sbt";
  root.root = 8;
  EXPECT_THROW(scatter_family().run(c, {}, root), UsageError);
  EXPECT_THROW(gather_family().run(c, {}, root), UsageError);
}

TEST(StoutWagarRegistry, ArbitrarySendTwoTakesNoMoreGroupsThanMakeAPacketAByte) {
  // BROADCAST 4's packets, ⌈m/(dg)⌉ bytes: past g = ⌈m/d⌉ = 22 the groups only add empty packets.
  const MachineConfig c = with(link_bound_machine(), 3, "all");
  KernelCase as2;
  as2.algo = "as2";
  as2.m = 64;
  as2.params.set("groups", std::uint64_t{22});
  const KernelResult r = long_send_family().run(c, {}, as2);
  EXPECT_TRUE(r.verified) << r.verify_message;
  as2.params.set("groups", std::uint64_t{23});
  try {
    long_send_family().resolved(c, as2);
    ADD_FAILURE() << "23 groups ran";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("at most ⌈m/d⌉ = 22 groups"), std::string::npos) << e.what();
  }
}

TEST(StoutWagarRegistry, TheCaseAsRunCarriesThePairThePermutationAndTheGroups) {
  const MachineConfig c = with(link_bound_machine(), 5, "all");
  KernelCase k;
  k.algo = "ocs4";
  k.m = 6000;
  const KernelResult r = long_send_family().run(c, {}, k);
  EXPECT_EQ(r.run_case.params.number("src"), 0u);
  EXPECT_EQ(r.run_case.params.number("dst"), 31u);
  EXPECT_EQ(r.run_case.params.number("groups"), static_cast<std::uint64_t>(model::optimal_oc_send_groups(c, 6000, 5)));
  KernelCase p;
  p.algo = "ecube";
  EXPECT_EQ(permutation_family().run(c, {}, p).run_case.params.text("perm"), "inversion");
}

// Stout & Wagar (1990) §9: the coefficients of the high-order terms of these algorithms are the least possible, so
// their predicted time over the bound their row reports tends to 1 as m grows (β terms shrink like 1/m, the optimum
// g's like 1/sqrt(m)): a hundredfold m cuts the excess at least eightfold, to below 5%. Johnsson & Ho's (1987) SBT-p
// scatter and gather do the same on one port (Table 3).
TEST(StoutWagarRegistry, ThePapersOptimalAlgorithmsMeetTheirRowsBoundForLongMessages) {
  struct Optimal {
    KernelFamily family;
    std::string algo;
    const char* ports;
    std::size_t m;  // the smaller size; the pieces of PERMUTED SEND divide into lcm(1..5) = 60 bytes
    std::optional<std::uint64_t> dst;
  };
  const std::vector<Optimal> optimal = {
      {long_send_family(), "ocs4", "all", 60000, {}},       {long_send_family(), "as3", "all", 60000, {}},
      {long_send_family(), "as3", "all", 60000, 1},         {long_send_family(), "as3", "all", 60000, 15},
      {scatter_family(), "distribute-1", "all", 6000, {}},  {scatter_family(), "distribute-2", "all", 6000, {}},
      {gather_family(), "collect-1", "all", 6000, {}},      {gather_family(), "collect-2", "all", 6000, {}},
      {permutation_family(), "inversion", "all", 9600, {}}, {permutation_family(), "permuted-send", "all", 9600, {}},
      {scatter_family(), "sbt", "one", 6000, {}},           {gather_family(), "sbt", "one", 6000, {}},
  };
  for (const Optimal& o : optimal) {
    const MachineConfig c = with(link_bound_machine(100, 1), 5, o.ports);
    const auto excess = [&](std::size_t m) {
      KernelCase k;
      k.algo = o.algo;
      k.m = m;
      if (o.dst) k.params.set("dst", *o.dst);
      const KernelCase resolved = o.family.resolved(c, k);
      const std::optional<Time> predicted = o.family.predict(c, k);
      const std::optional<Time> bound = o.family.algorithm(o.algo).lower_bound(c, resolved);
      EXPECT_TRUE(predicted && bound) << o.algo;
      return predicted && bound ? static_cast<double>(*predicted - *bound) / static_cast<double>(*bound) : 1.0;
    };
    const double small = excess(o.m), large = excess(100 * o.m);
    EXPECT_GE(small, 0.0) << o.family.name << " " << o.algo;
    EXPECT_GE(large, 0.0) << o.family.name << " " << o.algo;
    EXPECT_LE(large, small / 8) << o.family.name << " " << o.algo;
    EXPECT_LT(large, 0.05) << o.family.name << " " << o.algo;
  }
}

}  // namespace
}  // namespace hcemu::harness
