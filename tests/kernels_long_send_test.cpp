// A long message from one node to another (Stout & Wagar 1990 §3-4): the destination ends with the source's bytes,
// no other node's buffer changes, and the virtual-time makespan equals the closed form.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hcemu/hcemu.hpp"
#include "hcemu/kernels/long_send.hpp"
#include "hcemu/model/even_spread.hpp"
#include "hcemu/model/long_send.hpp"
#include "hcemu/testing/gtest.hpp"
#include "kernel_machines.hpp"
#include "kernels/broadcast4_schedule.hpp"

namespace hcemu {
namespace {

using Data = std::vector<std::byte>;
using test::circuit_machine;
using test::link_bound_machine;
using testing::Case;
using testing::CaseResult;
using testing::KernelCheck;

// A pair on a d-cube: source and destination, and the distance between them.
struct Pair {
  int src;
  int dst;
};
using PairOf = std::function<Pair(int d)>;

// Node 0 to its opposite corner (the paper's o.c. send, and the kernels' default).
PairOf opposite_corner() {
  return [](int d) { return Pair{0, (1 << d) - 1}; };
}
// A source that is not 0 and a destination at distance n, differing in dimensions spread over the cube (the highest,
// then the lowest, then the next highest, ...), so that the relabelling of dimensions is exercised.
PairOf at_distance(int n) {
  return [n](int d) {
    const int src = (1 << d) * 2 / 3;
    int mask = 0;
    for (int i = 0; i < std::min(n, d); ++i) mask |= 1 << (i % 2 == 0 ? d - 1 - i / 2 : i / 2);
    return Pair{src, src ^ mask};
  };
}

// The pairs a sweep runs, each with a name for its tests: distance 0 stands for the opposite corner.
std::vector<std::pair<std::string, PairOf>> pairs_at(std::initializer_list<int> distances) {
  std::vector<std::pair<std::string, PairOf>> out;
  for (int n : distances)
    out.emplace_back(n == 0 ? "opposite corner" : "distance " + std::to_string(n),
                     n == 0 ? opposite_corner() : at_distance(n));
  return out;
}

using Send = std::function<void(Node&, std::span<std::byte>, int src, int dst)>;

// The source's input is m random bytes, every other node's m zeros; the destination must end with the source's
// bytes and every other node with its own.
KernelCheck<> send_check(std::size_t m, PairOf pair_of, Send send) {
  KernelCheck check;
  check
      .input([m, pair_of](const Case& c, int node, std::mt19937_64& rng) {
        Data data = testing::random_bytes(m, rng);
        return node == pair_of(c.d).src ? data : Data(m);
      })
      .kernel([pair_of, send](Node& node, std::span<const std::byte> in, Data& out) {
        out.assign(in.begin(), in.end());
        const Pair p = pair_of(node.dim());
        send(node, out, p.src, p.dst);
      })
      .reference([pair_of](const Case& c, const std::vector<Data>& in) {
        std::vector<Data> out = in;
        const Pair p = pair_of(c.d);
        out[static_cast<std::size_t>(p.dst)] = in[static_cast<std::size_t>(p.src)];
        return out;
      })
      .tolerance(testing::Tolerance::exact())
      .no_contention()
      .no_forced_discards();
  return check;
}

int distance(PairOf pair_of, int d) {
  const Pair p = pair_of(d);
  return model::pair_distance(p.src, p.dst);
}

Send direct() {
  return [](Node& node, std::span<std::byte> data, int src, int dst) { kernels::direct_send(node, data, src, dst); };
}
Send ocs1() {
  return [](Node& node, std::span<std::byte> data, int src, int dst) { kernels::oc_send_1(node, data, src, dst); };
}
Send ocs2() {
  return [](Node& node, std::span<std::byte> data, int src, int dst) { kernels::oc_send_2(node, data, src, dst); };
}
Send ocs3() {
  return [](Node& node, std::span<std::byte> data, int src, int dst) { kernels::oc_send_3(node, data, src, dst); };
}
Send ocs4(int g) {
  return [g](Node& node, std::span<std::byte> data, int src, int dst) { kernels::oc_send_4(node, data, g, src, dst); };
}
Send as2(int g) {
  return [g](Node& node, std::span<std::byte> data, int src, int dst) {
    kernels::arbitrary_send_2(node, data, g, src, dst);
  };
}
Send xocs(int g) {
  return [g](Node& node, std::span<std::byte> data, int src, int dst) { kernels::xoc_send(node, data, g, src, dst); };
}
Send as3(int g, int xg) {
  return [g, xg](Node& node, std::span<std::byte> data, int src, int dst) {
    kernels::arbitrary_send_3(node, data, g, xg, src, dst);
  };
}

// λ = 10 µs, τ = 0.01 µs/byte: the per-transfer time of L bytes on one link of the link-bound machine.
Time link_bound_hop(std::size_t bytes) { return from_us(10) + from_us(0.01) * static_cast<Time>(bytes); }

// ----- K_d -----------------------------------------------------------------------------------------------------------

TEST(StoutWagarK, FirstValuesAreTheSumsOfInverseBinomials) {
  // §3: 1, 2, 5/2, 8/3, 8/3, then 13/5 (printed "2 2/3": 1 + 1/5 + 1/10 + 1/10 + 1/5 + 1 = 13/5).
  const double want[] = {1, 2, 2.5, 8.0 / 3, 8.0 / 3, 13.0 / 5};
  for (int d = 0; d <= 5; ++d) EXPECT_DOUBLE_EQ(model::stout_wagar_k(d), want[d]) << "d = " << d;
}

TEST(StoutWagarK, LiesWithinThePapersBoundsFromFiveOn) {
  // §3: 2 + 2/d <= K_d <= 2 + 2/d + 4/(d(d-1)) + 6(d-5)/(d(d-1)(d-2)) for d >= 5.
  for (int d = 5; d <= 30; ++d) {
    const double k = model::stout_wagar_k(d);
    EXPECT_LE(2 + 2.0 / d, k + 1e-12) << d;
    EXPECT_LE(k, 2 + 2.0 / d + 4.0 / (d * (d - 1)) + 6.0 * (d - 5) / (d * (d - 1) * (d - 2)) + 1e-12) << d;
  }
}

TEST(EvenSpread, StageLoadsAreTheMessageOverNTimesBinomial) {
  // §3: stage k of O.C. SEND 3 puts m/(C(d,k)(d-k)) = m/(d·C(d-1,k)) on every link; lcm(1..7) = 420.
  EXPECT_EQ(model::spread_units(7), 420u);
  for (int n = 1; n <= 8; ++n)
    for (int k = 0; k < n; ++k)
      EXPECT_EQ(model::spread_edge_bytes(840, n, k), 840 / (static_cast<std::size_t>(n) * model::binomial(n - 1, k)));
}

// ----- The plain send and O.C. SEND 1 -------------------------------------------------------------------------------

HCEMU_KERNEL_CHECKS(DirectSend, StoreAndForwardPaysEveryHop) {
  // One message routed over n hops, each a transfer of λ + τm.
  const std::size_t m = 500;
  auto check = send_check(m, opposite_corner(), direct());
  check.dims(0, 7).ports({"all", "one"}).base(link_bound_machine()).predict([m](const MachineConfig& cfg) {
    return std::optional<Time>(cfg.d * link_bound_hop(m));
  });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(DirectSend, CircuitPaysOneStartUpAndTheDistance) {
  const std::size_t m = 500;
  auto check = send_check(m, at_distance(3), direct());
  check.dims(0, 7).ports({"one", "half"}).base(circuit_machine()).predict([m](const MachineConfig& cfg) {
    const int n = std::min(3, cfg.d);
    return std::optional<Time>(n == 0 ? 0 : from_us(10) + from_us(3) + n * from_us(2) + from_us(0.01) * 500);
  });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(OcSend1, TakesNWholeMessageStagesOnEveryPortModel) {
  // §3: d(τm + β).
  const std::size_t m = 300;
  for (const auto& [where, pair] : pairs_at({0, 2, 5})) {
    auto check = send_check(m, pair, ocs1());
    check.dims(0, 7)
        .ports(distance(pair, 7) == 7 ? std::vector<std::string>{"all", "one", "half"}
                                      : std::vector<std::string>{"one"})
        .base(link_bound_machine())
        .predict([m, pair](const MachineConfig& cfg) {
          return std::optional<Time>(distance(pair, cfg.d) * link_bound_hop(m));
        });
    checks.add(where, check);
  }
}

// ----- O.C. SEND 2 ---------------------------------------------------------------------------------------------------

HCEMU_KERNEL_CHECKS(OcSend2, TakesTauMPlusNBeta) {
  // §3: d(τm/d + β) = τm + dβ; 840 = lcm(1..8).
  const std::size_t m = 840;
  for (const auto& [where, pair] : pairs_at({0, 3})) {
    auto check = send_check(m, pair, ocs2());
    check.dims(0, 7).ports({"all"}).base(link_bound_machine()).predict([pair](const MachineConfig& cfg) {
      const int n = distance(pair, cfg.d);
      return std::optional<Time>(n == 0 ? 0 : n * link_bound_hop(840 / static_cast<std::size_t>(n)));
    });
    checks.add(where, check);
  }
}

HCEMU_KERNEL_CHECKS(OcSend2, UnevenPacketsTakeTheLongestPacketsTime) {
  // m = 10 on a 3-cube: packets of 4, 3 and 3 bytes; the 4-byte one crosses three links.
  auto hand = send_check(10, opposite_corner(), ocs2());
  hand.dims({3}).ports({"all"}).base(link_bound_machine()).predict([](const MachineConfig&) {
    return std::optional<Time>(3 * link_bound_hop(4));
  });
  checks.add("by hand", hand);
  for (std::size_t m : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{1001}}) {
    auto check = send_check(m, at_distance(6), ocs2());
    check.dims(0, 7).ports({"all"}).base(circuit_machine()).predict([m](const MachineConfig& cfg) {
      return model::oc_send_2_time(cfg, m, std::min(6, cfg.d));
    });
    checks.add("m = " + std::to_string(m), check);
  }
}

// ----- O.C. SEND 3 and 4, ARBITRARY SEND 1 ---------------------------------------------------------------------------

HCEMU_KERNEL_CHECKS(OcSend3, MatchesThePapersFormula) {
  // §3: K_{d-1}·τm/d + dβ, with τ = 1: d = 3, β = 12, m = 3600: (5/2)·1200 + 36 = 3036;
  // d = 4, β = 16, m = 4800: (8/3)·1200 + 64 = 3264.
  for (auto [d, beta, m, want] :
       {std::tuple{3, 12.0, std::size_t{3600}, 3036.0}, {4, 16.0, std::size_t{4800}, 3264.0}}) {
    auto check = send_check(m, opposite_corner(), ocs3());
    check.dims({d}).ports({"all"}).base(link_bound_machine(beta, 1)).predict([want](const MachineConfig&) {
      return std::optional<Time>(from_us(want));
    });
    checks.add(check);
  }
}

HCEMU_KERNEL_CHECKS(OcSend3, StageKPutsMOverNTimesBinomialOnEveryLink) {
  // Σ_k (τm/(n·C(n-1,k)) + β) for every n, with m = 840 = lcm(1..8) so that no unit is padded.
  const std::size_t m = 840;
  for (const auto& [where, pair] : pairs_at({0, 4})) {
    auto check = send_check(m, pair, ocs3());
    check.dims(0, 7).ports({"all"}).base(link_bound_machine()).predict([pair](const MachineConfig& cfg) {
      const int n = distance(pair, cfg.d);
      Time t = 0;
      for (int k = 0; k < n; ++k) t += link_bound_hop(840 / (static_cast<std::size_t>(n) * model::binomial(n - 1, k)));
      return std::optional<Time>(t);
    });
    checks.add(where, check);
  }
}

HCEMU_KERNEL_CHECKS(OcSend4, MatchesThePapersFormula) {
  // §3: (g + K_{d-1} - 1)·τm/(dg) + (g + d - 1)β with τ = 1. d = 3, β = 12, m = 3600, K_2 = 5/2:
  // g = 5: (6.5/15)·3600 + 7·12 = 1560 + 84 = 1644; g = 10: (11.5/30)·3600 + 12·12 = 1380 + 144 = 1524.
  // d = 4, β = 16, m = 4800, K_3 = 8/3: g = 5: (20/3)/20·4800 + 8·16 = 1600 + 128 = 1728;
  // g = 10: (35/3)/40·4800 + 13·16 = 1400 + 208 = 1608.
  struct Example {
    int d;
    double beta;
    std::size_t m;
    int g;
    double want;
  };
  for (const Example& e :
       {Example{3, 12, 3600, 5, 1644}, {3, 12, 3600, 10, 1524}, {4, 16, 4800, 5, 1728}, {4, 16, 4800, 10, 1608}}) {
    auto check = send_check(e.m, opposite_corner(), ocs4(e.g));
    check.dims({e.d}).ports({"all"}).base(link_bound_machine(e.beta, 1)).predict([e](const MachineConfig&) {
      return std::optional<Time>(from_us(e.want));
    });
    checks.add("d = " + std::to_string(e.d) + ", g = " + std::to_string(e.g), check);
  }
}

HCEMU_KERNEL_CHECKS(OcSend4, GroupsFollowOneStageZeroPacketApart) {
  // (g - 1)·T(ℓ_0) + Σ_k T(ℓ_k), ℓ_k = (m/g)/(n·C(n-1,k)); m = 3·840.
  const std::size_t m = 3 * 840;
  for (const auto& [where, pair] : pairs_at({0, 3})) {
    auto check = send_check(m, pair, ocs4(3));
    check.dims(0, 7).ports({"all"}).base(link_bound_machine()).predict([pair](const MachineConfig& cfg) {
      const int n = distance(pair, cfg.d);
      if (n == 0) return std::optional<Time>(0);
      Time t = 2 * link_bound_hop(840 / static_cast<std::size_t>(n));
      for (int k = 0; k < n; ++k) t += link_bound_hop(840 / (static_cast<std::size_t>(n) * model::binomial(n - 1, k)));
      return std::optional<Time>(t);
    });
    checks.add(where, check);
  }
}

HCEMU_KERNEL_CHECKS(OcSend4, PaddedUnitsAndTheFinalCopyKeepItExact) {
  // Sizes that do not divide into g·lcm(1..n) units, circuit switching and a local copy cost ρ.
  MachineConfig c = circuit_machine();
  c.rho = 0.002;
  for (auto [m, g] :
       {std::pair{std::size_t{0}, 1}, {std::size_t{1}, 2}, {std::size_t{77}, 1}, {std::size_t{1001}, 3}}) {
    for (const auto& [where, pair] : pairs_at({0, 5})) {
      auto check = send_check(m, pair, ocs4(g));
      check.dims(0, 7).ports({"all"}).base(c).predict(
          [m, g, pair](const MachineConfig& cfg) { return model::oc_send_4_time(cfg, m, distance(pair, cfg.d), g); });
      checks.add("m = " + std::to_string(m) + ", g = " + std::to_string(g) + ", " + where, check);
    }
  }
}

HCEMU_KERNEL_CHECKS(OcSend4, TheDestinationCopiesTheMessageIntoPlaceOnce) {
  // n = 3, m = 60: lcm(1..3) = 6 units of 10 bytes; the stages put m/(3·C(2,k)) = 20, 10 and 20 bytes on every link,
  // then the destination copies the 60 bytes into place: T(20) + T(10) + T(20) + ρ·60.
  MachineConfig c = link_bound_machine();
  c.rho = 0.5;
  auto check = send_check(60, opposite_corner(), ocs3());
  check.dims({3}).ports({"all"}).base(c).predict([](const MachineConfig&) {
    return std::optional<Time>(2 * link_bound_hop(20) + link_bound_hop(10) + 60 * from_us(0.5));
  });
  checks.add(check);
}

// ----- ARBITRARY SEND 2 ----------------------------------------------------------------------------------------------

TEST(ArbitrarySend2, TheDestinationHasEveryPacketAfterTheStagesOfThePaper) {
  // §4: n + g + 1 stages for 1 <= n <= d - 2, d + g - 1 for n >= d - 2, read off the BROADCAST 4 schedule.
  for (int d = 1; d <= 8; ++d)
    for (int n = 1; n <= d; ++n)
      for (int g = 1; g <= 5; ++g) {
        const auto first = kernels::detail::broadcast4_first_arrivals((1u << n) - 1, d, g);
        int last = 0;
        for (const auto& a : first) last = std::max(last, a.stage);
        EXPECT_EQ(last + 1, model::arbitrary_send_2_stages(d, n, g)) << "d=" << d << " n=" << n << " g=" << g;
      }
}

HCEMU_KERNEL_CHECKS(ArbitrarySend2, TakesItsStagesOfOnePacketEach) {
  // Packets of m/(dg) bytes: (stages)(τm/(dg) + β); m = 2·840.
  const std::size_t m = 2 * 840;
  for (int n : {1, 2, 4, 7}) {
    auto check = send_check(m, at_distance(n), as2(2));
    check.dims(0, 7).ports({"all"}).base(link_bound_machine()).predict([n](const MachineConfig& cfg) {
      const int dist = std::min(n, cfg.d);
      if (dist == 0) return std::optional<Time>(0);
      const int stages = dist <= cfg.d - 2 ? dist + 3 : cfg.d + 1;
      return std::optional<Time>(stages * link_bound_hop(840 / static_cast<std::size_t>(cfg.d)));
    });
    checks.add("n = " + std::to_string(n), check);
  }
}

HCEMU_KERNEL_CHECKS(ArbitrarySend2, PaddedPacketsKeepItExact) {
  for (auto [m, g] : {std::pair{std::size_t{1}, 1}, {std::size_t{100}, 3}, {std::size_t{1001}, 2}}) {
    auto check = send_check(m, at_distance(3), as2(g));
    check.dims(0, 7).ports({"all"}).base(circuit_machine()).predict([m, g](const MachineConfig& cfg) {
      return model::arbitrary_send_2_time(cfg, m, std::min(3, cfg.d), g);
    });
    checks.add("m = " + std::to_string(m) + ", g = " + std::to_string(g), check);
  }
}

// ----- X.O.C. SEND ---------------------------------------------------------------------------------------------------

HCEMU_KERNEL_CHECKS(XocSend, EntryAndExitHopsAroundAnOcSend3) {
  // X.O.C. SEND 1 (§4): 2(τm + β) + K_{n-1}τm/n + nβ; X.O.C. SEND 2 with g groups: (g + 1)·T(m/g) + Σ_k T(ℓ_k).
  const std::size_t m = 2 * 840;
  for (int g : {1, 2}) {
    auto check = send_check(m, at_distance(3), xocs(g));
    check.dims(4, 7).ports({"all"}).base(link_bound_machine()).predict([g](const MachineConfig&) {
      const std::size_t group = 2 * 840 / static_cast<std::size_t>(g);
      Time t = (g + 1) * link_bound_hop(group);
      for (int k = 0; k < 3; ++k) t += link_bound_hop(group / (3 * model::binomial(2, k)));
      return std::optional<Time>(t);
    });
    checks.add("g = " + std::to_string(g), check);
  }
}

HCEMU_KERNEL_CHECKS(XocSend, EveryDistanceBelowDAndPaddedUnits) {
  for (auto [m, g] : {std::pair{std::size_t{1}, 1}, {std::size_t{333}, 2}}) {
    for (int n = 1; n <= 6; ++n) {
      auto check = send_check(m, at_distance(n), xocs(g));
      check.dims(n + 1, 7).ports({"all"}).base(circuit_machine()).predict([m, g, n](const MachineConfig& cfg) {
        return model::xoc_send_time(cfg, m, n, g);
      });
      checks.add("m = " + std::to_string(m) + ", n = " + std::to_string(n), check);
    }
  }
}

TEST(XocSend, RefusesTheOppositeCorner) {
  MachineConfig c = link_bound_machine();
  c.d = 3;
  c.ports = Ports::parse("all");
  Machine machine(c);
  EXPECT_THROW(machine.run([](Node& node) {
    std::vector<std::byte> data(8);
    kernels::xoc_send(node, data, 1, 0, 7);
  }),
               KernelError);
  EXPECT_FALSE(model::xoc_send_time(c, 8, 3, 1).has_value());
}

// ----- ARBITRARY SEND 3 ----------------------------------------------------------------------------------------------

HCEMU_KERNEL_CHECKS(ArbitrarySend3, TheSlowestOfItsDisjointSendsSetsTheTime) {
  // m = 7·840 on a 7-cube at distance 3: the O.C. part (3·840 bytes, g = 2) and four X.O.C. parts (840 bytes each,
  // g' = 1) run at once; the time is the slower of (g - 1)T(ℓ_0) + Σ T(ℓ_k) and 2T(840) + Σ T(ℓ'_k).
  const std::size_t m = 7 * 840;
  auto check = send_check(m, at_distance(3), as3(2, 1));
  check.dims({7}).ports({"all"}).base(link_bound_machine()).predict([](const MachineConfig&) {
    const std::size_t oc_group = 3 * 840 / 2;
    Time oc = link_bound_hop(oc_group / 3);
    for (int k = 0; k < 3; ++k) oc += link_bound_hop(oc_group / (3 * model::binomial(2, k)));
    Time xoc = 2 * link_bound_hop(840);
    for (int k = 0; k < 3; ++k) xoc += link_bound_hop(840 / (3 * model::binomial(2, k)));
    return std::optional<Time>(std::max(oc, xoc));
  });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(ArbitrarySend3, EveryDistanceAndDimension) {
  for (auto [m, g, xg] : {std::tuple{std::size_t{1001}, 1, 2}, {std::size_t{3}, 1, 1}}) {
    for (int n : {1, 2, 4, 7}) {
      auto check = send_check(m, at_distance(n), as3(g, xg));
      check.dims(0, 7)
          .ports({"all"})
          .base(circuit_machine())
          .predict([m = m, g = g, xg = xg, n](const MachineConfig& cfg) {
            return model::arbitrary_send_3_time(cfg, m, std::min(n, cfg.d), g, xg);
          });
      checks.add("m = " + std::to_string(m) + ", n = " + std::to_string(n), check);
    }
  }
}

// ----- The exchanges -------------------------------------------------------------------------------------------------

// Both ends hold m random bytes, every other node zeros; the ends must swap their bytes and no other node change.
KernelCheck<> exchange_check(std::size_t m, PairOf pair_of, Send exchange) {
  KernelCheck check;
  check
      .input([m, pair_of](const Case& c, int node, std::mt19937_64& rng) {
        Data data = testing::random_bytes(m, rng);
        const Pair p = pair_of(c.d);
        return node == p.src || node == p.dst ? data : Data(m);
      })
      .kernel([pair_of, exchange](Node& node, std::span<const std::byte> in, Data& out) {
        out.assign(in.begin(), in.end());
        const Pair p = pair_of(node.dim());
        exchange(node, out, p.src, p.dst);
      })
      .reference([pair_of](const Case& c, const std::vector<Data>& in) {
        std::vector<Data> out = in;
        const Pair p = pair_of(c.d);
        std::swap(out[static_cast<std::size_t>(p.src)], out[static_cast<std::size_t>(p.dst)]);
        return out;
      })
      .tolerance(testing::Tolerance::exact())
      .no_contention()
      .no_forced_discards();
  return check;
}

Send oc_exchange(int g) {
  return [g](Node& node, std::span<std::byte> data, int a, int b) { kernels::oc_exchange(node, data, g, a, b); };
}
Send arbitrary_exchange(int g, int xg) {
  return [g, xg](Node& node, std::span<std::byte> data, int a, int b) {
    kernels::arbitrary_exchange(node, data, g, xg, a, b);
  };
}

HCEMU_KERNEL_CHECKS(Exchanges, TakeOneSendsTimeBothWays) {
  // Stout & Wagar (1990) §3 and §4: each send uses its links in one direction only, so the two run at once on
  // disjoint links: O.C. SEND 4 and ARBITRARY SEND 3's times, padding, ρ and circuit included.
  MachineConfig copying = circuit_machine();
  copying.rho = 0.002;
  for (auto [m, g, xg] : {std::tuple{std::size_t{1001}, 3, 2}, {std::size_t{77}, 1, 1}, {std::size_t{0}, 2, 1}})
    for (const auto& [where, pair] : pairs_at({0, 1, 2, 4})) {
      auto oc = exchange_check(m, pair, oc_exchange(g));
      oc.dims(0, 6).ports({"all"}).base(copying).predict([m = m, g = g, pair = pair](const MachineConfig& cfg) {
        return model::oc_exchange_time(cfg, m, distance(pair, cfg.d), g);
      });
      checks.add("oc, m = " + std::to_string(m) + ", " + where, oc);
      auto as = exchange_check(m, pair, arbitrary_exchange(g, xg));
      as.dims(0, 6).ports({"all"}).base(link_bound_machine()).predict(
          [m = m, g = g, xg = xg, pair = pair](const MachineConfig& cfg) {
            return model::arbitrary_exchange_time(cfg, m, distance(pair, cfg.d), g, xg);
          });
      checks.add("arbitrary, m = " + std::to_string(m) + ", " + where, as);
    }
}

HCEMU_KERNEL_CHECKS(Exchanges, OcExchangeOfThePapersNumbers) {
  // §3 and §9, τ = 1: O.C. SEND 4 with g = 5 / 10 takes 1644 / 1524 (d = 3, β = 12, m = 3600); so does the exchange.
  for (auto [g, want] : {std::pair{5, 1644.0}, {10, 1524.0}}) {
    auto check = exchange_check(3600, opposite_corner(), oc_exchange(g));
    check.dims({3}).ports({"all"}).base(link_bound_machine(12, 1)).predict(
        [want = want](const MachineConfig&) -> std::optional<Time> { return from_us(want); });
    checks.add("g = " + std::to_string(g), check);
  }
}

HCEMU_KERNEL_CHECKS(Exchanges, DeliverUnderForcedOnEveryPortModel) {
  MachineConfig forced = link_bound_machine();
  forced.protocol = Protocol::forced;
  for (const auto& [where, pair] : pairs_at({0, 2})) {
    auto oc = exchange_check(123, pair, oc_exchange(3));
    oc.dims({1, 3, 5}).ports({"one", "all"}).base(forced);
    checks.add("oc, " + where, oc);
    auto as = exchange_check(123, pair, arbitrary_exchange(2, 2));
    as.dims({1, 3, 5}).ports({"one", "all"}).base(forced);
    checks.add("arbitrary, " + where, as);
  }
}

// ----- Every kernel
// ---------------------------------------------------------------------------------------------------

HCEMU_KERNEL_CHECKS(LongSends, EveryAlgorithmDeliversUnderForcedOnEveryPortModel) {
  MachineConfig forced = link_bound_machine();
  forced.protocol = Protocol::forced;
  for (const auto& [name, send] : std::vector<std::pair<std::string, Send>>{{"direct", direct()},
                                                                            {"ocs1", ocs1()},
                                                                            {"ocs2", ocs2()},
                                                                            {"ocs3", ocs3()},
                                                                            {"ocs4", ocs4(3)},
                                                                            {"as2", as2(2)},
                                                                            {"as3", as3(2, 2)}}) {
    for (const auto& [where, pair] : pairs_at({0, 2})) {
      auto check = send_check(123, pair, send);
      check.dims({1, 3, 5}).ports({"one", "all"}).base(forced);
      checks.add(name + ", " + where, check);
    }
  }
  auto x = send_check(123, at_distance(2), xocs(2));
  x.dims(3, 5).ports({"one", "all"}).base(forced);
  checks.add("xocs, distance 2", x);
}

TEST(LongSends, AllPortFormsHaveNoOnePortPrediction) {
  MachineConfig c = link_bound_machine();
  c.d = 4;
  c.ports = Ports::parse("one");
  EXPECT_FALSE(model::oc_send_2_time(c, 100, 4).has_value());
  EXPECT_FALSE(model::oc_send_4_time(c, 100, 4, 2).has_value());
  EXPECT_FALSE(model::arbitrary_send_2_time(c, 100, 2, 2).has_value());
  EXPECT_FALSE(model::arbitrary_send_3_time(c, 100, 2, 1, 1).has_value());
  EXPECT_EQ(model::oc_send_1_time(c, 100, 4), 4 * link_bound_hop(100));
}

// The default group counts are the least of the closed form over every g (the paper's continuous optimum ignores
// hcemu's padding to g·lcm(1..n) units): checked against a plain scan of every g up to the one of a one-byte unit,
// where more groups only add packet times (and a few past it, to see that they do).
TEST(LongSends, DefaultGroupsAreTheLeastOfTheClosedFormOverEveryG) {
  for (const auto& [beta, tau] : std::vector<std::pair<double, double>>{{20, 1}, {16, 1}, {10, 0.01}, {100, 1}})
    for (int d = 1; d <= 6; ++d)
      for (std::size_t m : {std::size_t{1}, std::size_t{77}, std::size_t{1001}, std::size_t{4800}, std::size_t{6000}})
        for (int n = 1; n <= d; ++n) {
          MachineConfig c = link_bound_machine(beta, tau);
          c.d = d;
          c.ports = Ports::parse("all");
          SCOPED_TRACE("beta " + std::to_string(beta) + " d " + std::to_string(d) + " m " + std::to_string(m) + " n " +
                       std::to_string(n));
          const auto least = [&](auto time_of, int top) {
            int best = 1;
            for (int g = 2; g <= top; ++g)
              if (*time_of(g) < *time_of(best)) best = g;
            return best;
          };
          const int units = static_cast<int>(model::spread_unit_bytes(m, n)) + 4;
          EXPECT_EQ(model::optimal_oc_send_groups(c, m, n),
                    least([&](int g) { return model::oc_send_4_time(c, m, n, g); }, units));
          EXPECT_EQ(model::optimal_arbitrary_send_2_groups(c, m, n),
                    least([&](int g) { return model::arbitrary_send_2_time(c, m, n, g); },
                          static_cast<int>((m + static_cast<std::size_t>(d) - 1) / static_cast<std::size_t>(d))));
          if (n < d) {
            EXPECT_EQ(model::optimal_xoc_send_groups(c, m, n),
                      least([&](int g) { return model::xoc_send_time(c, m, n, g); }, units));
          }
        }
}

TEST(LongSends, DefaultOcGroupsCountThePadding) {
  // d = n = 6, β = 20, τ = 1, m = 6000: the paper's sqrt((K_5 - 1)τm/(dβ)) = sqrt((8/5)·6000/120) = 8.9 rounds to 9.
  // lcm(1..6) = 60 units; a stage-k link carries 60/(6·C(5,k)) = 10, 2, 1, 1, 2, 10 of them. g = 9: a unit of
  // ⌈6000/540⌉ = 12 bytes, 8·T(120) + T(120) + T(24) + T(12) + T(12) + T(24) + T(120) = 8·140 + 432 = 1552;
  // g = 10: 10 bytes, 9·120 + 380 = 1460, the least (the padding of g = 9 costs 480 bytes).
  MachineConfig c = link_bound_machine(20, 1);
  c.d = 6;
  c.ports = Ports::parse("all");
  EXPECT_EQ(model::oc_send_4_time(c, 6000, 6, 9), from_us(1552));
  EXPECT_EQ(model::oc_send_4_time(c, 6000, 6, 10), from_us(1460));
  EXPECT_EQ(model::optimal_oc_send_groups(c, 6000, 6), 10);
}

}  // namespace
}  // namespace hcemu
