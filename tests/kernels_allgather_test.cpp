// The all-to-all broadcasts: every node ends with every node's message, indexed by source, and the virtual-time
// makespan equals the closed form (Johnsson & Ho 1987 Table 2; Stout & Wagar 1990 §6).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "harness/algorithm.hpp"
#include "hcemu/hcemu.hpp"
#include "hcemu/kernels/allgather.hpp"
#include "hcemu/model/collectives.hpp"
#include "hcemu/testing/gtest.hpp"
#include "kernel_machines.hpp"

namespace hcemu {
namespace {

using testing::Case;
using testing::CaseResult;
using testing::KernelCheck;
using Data = std::vector<std::byte>;

using test::circuit_machine;
using test::link_bound_machine;

using Allgather = std::function<void(Node&, std::span<std::byte>, std::size_t m)>;

// Each node's input is its own m random bytes; every node must end with all 2^d of them in order of source.
KernelCheck<> allgather_check(std::size_t m, Allgather allgather) {
  KernelCheck check;
  check.input([m](const Case&, int, std::mt19937_64& rng) { return testing::random_bytes(m, rng); })
      .kernel([m, allgather](Node& node, std::span<const std::byte> in, Data& out) {
        out.assign(static_cast<std::size_t>(node.size()) * m, std::byte{0});
        if (m > 0) std::memcpy(out.data() + static_cast<std::size_t>(node.id()) * m, in.data(), m);
        allgather(node, out, m);
      })
      .reference([](const Case& c, const std::vector<Data>& in) {
        Data all;
        for (const Data& block : in) all.insert(all.end(), block.begin(), block.end());
        return std::vector<Data>(static_cast<std::size_t>(c.nodes()), all);
      })
      .tolerance(testing::Tolerance::exact())
      .no_contention()
      .no_forced_discards();
  return check;
}

Allgather recursive_doubling() {
  return
      [](Node& node, std::span<std::byte> all, std::size_t m) { kernels::recursive_doubling_allgather(node, all, m); };
}
Allgather completed() {
  return [](Node& node, std::span<std::byte> all, std::size_t m) { kernels::completed_allgather(node, all, m); };
}

// ----- Recursive doubling ----------------------------------------------------------------------------------------

HCEMU_KERNEL_CHECKS(RecursiveDoublingAllgather, OnePortTakesDExchangesOfDoublingSize) {
  // Johnsson & Ho Table 2, SBT-b(1,N): step i moves 2^i·M; Σ_i (λ + δ' + δ + τ·2^i·m) = d(λ + δ' + δ) + (2^d - 1)τm.
  const std::size_t m = 100;
  auto check = allgather_check(m, recursive_doubling());
  check.dims(0, 8)
      .ports({"one", "all"})
      .base(circuit_machine())
      .predict([m](const MachineConfig& cfg) -> std::optional<Time> {
        return cfg.d * (from_us(10) + from_us(3) + from_us(2)) +
               ((Time{1} << cfg.d) - 1) * from_us(0.01) * static_cast<Time>(m);
      });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(RecursiveDoublingAllgather, HalfDuplexPaysEveryExchangeTwice) {
  const std::size_t m = 100;
  auto check = allgather_check(m, recursive_doubling());
  check.dims(0, 8)
      .ports({"half"})
      .base(circuit_machine())
      .predict([m](const MachineConfig& cfg) -> std::optional<Time> {
        return 2 * (cfg.d * (from_us(10) + from_us(3) + from_us(2)) +
                    ((Time{1} << cfg.d) - 1) * from_us(0.01) * static_cast<Time>(m));
      });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(RecursiveDoublingAllgather, OddSizesPacketsAndAThousandNodes) {
  MachineConfig packets = circuit_machine();
  packets.packet = 64;
  for (std::size_t m : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{100}}) {
    auto check = allgather_check(m, recursive_doubling());
    check.dims(0, 6).ports({"one", "k:2"}).base(packets).predict([m](const MachineConfig& cfg) -> std::optional<Time> {
      return model::recursive_doubling_allgather_time(cfg, m);
    });
    checks.add("m = " + std::to_string(m), check);
  }
  auto big = allgather_check(8, recursive_doubling());
  big.dims({10}).ports({"one"}).base(circuit_machine()).predict([](const MachineConfig&) -> std::optional<Time> {
    return 10 * (from_us(10) + from_us(3) + from_us(2)) + 1023 * 8 * from_us(0.01);
  });
  checks.add(big);
}

// ----- COMPLETE BROADCAST --------------------------------------------------------------------------------------------

HCEMU_KERNEL_CHECKS(CompletedAllgather, AllPortStoreAndForwardTakesTheStoutWagarTime) {
  // Stout & Wagar §6: Σ_k (τ·2^k·m/d + β) = (2^d - 1)τm/d + dβ; 840 = lcm(1..8).
  const std::size_t m = 840;
  auto check = allgather_check(m, completed());
  check.dims(0, 8)
      .ports({"all"})
      .base(link_bound_machine())
      .predict([m](const MachineConfig& cfg) -> std::optional<Time> {
        if (cfg.d == 0) return 0;
        return ((Time{1} << cfg.d) - 1) * from_us(0.01) * static_cast<Time>(m / static_cast<std::size_t>(cfg.d)) +
               cfg.d * from_us(10);
      });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(CompletedAllgather, MatchesStoutAndWagarNumericExamples) {
  // Stout & Wagar (1990), the paper's worked values, τ = 1: d = 3, β = 12, m = 3600 gives 8436; d = 4, β = 16, m = 4800
  // gives 18064.
  for (auto [d, beta, m, want] :
       {std::tuple{3, 12.0, std::size_t{3600}, 8436.0}, {4, 16.0, std::size_t{4800}, 18064.0}}) {
    auto check = allgather_check(m, completed());
    check.dims({d})
        .ports({"all"})
        .base(link_bound_machine(beta, 1))
        .predict([want](const MachineConfig&) -> std::optional<Time> { return from_us(want); });
    checks.add(check);
  }
}

HCEMU_KERNEL_CHECKS(CompletedAllgather, LocalCopiesInAndOutAreChargedRho) {
  // The relative working layout costs ρ·m in and ρ·(2^d - 1)·m out, which the paper counts as free.
  MachineConfig c = link_bound_machine();
  c.rho = 0.002;
  const std::size_t m = 840;
  auto check = allgather_check(m, completed());
  check.dims(1, 6).ports({"all"}).base(c).predict([m](const MachineConfig& cfg) -> std::optional<Time> {
    const auto n = Time{1} << cfg.d;
    return (n - 1) * from_us(0.01) * static_cast<Time>(m / static_cast<std::size_t>(cfg.d)) + cfg.d * from_us(10) +
           n * static_cast<Time>(m) * from_us(0.002);
  });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(CompletedAllgather, UnevenPiecesTakeTheLongestPieceTimePerStage) {
  // m = 7 on a 3-cube: pieces of 3, 2 and 2 bytes; stage k lasts T(2^k·3): 3λ + 21τ.
  auto hand = allgather_check(7, completed());
  hand.dims({3}).ports({"all"}).base(link_bound_machine()).predict([](const MachineConfig&) -> std::optional<Time> {
    return 3 * from_us(10) + 21 * from_us(0.01);
  });
  checks.add("by hand", hand);
  for (std::size_t m : {std::size_t{0}, std::size_t{1}, std::size_t{101}}) {
    auto check = allgather_check(m, completed());
    check.dims(0, 8).ports({"all"}).base(circuit_machine()).predict([m](const MachineConfig& cfg) {
      return model::completed_allgather_time(cfg, m);
    });
    checks.add("m = " + std::to_string(m), check);
  }
}

HCEMU_KERNEL_CHECKS(CompletedAllgather, UsesEveryDirectedLinkEqually) {
  // Stout & Wagar §6: by symmetry every one of the d·2^d directed links carries the same load.
  auto check = allgather_check(60, completed());
  check.dims({3, 5}).ports({"all"}).base(link_bound_machine()).check(test::every_link_equally_busy);
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(CompletedAllgather, RunsOnOnePortWithoutAClosedForm) {
  auto check = allgather_check(30, completed());
  check.dims(0, 5).ports({"one", "half"}).base(circuit_machine()).predict([](const MachineConfig& cfg) {
    return model::completed_allgather_time(cfg, 30);
  });
  check.check(test::no_closed_form);
  checks.add(check);
}

// ----- Every kernel ---------------------------------------------------------------------------------------------

HCEMU_KERNEL_CHECKS(Allgathers, PostEveryReceiveBeforeItsMessageArrivesUnderForced) {
  MachineConfig forced = circuit_machine();
  forced.protocol = Protocol::forced;
  for (const auto& [name, kernel] : std::vector<std::pair<std::string, Allgather>>{
           {"recursive-doubling", recursive_doubling()}, {"completed", completed()}}) {
    auto check = allgather_check(33, kernel);
    check.dims(0, 6).ports({"one", "all"}).base(forced);
    checks.add(name, check);
  }
}

// ----- Registry ------------------------------------------------------------------------------------------------------

TEST(AllgatherRegistry, EveryAlgoVerifiesAndMeetsItsPrediction) {
  const harness::KernelFamily& info = harness::find_family("allgather");
  MachineConfig config = circuit_machine();
  config.d = 5;
  config.ports = Ports::parse("all");
  for (const std::string& algo : info.algorithm_names()) {
    SCOPED_TRACE(algo);
    harness::KernelCase c;
    c.algo = algo;
    c.m = 77;
    c.seed = 3;
    const harness::KernelResult r = info.run(config, {}, c);
    EXPECT_TRUE(r.verified) << r.verify_message;
    if (algo == "rotated-cra") {  // Johnsson & Ho §4.2.1: its rings share links; the paper gives no time for it
      EXPECT_FALSE(r.predicted.has_value());
      continue;
    }
    ASSERT_TRUE(r.predicted.has_value());
    EXPECT_EQ(r.report.makespan, *r.predicted);
  }
}

TEST(AllgatherRegistry, CompletedHasNoPredictionOnOnePort) {
  const harness::KernelFamily& info = harness::find_family("allgather");
  MachineConfig config = circuit_machine();
  config.d = 3;
  harness::KernelCase c;
  c.algo = "completed";
  c.m = 10;
  const harness::KernelResult r = info.run(config, {}, c);
  EXPECT_TRUE(r.verified) << r.verify_message;
  EXPECT_FALSE(r.predicted.has_value());
  // The one-port rows only: recursive doubling, CRA, GCEA and Johnsson & Ho's one-port tree schedules.
  std::vector<std::string> one_port;
  for (const harness::KernelCase& k : info.expand_all(config, c)) one_port.push_back(k.algo);
  EXPECT_EQ(one_port, (std::vector<std::string>{"recursive-doubling", "cra", "gcea", "sbnt-one-port", "nrsbt-one-port"}));
}

}  // namespace
}  // namespace hcemu
