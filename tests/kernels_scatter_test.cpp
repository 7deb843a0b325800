// Scatter and gather (Stout & Wagar 1990 §5 DISTRIBUTE 1-2 and COLLECT; Johnsson & Ho 1987 §4.3 SBT-p and SBnT-p):
// every node ends with its block (or the root with every block), and the virtual-time makespan equals the closed form.
#include <gtest/gtest.h>

#include <bit>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hcemu/hcemu.hpp"
#include "hcemu/kernels/scatter.hpp"
#include "hcemu/model/even_spread.hpp"
#include "hcemu/model/scatter.hpp"
#include "hcemu/model/spanning_trees.hpp"
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

// A root that is not 0 for d >= 1, to exercise the XOR translation.
int root_of(int nodes) { return nodes * 2 / 3; }

using Scatter = std::function<void(Node&, std::span<const std::byte> blocks, std::span<std::byte> block, int root)>;
using Gather = std::function<void(Node&, std::span<const std::byte> block, std::span<std::byte> blocks, int root)>;

// The root's input is 2^d random blocks of m bytes; node t must end with block t.
KernelCheck<> scatter_check(std::size_t m, Scatter scatter) {
  KernelCheck check;
  check
      .input([m](const Case& c, int node, std::mt19937_64& rng) {
        return node == root_of(c.nodes()) ? testing::random_bytes(m * static_cast<std::size_t>(c.nodes()), rng)
                                          : Data{};
      })
      .kernel([m, scatter](Node& node, std::span<const std::byte> in, Data& out) {
        out.assign(m, std::byte{0});
        scatter(node, in, out, root_of(node.size()));
      })
      .reference([m](const Case& c, const std::vector<Data>& in) {
        const Data& all = in[static_cast<std::size_t>(root_of(c.nodes()))];
        std::vector<Data> out;
        for (int t = 0; t < c.nodes(); ++t)
          out.emplace_back(all.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(t) * m),
                           all.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(t + 1) * m));
        return out;
      })
      .tolerance(testing::Tolerance::exact())
      .no_contention()
      .no_forced_discards();
  return check;
}

// Every node's input is m random bytes; the root must end with all of them, by source, the others with nothing.
KernelCheck<> gather_check(std::size_t m, Gather gather) {
  KernelCheck check;
  check.input([m](const Case&, int, std::mt19937_64& rng) { return testing::random_bytes(m, rng); })
      .kernel([gather](Node& node, std::span<const std::byte> in, Data& out) {
        const bool root = node.id() == root_of(node.size());
        out.assign(root ? in.size() * static_cast<std::size_t>(node.size()) : 0, std::byte{0});
        gather(node, in, out, root_of(node.size()));
      })
      .reference([](const Case& c, const std::vector<Data>& in) {
        std::vector<Data> out(in.size());
        for (const Data& block : in) {
          Data& all = out[static_cast<std::size_t>(root_of(c.nodes()))];
          all.insert(all.end(), block.begin(), block.end());
        }
        return out;
      })
      .tolerance(testing::Tolerance::exact())
      .no_contention()
      .no_forced_discards();
  return check;
}

Scatter dist1() {
  return [](Node& node, std::span<const std::byte> b, std::span<std::byte> o, int r) {
    kernels::distribute_1(node, b, o, r);
  };
}
Scatter dist2() {
  return [](Node& node, std::span<const std::byte> b, std::span<std::byte> o, int r) {
    kernels::distribute_2(node, b, o, r);
  };
}
Scatter sbt() {
  return [](Node& node, std::span<const std::byte> b, std::span<std::byte> o, int r) {
    kernels::sbt_scatter(node, b, o, r);
  };
}
Scatter sbnt() {
  return [](Node& node, std::span<const std::byte> b, std::span<std::byte> o, int r) {
    kernels::sbnt_scatter(node, b, o, r);
  };
}
Scatter nrsbt() {
  return [](Node& node, std::span<const std::byte> b, std::span<std::byte> o, int r) {
    kernels::nrsbt_scatter(node, b, o, r);
  };
}
Gather coll1() {
  return [](Node& node, std::span<const std::byte> b, std::span<std::byte> o, int r) {
    kernels::collect_1(node, b, o, r);
  };
}
Gather coll2() {
  return [](Node& node, std::span<const std::byte> b, std::span<std::byte> o, int r) {
    kernels::collect_2(node, b, o, r);
  };
}
Gather sbt_gather() {
  return [](Node& node, std::span<const std::byte> b, std::span<std::byte> o, int r) {
    kernels::sbt_gather(node, b, o, r);
  };
}

// λ = 10 µs, τ = 0.01 µs/byte.
Time link_bound_hop(std::size_t bytes) { return from_us(10) + from_us(0.01) * static_cast<Time>(bytes); }

// ----- DISTRIBUTE 1 and COLLECT
// ---------------------------------------------------------------------------------------

HCEMU_KERNEL_CHECKS(Distribute1, TheRootSendsEachClassInItsOwnStage) {
  // §5: Σ_{k<d} (τ·C(d,k)·m/d + β) = (2^d - 1)τm/d + dβ; with 840 = lcm(1..8) every message splits into its units.
  const std::size_t m = 840;
  auto check = scatter_check(m, dist1());
  check.dims(0, 7).ports({"all"}).base(link_bound_machine()).predict([](const MachineConfig& cfg) {
    Time t = 0;
    for (int h = 1; h <= cfg.d; ++h)
      t += link_bound_hop(static_cast<std::size_t>(model::binomial(cfg.d, h)) * 840 / static_cast<std::size_t>(cfg.d));
    return std::optional<Time>(t);
  });
  checks.add(check);
}

TEST(Distribute1, IsTheSumOfTheRootsStagesForLargeMessages) {
  // (2^d - 1)τm/d + dβ in closed form, d = 1..10.
  for (int d = 1; d <= 10; ++d) {
    MachineConfig c = link_bound_machine();
    c.d = d;
    c.ports = Ports::parse("all");
    const std::size_t m = 2520 * 4;  // lcm(1..10) = 2520
    const Time want = from_us(0.01) * static_cast<Time>(((std::size_t{1} << d) - 1) * m / static_cast<std::size_t>(d)) +
                      d * from_us(10);
    EXPECT_EQ(model::distribute_1_time(c, m), want) << "d = " << d;
  }
}

HCEMU_KERNEL_CHECKS(Distribute1, PaddingCircuitsAndLocalCopiesStayExact) {
  MachineConfig c = circuit_machine();
  c.rho = 0.003;
  for (std::size_t m : {std::size_t{1}, std::size_t{7}, std::size_t{100}}) {
    auto check = scatter_check(m, dist1());
    check.dims(0, 7).ports({"all"}).base(c).predict(
        [m](const MachineConfig& cfg) { return model::distribute_1_time(cfg, m); });
    checks.add("m = " + std::to_string(m), check);
  }
}

HCEMU_KERNEL_CHECKS(Collect1, IsDistribute1RunBackwards) {
  // §5: collecting "is exactly the same operation, only run in reverse": the same (2^d - 1)τm/d + dβ.
  const std::size_t m = 840;
  auto check = gather_check(m, coll1());
  check.dims(0, 7).ports({"all"}).base(link_bound_machine()).predict([](const MachineConfig& cfg) {
    Time t = 0;
    for (int h = 1; h <= cfg.d; ++h)
      t += link_bound_hop(static_cast<std::size_t>(model::binomial(cfg.d, h)) * 840 / static_cast<std::size_t>(cfg.d));
    return std::optional<Time>(t);
  });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(Collect1, PaddingCircuitsAndLocalCopiesStayExact) {
  MachineConfig c = circuit_machine();
  c.rho = 0.003;
  for (std::size_t m : {std::size_t{1}, std::size_t{7}, std::size_t{100}}) {
    auto check = gather_check(m, coll1());
    check.dims(0, 7).ports({"all"}).base(c).predict(
        [m](const MachineConfig& cfg) { return model::collect_1_time(cfg, m); });
    checks.add("m = " + std::to_string(m), check);
  }
}

// ----- DISTRIBUTE 2
// ---------------------------------------------------------------------------------------------------

TEST(Distribute2, WaveCountsAndRatiosAreThePapers) {
  // §5: k is the least integer with d((d-1)^k - 1)/(d-2) >= 2^d - 1; r solves d(r^k - 1)/(r - 1) = 2^d - 1.
  const std::vector<std::pair<int, int>> k = {{1, 1}, {2, 2}, {3, 2}, {4, 2},  {5, 3},  {6, 3},
                                              {7, 3}, {8, 3}, {9, 3}, {10, 4}, {12, 4}, {16, 5}};
  for (auto [d, want] : k) EXPECT_EQ(model::distribute_2_wave_count(d), want) << "d = " << d;
  EXPECT_NEAR(model::distribute_2_ratio(3), 4.0 / 3, 1e-9);   // 3(1 + r) = 7
  EXPECT_NEAR(model::distribute_2_ratio(4), 11.0 / 4, 1e-9);  // 4(1 + r) = 15
}

TEST(Distribute2, TheWorkedExampleForThreeDimensions) {
  // §5, d = 3: a first wave with the messages for C_2 and C_3 (4/3·τm + β to leave the root), split at C_1 into the
  // C_3 portion (1/6·τm + β) and the C_2 portion (1/2·τm + β); C_2 forwards the C_3 portion (1/3·τm + β); a second
  // wave for C_1 (τm + β). C_1 is done at 7/3·τm + 2β, C_2 at 2τm + 3β, C_3 at 11/6·τm + 3β: everything by
  // 7/3·τm + 2β when τm/3 >= β. Here τm = 60 µs, β = 10 µs: 160, 150 and 140 µs.
  EXPECT_EQ(model::distribute_2_waves(3), (model::Waves{{3, 2}, {1}}));
  const std::size_t m = 6000;
  auto check = scatter_check(m, dist2());
  check.dims({3}).ports({"all"}).base(link_bound_machine()).predict([](const MachineConfig&) {
    return std::optional<Time>(from_us(160));
  });
  check.check([](const CaseResult& r) -> std::string {
    const Case& c = r.run_case;
    const Time done_at[] = {from_us(160), from_us(160), from_us(150), from_us(140)};  // root, C_1, C_2, C_3
    for (int id = 0; id < c.nodes(); ++id) {
      const int distance = std::popcount(static_cast<unsigned>(id ^ root_of(c.nodes())));
      const Time clock = r.report.nodes[static_cast<std::size_t>(id)].final_clock;
      if (clock != done_at[distance])
        return "node " + std::to_string(id) + " done at " + std::to_string(clock) + " ps, not " +
               std::to_string(done_at[distance]);
    }
    return "";
  });
  testing::expect_passes(check);  // one case
  const auto levels = model::distribute_times(check.cases().front().config, m, model::distribute_2_waves(3));
  ASSERT_TRUE(levels.has_value());
  EXPECT_EQ(levels->level, (std::vector<Time>{from_us(160), from_us(160), from_us(150), from_us(140)}));
}

HCEMU_KERNEL_CHECKS(Distribute2, SavesStartUpsOnceWaveletsClearTheFirstLevel) {
  // §5: (2^d - 1)τm/d + kβ for m large enough; k waves instead of d. m = 420·100 bytes, β = 10 µs, τ = 0.01 µs.
  const std::size_t m = 42000;
  auto check = scatter_check(m, dist2());
  check.dims(2, 7).ports({"all"}).base(link_bound_machine()).predict([](const MachineConfig& cfg) {
    const auto total = ((std::size_t{1} << cfg.d) - 1) * 42000 / static_cast<std::size_t>(cfg.d);
    return std::optional<Time>(from_us(0.01) * static_cast<Time>(total) +
                               model::distribute_2_wave_count(cfg.d) * from_us(10));
  });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(Distribute2, SmallMessagesPaddingAndCopiesStayExact) {
  MachineConfig c = circuit_machine();
  c.rho = 0.003;
  for (std::size_t m : {std::size_t{1}, std::size_t{50}, std::size_t{840}}) {
    auto check = scatter_check(m, dist2());
    check.dims(0, 7).ports({"all"}).base(c).predict(
        [m](const MachineConfig& cfg) { return model::distribute_2_time(cfg, m); });
    checks.add("m = " + std::to_string(m), check);
  }
}

HCEMU_KERNEL_CHECKS(Collect2, IsDistribute2RunBackwards) {
  MachineConfig c = circuit_machine();
  c.rho = 0.003;
  for (std::size_t m : {std::size_t{3}, std::size_t{840}}) {
    auto check = gather_check(m, coll2());
    check.dims(0, 7).ports({"all"}).base(c).predict(
        [m](const MachineConfig& cfg) { return model::collect_2_time(cfg, m); });
    checks.add("m = " + std::to_string(m), check);
  }
}

// ----- SBT-p ---------------------------------------------------------------------------------------------------------

HCEMU_KERNEL_CHECKS(SbtScatter, HalvesTheBlocksOneDimensionAtATimeOnEveryPortModel) {
  // Johnsson & Ho Table 3, SBT-p(1,1): Σ_{i<n} (2^i·M·t_c + τ) = (N - 1)M·t_c + nτ.
  const std::size_t m = 100;
  auto check = scatter_check(m, sbt());
  check.dims(0, 7).ports({"one", "half", "all"}).base(link_bound_machine()).predict([](const MachineConfig& cfg) {
    Time t = 0;
    for (int i = 0; i < cfg.d; ++i) t += link_bound_hop((std::size_t{1} << i) * 100);
    return std::optional<Time>(t);
  });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(SbtScatter, PacketsPayTheirOwnStartUpsAsInTableThree) {
  // Johnsson & Ho Table 3 with n = 5, M = 32: B_m = 64 gives 992 element transfers and Σ_i ⌈2^i·32/64⌉ = 16 start-ups;
  // no packet limit gives 992 and 5.
  for (auto [packet, startups] : {std::pair{std::size_t{64}, 16}, {std::size_t{0}, 5}}) {
    MachineConfig c = link_bound_machine(10, 0.5);
    c.packet = packet;
    auto check = scatter_check(32, sbt());
    check.dims({5}).ports({"one"}).base(c).predict(
        [startups](const MachineConfig&) { return std::optional<Time>(992 * from_us(0.5) + startups * from_us(10)); });
    checks.add("packet = " + std::to_string(packet), check);
  }
}

HCEMU_KERNEL_CHECKS(SbtGather, TakesTheScattersTime) {
  const std::size_t m = 100;
  auto check = gather_check(m, sbt_gather());
  check.dims(0, 7).ports({"one", "half", "all"}).base(circuit_machine()).predict([](const MachineConfig& cfg) {
    return std::optional<Time>(model::sbt_gather_time(cfg, 100));
  });
  checks.add(check);
}

// ----- SBnT-p --------------------------------------------------------------------------------------------------------

TEST(Sbnt, SubtreeSizesAreJohnssonAndHos) {
  // Johnsson & Ho §3.5: the root's n subtrees hold about (N - 1)/n nodes each; for this definition of base():
  const std::vector<std::vector<std::size_t>> sizes = {{3, 2, 2},
                                                       {5, 4, 3, 3},
                                                       {7, 6, 6, 6, 6},
                                                       {13, 12, 11, 9, 9, 9},
                                                       {19, 18, 18, 18, 18, 18, 18},
                                                       {35, 34, 33, 33, 30, 30, 30, 30}};
  for (int n = 3; n <= 8; ++n) {
    const auto& children = model::sbnt_children(n);
    std::vector<std::size_t> got;
    for (int k = 0; k < n; ++k) {
      std::size_t count = 0;
      for (std::uint32_t v = 1; v < (1u << n); ++v) {
        std::uint32_t a = v;
        while (std::popcount(a) > 1) a = model::sbnt_parent(a, n);
        if (a == (1u << k)) ++count;
      }
      got.push_back(count);
    }
    EXPECT_EQ(got, sizes[static_cast<std::size_t>(n - 3)]) << "n = " << n;
    EXPECT_EQ(children[0].size(), static_cast<std::size_t>(n));
  }
}

TEST(Sbnt, EveryNodeSitsAtTheDepthOfItsDistance) {
  for (int n = 1; n <= 10; ++n)
    for (std::uint32_t v = 1; v < (1u << n); ++v) {
      const std::uint32_t p = model::sbnt_parent(v, n);
      EXPECT_EQ(std::popcount(p), std::popcount(v) - 1) << n << " " << v;
      EXPECT_EQ(p & v, p) << n << " " << v;
    }
  // n = 5: 00001 -> {00011, 00101}, 01100 -> {01101, 11100}.
  EXPECT_EQ(model::sbnt_children(5)[1], (std::vector<std::uint32_t>{3, 5}));
  EXPECT_EQ(model::sbnt_children(5)[12], (std::vector<std::uint32_t>{13, 28}));
}

HCEMU_KERNEL_CHECKS(SbntScatter, ThreeDimensionsTakeThreeBlockTimes) {
  // The SBnT of the 3-cube: subtrees {1, 3, 7}, {2, 6}, {4, 5}. Node 7's block leaves in step 0 and goes 0-1-3-7;
  // every link carries one block per step: 3(τm + β), against Johnsson & Ho's balanced ideal 7/3·τm + 3β.
  auto check = scatter_check(500, sbnt());
  check.dims({3}).ports({"all"}).base(link_bound_machine()).predict([](const MachineConfig&) {
    return std::optional<Time>(3 * link_bound_hop(500));
  });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(SbntScatter, MatchesItsStepByStepTime) {
  MachineConfig c = circuit_machine();
  c.rho = 0.003;
  for (std::size_t m : {std::size_t{1}, std::size_t{300}}) {
    auto check = scatter_check(m, sbnt());
    check.dims(0, 7).ports({"all"}).base(c).predict(
        [m](const MachineConfig& cfg) { return model::sbnt_scatter_time(cfg, m); });
    checks.add("m = " + std::to_string(m), check);
  }
}

// ----- nRSBT-p(n,1)
// ---------------------------------------------------------------------------------------------------

HCEMU_KERNEL_CHECKS(NrsbtScatter, MatchesItsStepByStepTime) {
  // m = 1 and 2 leave some trees without data; 301 cuts unequal parts; ρ charges every packet and the own parts.
  MachineConfig c = circuit_machine();
  c.rho = 0.003;
  for (std::size_t m : {std::size_t{1}, std::size_t{2}, std::size_t{301}}) {
    auto check = scatter_check(m, nrsbt());
    check.dims(0, 7).ports({"all"}).base(c).predict(
        [m](const MachineConfig& cfg) { return model::nrsbt_scatter_time(cfg, m); });
    checks.add("m = " + std::to_string(m), check);
  }
}

HCEMU_KERNEL_CHECKS(NrsbtScatter, TakesTableThreesBalancedTimeWhenTheTreesShareTheBlocksEvenly) {
  // Johnsson & Ho Table 3, nRSBT-p(n,1): (1/n)(N - 1)M t_c + Σ_{i=1..n} ⌈C(n,i)M/(nB_m)⌉ τ; with ρ = 0, no packet
  // limit and n | m: Σ_i (β + τ·C(n,i)·m/n). 840 = lcm(1..8).
  auto check = scatter_check(840, nrsbt());
  check.dims(0, 7).ports({"all"}).base(link_bound_machine()).predict([](const MachineConfig& cfg) {
    Time t = 0;
    for (int i = 1; i <= cfg.d; ++i)
      t += link_bound_hop(static_cast<std::size_t>(model::binomial(cfg.d, i)) * 840 / static_cast<std::size_t>(cfg.d));
    return std::optional<Time>(t);
  });
  checks.add(check);
}

TEST(NrsbtScatter, EveryRootLinkCarriesAPartOfEveryBlockButItsOwn) {
  // §4.1.4: the root's link across p heads the 2^(n-1-i)-node subtree of tree p - i, so over the n trees it carries
  // N - 1 parts, and in the step for depth l exactly C(n,l) parts (the root's packet, m = n: one byte a part).
  for (int n = 1; n <= 8; ++n) {
    MachineConfig c = link_bound_machine(0, 1);  // a link's time is its bytes, in µs
    c.d = n;
    c.ports = Ports::parse("all");
    Time want = 0;
    for (int l = 1; l <= n; ++l) want += from_us(static_cast<double>(model::binomial(n, l)));
    EXPECT_EQ(model::nrsbt_scatter_time(c, static_cast<std::size_t>(n)), want) << n;
    EXPECT_EQ(want, from_us((1 << n) - 1));
  }
}

// ----- Every kernel
// ---------------------------------------------------------------------------------------------------

HCEMU_KERNEL_CHECKS(ScatterGather, EveryAlgorithmDeliversUnderForcedOnEveryPortModel) {
  MachineConfig forced = link_bound_machine();
  forced.protocol = Protocol::forced;
  for (const auto& [name, scatter] : std::vector<std::pair<std::string, Scatter>>{
           {"dist1", dist1()}, {"dist2", dist2()}, {"sbt scatter", sbt()}, {"sbnt", sbnt()}, {"nrsbt", nrsbt()}}) {
    auto check = scatter_check(37, scatter);
    check.dims(0, 5).ports({"one", "all"}).base(forced);
    checks.add(name, check);
  }
  for (const auto& [name, gather] : std::vector<std::pair<std::string, Gather>>{
           {"coll1", coll1()}, {"coll2", coll2()}, {"sbt gather", sbt_gather()}}) {
    auto check = gather_check(37, gather);
    check.dims(0, 5).ports({"one", "all"}).base(forced);
    checks.add(name, check);
  }
}

TEST(ScatterGather, AllPortFormsHaveNoOnePortPrediction) {
  MachineConfig c = link_bound_machine();
  c.d = 4;
  c.ports = Ports::parse("one");
  EXPECT_FALSE(model::distribute_1_time(c, 840).has_value());
  EXPECT_FALSE(model::distribute_2_time(c, 840).has_value());
  EXPECT_FALSE(model::collect_1_time(c, 840).has_value());
  EXPECT_FALSE(model::sbnt_scatter_time(c, 840).has_value());
  EXPECT_FALSE(model::nrsbt_scatter_time(c, 840).has_value());
  EXPECT_EQ(model::sbt_scatter_time(c, 100),
            link_bound_hop(100) + link_bound_hop(200) + link_bound_hop(400) + link_bound_hop(800));
}

}  // namespace
}  // namespace hcemu
