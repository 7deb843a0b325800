// Fixed permutations (Stout & Wagar 1990 §6): every node ends with the message of its preimage; INVERSION and PERMUTED
// SEND run without contention in their closed-form times, and the e-cube baseline does where its routes are disjoint.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hcemu/errors.hpp"
#include "hcemu/hcemu.hpp"
#include "hcemu/kernels/permutation.hpp"
#include "hcemu/model/permutation.hpp"
#include "hcemu/testing/gtest.hpp"
#include "kernel_machines.hpp"

namespace hcemu {
namespace {

using Data = std::vector<std::byte>;
using test::circuit_machine;
using test::link_bound_machine;
using testing::Case;
using testing::CaseResult;
using testing::KernelCheck;

using PermutationOf = std::function<model::Permutation(int d)>;
using Permute = std::function<void(Node&, std::span<const std::byte>, std::span<std::byte>, const model::Permutation&)>;

// Every node's input is m(d) random bytes; node π(s) must end with s's.
KernelCheck<> permutation_check(std::function<std::size_t(int)> m_of, PermutationOf perm_of, Permute permute) {
  KernelCheck check;
  check.input([m_of](const Case& c, int, std::mt19937_64& rng) { return testing::random_bytes(m_of(c.d), rng); })
      .kernel([perm_of, permute](Node& node, std::span<const std::byte> in, Data& out) {
        out.assign(in.size(), std::byte{0});
        permute(node, in, out, perm_of(node.dim()));
      })
      .reference([perm_of](const Case& c, const std::vector<Data>& in) {
        const model::Permutation p = perm_of(c.d);
        std::vector<Data> out(in.size());
        for (std::size_t s = 0; s < in.size(); ++s) out[p.image[s]] = in[s];
        return out;
      })
      .tolerance(testing::Tolerance::exact())
      .no_forced_discards();
  return check;
}
std::function<std::size_t(int)> fixed(std::size_t m) {
  return [m](int) { return m; };
}

PermutationOf named(std::string name) {
  return [name](int d) { return model::permutation_by_name(name, d); };
}

Permute ecube() {
  return [](Node& node, std::span<const std::byte> in, std::span<std::byte> out, const model::Permutation& p) {
    kernels::ecube_permutation(node, in, out, p);
  };
}
Permute inversion() {
  return [](Node& node, std::span<const std::byte> in, std::span<std::byte> out, const model::Permutation&) {
    kernels::inversion(node, in, out);
  };
}
Permute permuted() {
  return [](Node& node, std::span<const std::byte> in, std::span<std::byte> out, const model::Permutation& p) {
    kernels::permuted_send(node, in, out, p);
  };
}

// λ = 10 µs, τ = 0.01 µs/byte.
Time link_bound_hop(std::size_t bytes) { return from_us(10) + from_us(0.01) * static_cast<Time>(bytes); }

// ----- The permutations ----------------------------------------------------------------------------------------------

TEST(Permutations, AreTheNamedMaps) {
  using V = std::vector<std::uint32_t>;
  EXPECT_EQ(model::inversion_permutation(3).image, (V{7, 6, 5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(model::bit_reversal_permutation(3).image, (V{0, 4, 2, 6, 1, 5, 3, 7}));
  EXPECT_EQ(model::shuffle_permutation(3).image, (V{0, 2, 4, 6, 1, 3, 5, 7}));
  EXPECT_EQ(model::shuffle_permutation(0).image, (V{0}));
  // Stout & Wagar (1990) §6: rotation, every node to the next higher-numbered one mod 2^d.
  EXPECT_EQ(model::rotation_permutation(3).image, (V{1, 2, 3, 4, 5, 6, 7, 0}));
  EXPECT_EQ(model::permutation_by_name("rotation", 0).image, (V{0}));
  // §9: reflection, every node of the lower half (0..2^(d-1) - 1) swaps with its neighbour across dimension d - 1.
  EXPECT_EQ(model::reflection_permutation(3).image, (V{4, 5, 6, 7, 0, 1, 2, 3}));
  EXPECT_EQ(model::permutation_by_name("reflection", 1).image, (V{1, 0}));
  EXPECT_EQ(model::permutation_by_name("reflection", 0).image, (V{0}));
}

TEST(Permutations, RandomOnesArePermutationsFixedByTheirSeed) {
  for (int d = 0; d <= 10; ++d) {
    const auto p = model::random_permutation(d, 42);
    EXPECT_NO_THROW(model::inverse_permutation(p.image)) << d;
    EXPECT_EQ(p.image, model::random_permutation(d, 42).image);
  }
  EXPECT_NE(model::random_permutation(6, 1).image, model::random_permutation(6, 2).image);
  EXPECT_EQ(model::permutation_by_name("random:42", 6).image, model::random_permutation(6, 42).image);
  EXPECT_EQ(model::permutation_by_name("random", 6).image, model::random_permutation(6, 1).image);
}

TEST(Permutations, UnknownNamesAreUsageErrors) {
  EXPECT_THROW(model::permutation_by_name("transpose", 4), UsageError);
  try {
    model::permutation_by_name("transpose", 4);
  } catch (const UsageError& e) {  // the message names every permutation there is
    for (const std::string& name : model::permutation_names())
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
  }
  EXPECT_THROW(model::permutation_by_name("random:x", 4), UsageError);
  EXPECT_THROW(model::inverse_permutation(std::vector<std::uint32_t>{0, 0}), UsageError);
}

TEST(Permutations, EcubeCongestion) {
  // Inversion: the message from s crosses dimension i at s ^ (2^i - 1), a different node for every s: one per link.
  for (int d = 1; d <= 8; ++d) EXPECT_EQ(model::ecube_congestion(d, model::inversion_permutation(d).image), 1u) << d;
  // Bit reversal on 4 bits: after correcting bits 0 and 1, the message from b3b2b1b0 sits at b3b2b2b3, which depends
  // on b3b2 only, and the two sources with b1 != b2 (b0 = 0, 1) then both cross dimension 2 there.
  EXPECT_EQ(model::ecube_congestion(4, model::bit_reversal_permutation(4).image), 2u);
}

// ----- The e-cube baseline -------------------------------------------------------------------------------------------

HCEMU_KERNEL_CHECKS(EcubePermutation, InversionRoutesNeverMeet) {
  // Store-and-forward: every message crosses d links one after the other, d(τm + β), without contention.
  const std::size_t m = 400;
  auto check = permutation_check(fixed(m), named("inversion"), ecube());
  check.no_contention()
      .dims(0, 7)
      .ports({"all", "one"})
      .base(link_bound_machine())
      .predict([](const MachineConfig& cfg) { return std::optional<Time>(cfg.d * link_bound_hop(400)); });
  checks.add("store and forward", check);
  auto circuit = permutation_check(fixed(m), named("inversion"), ecube());
  circuit.no_contention().dims(0, 7).ports({"one"}).base(circuit_machine()).predict([](const MachineConfig& cfg) {
    return model::ecube_permutation_time(cfg, 400, model::inversion_permutation(cfg.d).image);
  });
  checks.add("circuit", circuit);
}

HCEMU_KERNEL_CHECKS(EcubePermutation, EqualMessagesThatShareALinkInDifferentHopsDoNotContend) {
  // Bit reversal on 4 bits: the two messages that share a link (see EcubeCongestion) reach it after a different number
  // of hops (one of them first corrects bit 0), so under store-and-forward they cross it one packet time apart: the
  // time is the longest route's, 4(τm + β) for 0011 -> 1100. Under circuit switching both hold the link from the start.
  auto check = permutation_check(fixed(200), named("bit-reversal"), ecube());
  check.no_contention()
      .dims({4})
      .ports({"all", "one"})
      .base(link_bound_machine())
      .predict([](const MachineConfig& cfg) {
        EXPECT_EQ(model::ecube_permutation_time(cfg, 200, model::bit_reversal_permutation(4).image),
                  4 * link_bound_hop(200));
        return std::optional<Time>(4 * link_bound_hop(200));
      });
  checks.add(check);
}

// ----- The e-cube baseline under contention (docs/model.md §7: contending transfers are served by ready time, ties
// by the lower source id; a store-and-forward hop keeps its message's source) --------------------------------------

// 1 -> 4 and 2 -> 12 on 4 bits both cross link 0-4 (below); nothing else shares a link.
model::Permutation crossing_permutation() {
  std::vector<std::uint32_t> image(16);
  for (std::uint32_t s = 0; s < 16; ++s) image[s] = s;
  image[1] = 4, image[2] = 12, image[4] = 1, image[12] = 2;
  return {"crossing", image};
}

TEST(EcubePermutation, TheCrossingPermutationPutsTwoRoutesOnOneLink) {
  EXPECT_EQ(model::ecube_congestion(4, crossing_permutation().image), 2u);
}

// The contention a case must report: `events` transfers delayed, by `delay` in all.
testing::KernelCheck<>::ResultCheck contention_of(std::uint64_t events, Time delay) {
  return [events, delay](const CaseResult& r) -> std::string {
    if (r.report.contention_events() == events && r.report.contention_delay() == delay) return {};
    return std::to_string(r.report.contention_events()) + " contention events, " +
           std::to_string(r.report.contention_delay()) + " ps of delay; expected " + std::to_string(events) + ", " +
           std::to_string(delay) + " ps";
  };
}

HCEMU_KERNEL_CHECKS(EcubePermutation, BitReversalUnderCircuitSwitchingServesTheLowerSourceFirst) {
  // d = 4, every message ready at 0; a route of h hops holds its links D(h) = λ + δ' + δh + τm. The routes that share
  // a directed link (bit0 corrected first, then bit 1, ...):
  //   2 -> 4: 2-0, 0-4        and  3 -> 12: 3-2, 2-0, 0-4, 4-12     share 2-0 and 0-4
  //   4 -> 2: 4-6, 6-2        and  5 -> 10: 5-4, 4-6, 6-2, 2-10     share 4-6 and 6-2
  //   10 -> 5: 10-11, 11-9, 9-13, 13-5  and  11 -> 13: 11-9, 9-13  share 11-9 and 9-13
  //   12 -> 3: 12-13, 13-15, 15-11, 11-3  and  13 -> 11: 13-15, 15-11  share 13-15 and 15-11
  // Served by source id, the lower source of each pair goes at 0 and the higher one waits for it: 3 and 5 start at
  // D(2) and end at D(2) + D(4); 11 and 13 start at D(4) and end at D(4) + D(2). Four transfers delayed, by
  // 2·D(2) + 2·D(4) in all; the makespan D(2) + D(4) = 18 + 22 µs with λ = 10, δ' = 3, δ = 2, τm = 1 µs.
  auto check = permutation_check(fixed(100), named("bit-reversal"), ecube());
  const auto hold = [](int h) { return from_us(10 + 3 + 2 * h) + from_us(0.01) * 100; };
  check.dims({4})
      .ports({"all", "one"})
      .base(circuit_machine())
      .predict([hold](const MachineConfig&) { return std::optional<Time>(hold(2) + hold(4)); })
      .check(contention_of(4, 2 * hold(2) + 2 * hold(4)));
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(EcubePermutation, StoreAndForwardTiesGoToTheLowerSource) {
  // d = 4: 1 -> 4 (1-0, 0-4) and 2 -> 12 (2-0, 0-4, 4-12) both reach node 0 after one hop, T = τm + β, and both want
  // link 0-4 at T. Source 1 goes first ([T, 2T]) and 2 waits for it ([2T, 3T], then 4-12 in [3T, 4T]): one transfer
  // delayed by T, makespan 4T (3T had 2 gone first). The others, 4 -> 1 (4-5, 5-1) and 12 -> 2 (12-14, 14-10, 10-2),
  // share no link; every other node keeps its message.
  auto check = permutation_check(
      fixed(500), [](int) { return crossing_permutation(); }, ecube());
  check.dims({4})
      .ports({"all"})
      .base(link_bound_machine())
      .predict([](const MachineConfig&) { return std::optional<Time>(4 * link_bound_hop(500)); })
      .check(contention_of(1, link_bound_hop(500)));
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(EcubePermutation, ShuffleAndBitReversalOnThreeDimensionsShareNoLink) {
  // d = 3, the routes (bit 0 corrected first): shuffle 1 -> 2 (1-0, 0-2), 2 -> 4 (2-0, 0-4), 3 -> 6 (3-2, 2-6),
  // 4 -> 1 (4-5, 5-1), 5 -> 3 (5-7, 7-3), 6 -> 5 (6-7, 7-5); bit reversal 1 -> 4 (1-0, 0-4), 4 -> 1 (4-5, 5-1),
  // 3 -> 6 (3-2, 2-6), 6 -> 3 (6-7, 7-3). No directed link twice, so no contention under either switching, and the
  // time is that of the longest route, two hops: 2(τm + β) store-and-forward, λ + δ' + 2δ + τm circuit.
  for (const std::string name : {"shuffle", "bit-reversal"}) {
    auto check = permutation_check(fixed(300), named(name), ecube());
    check.no_contention().dims({3}).ports({"all", "one"}).base(link_bound_machine()).predict([](const MachineConfig&) {
      return std::optional<Time>(2 * link_bound_hop(300));
    });
    checks.add(name + ", store and forward", check);
    auto circuit = permutation_check(fixed(300), named(name), ecube());
    circuit.no_contention().dims({3}).ports({"all", "one"}).base(circuit_machine()).predict([](const MachineConfig&) {
      return std::optional<Time>(from_us(10 + 3 + 2 * 2) + from_us(0.01) * 300);
    });
    checks.add(name + ", circuit", circuit);
  }
}

TEST(EcubePermutation, UnderCircuitSwitchingTheSharedLinkHasNoClosedForm) {
  MachineConfig c = circuit_machine();
  c.d = 4;
  EXPECT_FALSE(model::ecube_permutation_time(c, 200, model::bit_reversal_permutation(4).image).has_value());
}

HCEMU_KERNEL_CHECKS(EcubePermutation, DeliversEveryPermutation) {
  // The contended ones have no closed form: only the data is checked (their time depends on the order in which the
  // engine serves contending transfers).
  for (const std::string name : {"bit-reversal", "shuffle", "random:7"}) {
    auto check = permutation_check(fixed(333), named(name), ecube());
    check.dims(0, 7).ports({"all", "one"}).base(link_bound_machine());
    checks.add(name, check);
  }
}

// ----- INVERSION -----------------------------------------------------------------------------------------------------

HCEMU_KERNEL_CHECKS(Inversion, TakesTauMPlusDBeta) {
  // §6: d(τm/d + β) = τm + dβ, as O.C. SEND 2; 840 = lcm(1..8).
  auto check = permutation_check(fixed(840), named("inversion"), inversion());
  check.no_contention().dims(0, 7).ports({"all"}).base(link_bound_machine()).predict([](const MachineConfig& cfg) {
    return std::optional<Time>(cfg.d == 0 ? 0 : cfg.d * link_bound_hop(840 / static_cast<std::size_t>(cfg.d)));
  });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(Inversion, UnevenPacketsTakeTheLongestPacketsTime) {
  for (std::size_t m : {std::size_t{1}, std::size_t{5}, std::size_t{1001}}) {
    auto check = permutation_check(fixed(m), named("inversion"), inversion());
    check.no_contention().dims(0, 7).ports({"all"}).base(circuit_machine()).predict([m](const MachineConfig& cfg) {
      return model::inversion_time(cfg, m);
    });
    checks.add("m = " + std::to_string(m), check);
  }
}

// ----- PERMUTED SEND
// --------------------------------------------------------------------------------------------------

HCEMU_KERNEL_CHECKS(PermutedSend, TakesTauMPlusTwoDBetaForEveryPermutation) {
  // §6: 2(2^(d-1)·τm/2^d + dβ) = τm + 2dβ. Pieces of 420 = lcm(1..7) bytes balance every stage of both exchanges.
  for (const std::string name : {"inversion", "bit-reversal", "shuffle", "random:3"}) {
    auto check = permutation_check([](int d) { return (std::size_t{420}) << d; }, named(name), permuted());
    check.no_contention().dims(0, 7).ports({"all"}).base(link_bound_machine()).predict([](const MachineConfig& cfg) {
      const Time tau_m = from_us(0.01) * static_cast<Time>(std::size_t{420} << cfg.d);
      return std::optional<Time>(cfg.d == 0 ? 0 : tau_m + 2 * cfg.d * from_us(10));
    });
    checks.add(name, check);
  }
}

HCEMU_KERNEL_CHECKS(PermutedSend, LocalCopiesAndCircuitsStayExact) {
  MachineConfig c = circuit_machine();
  c.rho = 0.002;
  auto check = permutation_check([](int d) { return (std::size_t{60}) << d; }, named("random:11"), permuted());
  check.no_contention().dims(0, 5).ports({"all"}).base(c).predict(
      [](const MachineConfig& cfg) { return model::permuted_send_time(cfg, std::size_t{60} << cfg.d); });
  checks.add(check);
}

// Where the pieces p = ⌈m/2^d⌉ do not split evenly over their paths (lcm(1..d) does not divide p), the exchanges'
// links carry unequal loads; the form takes each stage's fullest link and still equals the emulator. d = 5,
// m = 4800 (p = 150, lcm(1..5) = 60) is the case a balanced-only form could not predict.
HCEMU_KERNEL_CHECKS(PermutedSend, PadsMessagesThatDoNotSplitEvenly) {
  MachineConfig copying = circuit_machine();
  copying.rho = 0.002;
  for (const auto& [machine, base] :
       std::vector<std::pair<std::string, MachineConfig>>{{"link-bound", link_bound_machine()}, {"circuit", copying}})
    for (std::size_t m : {std::size_t{1}, std::size_t{77}, std::size_t{4800}}) {
      auto check = permutation_check(fixed(m), named(m == 4800 ? "rotation" : "shuffle"), permuted());
      check.no_contention().dims(0, 6).ports({"all"}).base(base).predict(
          [m](const MachineConfig& cfg) { return model::permuted_send_time(cfg, m); });
      checks.add(machine + ", m = " + std::to_string(m), check);
    }
}

// ----- Every kernel
// ---------------------------------------------------------------------------------------------------

HCEMU_KERNEL_CHECKS(Permutations, EveryAlgorithmDeliversUnderForcedOnEveryPortModel) {
  MachineConfig forced = link_bound_machine();
  forced.protocol = Protocol::forced;
  for (const auto& [name, permute] : std::vector<std::pair<std::string, Permute>>{
           {"ecube", ecube()}, {"inversion", inversion()}, {"permuted", permuted()}}) {
    auto check = permutation_check(fixed(100), named("inversion"), permute);
    check.dims(0, 5).ports({"one", "all"}).base(forced);
    checks.add(name, check);
  }
}

TEST(Permutations, AllPortFormsHaveNoOnePortPrediction) {
  MachineConfig c = link_bound_machine();
  c.d = 3;
  c.ports = Ports::parse("one");
  EXPECT_FALSE(model::inversion_time(c, 840).has_value());
  EXPECT_FALSE(model::permuted_send_time(c, 840).has_value());
  c.ports = Ports::parse("half");
  EXPECT_FALSE(model::ecube_permutation_time(c, 840, model::inversion_permutation(3).image).has_value());
}

}  // namespace
}  // namespace hcemu
