// Stout & Wagar (1990) §7.2 all-port block transpose (L.C. INVERSION on every l.c. subcube): every node's block
// equals the sequential transpose, and under all-port the makespan equals the paper's (kp + 1)(τm/(2kp) + β).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "harness/algorithm.hpp"
#include "common/cost_table.hpp"
#include "hcemu/hcemu.hpp"
#include "hcemu/kernels/transpose.hpp"
#include "hcemu/model/transpose.hpp"
#include "hcemu/testing/gtest.hpp"
#include "kernel_machines.hpp"

namespace hcemu {
namespace {

using Element = std::uint32_t;
using Data = std::vector<Element>;
using testing::Case;
using testing::CaseResult;
using testing::KernelCheck;
constexpr std::size_t kBytes = sizeof(Element);

// The paper's machine (Stout & Wagar 1990 §1): all-port, store-and-forward, a packet of L bytes costs β + τL per hop,
// no circuit set-up, local work free.
MachineConfig paper_machine(double beta, double tau) {
  MachineConfig c;
  c.lambda = beta;
  c.tau = tau;
  c.switching = Switching::store_and_forward;
  c.ports = Ports::parse("all");
  return c;
}

using test::ipsc_like;

// Block (a, b) of side s at node a·2^c + b; node a·2^c + b must end with (M_{b,a})^T.
KernelCheck<Element>::ReferenceFn blocks_reference(std::size_t s) {
  return [s](const Case& c, const std::vector<Data>& in) {
    const int half = c.d / 2;
    const std::size_t mask = (std::size_t{1} << half) - 1;
    std::vector<Data> out(in.size(), Data(s * s));
    for (std::size_t id = 0; id < in.size(); ++id) {
      const std::size_t a = id >> half, b = id & mask;
      const Data& from = in[(b << half) | a];
      for (std::size_t i = 0; i < s; ++i)
        for (std::size_t j = 0; j < s; ++j) out[id][i * s + j] = from[j * s + i];
    }
    return out;
  };
}

// `packets_of(d)`: the paper's kp for the case's dimension.
KernelCheck<Element> sw_check(std::size_t s, std::function<int(int)> packets_of) {
  KernelCheck<Element> check;
  check
      .input([s](const Case&, int, std::mt19937_64& rng) {
        Data v(s * s);
        for (auto& x : v) x = static_cast<Element>(rng());
        return v;
      })
      .reference(blocks_reference(s))
      .kernel([s, packets_of](Node& node, std::span<const Element> in, Data& out) {
        out.resize(in.size());
        kernels::stout_wagar_transpose(node, std::as_bytes(in), std::as_writable_bytes(std::span(out)),
                                       s << (node.dim() / 2), kBytes, packets_of(node.dim()));
      });
  return check;
}

int fewest_packets(int d) { return d; }  // the paper's p = 2 packets per stage for the largest subcube, k = d/2

// The paper's L.C. INVERSION time for P = kp sends per link and block m: (P + 1)(τ·m/(2P) + β) (§7.2), here in
// bytes; requires 2P to divide m.
Time paper_time(const MachineConfig& cfg, std::size_t block_bytes, int packets) {
  const CostTable cost = CostTable::from(cfg);
  const auto p = static_cast<std::size_t>(packets);
  EXPECT_EQ(block_bytes % (2 * p), 0u) << "the paper's formula assumes equal packets";
  return static_cast<Time>(p + 1) * (cost.tau * static_cast<Time>(block_bytes / (2 * p)) + cost.lambda);
}

HCEMU_KERNEL_CHECKS(StoutWagarTranspose, PaperExampleTakesElevenPacketTimes) {
  // Stout & Wagar (1990), the paper's worked values: d = 4, N = 240 (m = 3600 items), β = 18, τ = 1 per item, kp = 10,
  // which is the paper's optimum sqrt(τm/(2β)) = 10: 11·(180 + 18) = 2178 = τm/2 + 2·sqrt(βτm/2) + β = 1800 + 360 + 18.
  // Items are 4 bytes, so τ = 0.25 µs per byte.
  KernelCheck<Element> check = sw_check(60, [](int) { return 10; });
  check.dims({4})
      .ports({"all"})
      .base(paper_machine(18, 0.25))
      .predict([](const MachineConfig&) { return from_us(2178); })
      .tolerance(testing::Tolerance::exact())
      .no_contention();
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(StoutWagarTranspose, AllPortMatchesThePaperOnEveryEvenDimension) {
  // s = 6: a block of 144 bytes, which 2P divides for P = d = 2, 4, 6, 8.
  const std::size_t s = 6;
  KernelCheck<Element> check = sw_check(s, fewest_packets);
  check.dims({2, 4, 6, 8})
      .ports({"all"})
      .base(paper_machine(18, 0.25))
      .predict([=](const MachineConfig& cfg) { return paper_time(cfg, s * s * kBytes, cfg.d); })
      .tolerance(testing::Tolerance::exact())
      .no_contention();
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(StoutWagarTranspose, EveryDirectedLinkCarriesOneStreamOfPPackets) {
  // §7.2: the l.c. subcubes share no physical link, and together (members' first hops, intermediates' second
  // hops) they use all d·2^d directed links: each carries P packets of m/(2P), busy P·(β + τm/(2P)).
  const std::size_t s = 6;
  KernelCheck<Element> check = sw_check(s, fewest_packets);
  check.dims({2, 4, 6}).ports({"all"}).base(paper_machine(18, 0.25)).check([=](const CaseResult& r) -> std::string {
    const Case& c = r.run_case;
    const CostTable cost = CostTable::from(c.config);
    const auto packets = static_cast<Time>(c.d);
    const Time busy = packets * (cost.lambda + cost.tau * static_cast<Time>(s * s * kBytes) / (2 * packets));
    if (r.report.links.size() != static_cast<std::size_t>(c.d * c.nodes()))
      return std::to_string(r.report.links.size()) + " links used, not all d·2^d";
    for (const LinkStats& link : r.report.links)
      if (link.busy != busy)
        return "link " + std::to_string(link.from) + "/" + std::to_string(link.dim) + " busy " +
               std::to_string(link.busy) + " ps, not " + std::to_string(busy);
    for (const NodeStats& node : r.report.nodes)
      if (node.messages_sent != static_cast<std::uint64_t>(c.d * c.d))
        return "a node sent " + std::to_string(node.messages_sent) + " messages, not d·d";
    return "";
  });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(StoutWagarTranspose, OnePortIsStillCorrect) {
  KernelCheck<Element> check = sw_check(6, fewest_packets);
  check.dims({0, 2, 4, 6, 8}).ports({"one", "half"}).base(paper_machine(18, 0.25)).no_contention();
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(StoutWagarTranspose, DimensionZeroIsTheLocalTranspose) {
  MachineConfig base = paper_machine(18, 0.25);
  base.rho = 0.5;
  KernelCheck<Element> check = sw_check(6, fewest_packets);
  check.dims({0})
      .ports({"all", "one"})
      .base(base)
      .predict([](const MachineConfig& cfg) { return CostTable::from(cfg).copy(6 * 6 * kBytes); })
      .tolerance(testing::Tolerance::exact());
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(StoutWagarTranspose, PacketsSpanningStagesKeepThePaperTime) {
  // P = 7 at d = 6: subcubes of dimension 2 and 3 cannot give each stage the same number of packets, so some
  // packets carry the end of one stage and the start of the next; every link still carries 7 equal packets.
  const std::size_t s = 7;  // 196 bytes = 2·7·14
  KernelCheck<Element> check = sw_check(s, [](int) { return 7; });
  check.dims({6})
      .ports({"all"})
      .base(paper_machine(18, 0.25))
      .variant("", nullptr)
      .variant(
          "random thread yields",
          [](MachineConfig&, EmulatorSettings& settings) { settings.yield_seed = 7; })  // same times, any interleaving
      .predict([=](const MachineConfig& cfg) { return paper_time(cfg, s * s * kBytes, 7); })
      .tolerance(testing::Tolerance::exact())
      .no_contention();
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(StoutWagarTranspose, UnevenPacketsMatchTheModel) {
  // 98 bytes per path in 5 packets: 19, 20, 20, 20, 19 -> sent as 19, 19, 20, 20, 20: Σ t(L) + t(20).
  const std::size_t s = 7;
  KernelCheck<Element> check = sw_check(s, [](int) { return 5; });
  check.dims({4})
      .ports({"all"})
      .base(paper_machine(18, 0.25))
      .predict([=](const MachineConfig& cfg) {
        const CostTable cost = CostTable::from(cfg);
        auto t = [=](Time bytes) { return cost.lambda + cost.tau * bytes; };
        return 2 * t(19) + 3 * t(20) + t(20);
      })
      .tolerance(testing::Tolerance::exact())
      .no_contention();
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(StoutWagarTranspose, MatchesTheModelOnCircuitWithRhoAndPackets) {
  // Beyond the paper: circuit switching with δ, δ' and λ0, ρ for staging and the local transpose, and a packet
  // limit that splits each 48-byte message (s = 12, P = d = 6: 288 bytes per path) into three hardware packets.
  MachineConfig base = ipsc_like();
  base.ports = Ports::parse("all");
  KernelCheck<Element> check = sw_check(12, fewest_packets);
  check.dims({2, 4, 6})
      .ports({"all"})
      .base(base)
      .variant("circuit", nullptr)
      .variant("store-and-forward, 20-byte packets",
               [](MachineConfig& c) {
                 c.switching = Switching::store_and_forward;
                 c.packet = 20;
               })
      .predict([](const MachineConfig& cfg) {
        return model::stout_wagar_transpose_time(cfg, 12 << (cfg.d / 2), kBytes, cfg.d);
      })
      .tolerance(testing::Tolerance::exact())
      .no_contention()
      .check([](const CaseResult& r) -> std::string { return r.predicted ? "" : "no closed form"; });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(StoutWagarTranspose, PostsEveryReceiveBeforeAnyPacketArrives) {
  MachineConfig base = paper_machine(18, 0.25);
  base.protocol = Protocol::forced;
  KernelCheck<Element> check = sw_check(6, fewest_packets);
  check.dims({2, 4, 6}).ports({"all", "one"}).base(base).no_forced_discards();
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(StoutWagarTranspose, EmptyAndSingleElementBlocks) {
  // s = 0: every packet is empty and costs λ0; s = 1: 2 bytes per path, fewer than the k pieces of the larger
  // subcubes at d = 6, 8, so there the packets follow the stages.
  for (std::size_t s : {std::size_t{0}, std::size_t{1}}) {
    MachineConfig base = ipsc_like();
    KernelCheck<Element> check = sw_check(s, [](int d) { return d + 1; });
    check.dims({0, 2, 4, 6, 8}).ports({"all", "one"}).base(base).no_contention();
    checks.add("s = " + std::to_string(s), check);
  }
  MachineConfig base = ipsc_like();
  base.ports = Ports::parse("all");
  KernelCheck<Element> empty = sw_check(0, fewest_packets);
  empty.dims({2, 4})
      .ports({"all"})
      .base(base)
      .predict([](const MachineConfig& cfg) {
        const CostTable cost = CostTable::from(cfg);
        return (cfg.d + 1) * (cost.lambda0 + cost.delta_msg + cost.delta_hop);  // (P + 1) empty one-hop packets
      })
      .tolerance(testing::Tolerance::exact());
  checks.add(empty);
}

HCEMU_KERNEL_CHECKS(StoutWagarTranspose, SizesNotDivisibleByThePacketsAreCorrect) {
  // 5 x 5 blocks: 50 bytes per path, cut into 4, 6, 9 or 11 packets; and odd block sizes of 3-byte elements.
  for (int extra : {0, 1, 3}) {
    KernelCheck<Element> check = sw_check(5, [extra](int d) { return d + extra; });
    check.dims({2, 4, 6, 8}).ports({"all"}).base(ipsc_like()).no_contention();
    checks.add("packets = d + " + std::to_string(extra), check);
  }
  using Triple = std::array<std::uint8_t, 3>;
  const std::size_t s = 3;  // 27-byte blocks: the two paths carry 14 and 13 bytes
  KernelCheck<Triple> odd;
  odd.dims({2, 4, 6}).ports({"all", "one"}).base(ipsc_like())
      .input([s](const Case&, int, std::mt19937_64& rng) {
        std::vector<Triple> v(s * s);
        for (auto& x : v) x = {static_cast<std::uint8_t>(rng()), static_cast<std::uint8_t>(rng()),
                               static_cast<std::uint8_t>(rng())};
        return v;
      })
      .reference([s](const Case& c, const std::vector<std::vector<Triple>>& in) {
        const int half = c.d / 2;
        std::vector<std::vector<Triple>> out(in.size(), std::vector<Triple>(s * s));
        for (std::size_t id = 0; id < in.size(); ++id) {
          const std::size_t a = id >> half, b = id & ((std::size_t{1} << half) - 1);
          for (std::size_t i = 0; i < s; ++i)
            for (std::size_t j = 0; j < s; ++j) out[id][i * s + j] = in[(b << half) | a][j * s + i];
        }
        return out;
      })
      .kernel([s](Node& node, std::span<const Triple> in, std::vector<Triple>& out) {
        out.resize(in.size());
        kernels::stout_wagar_transpose(node, std::as_bytes(in), std::as_writable_bytes(std::span(out)),
                                       s << (node.dim() / 2), sizeof(Triple), node.dim());
      })
      .no_contention();
  checks.add(odd);
}

HCEMU_KERNEL_CHECKS(StoutWagarTranspose, TenDimensions) {
  // s = 5: 50 bytes per path in P = 10 packets of 5.
  const std::size_t s = 5;
  KernelCheck<Element> check = sw_check(s, fewest_packets);
  check.dims({10})
      .ports({"all"})
      .base(paper_machine(18, 0.25))
      .predict([=](const MachineConfig& cfg) { return paper_time(cfg, s * s * kBytes, 10); })
      .tolerance(testing::Tolerance::exact())
      .no_contention();
  checks.add(check);
}

TEST(StoutWagarTranspose, RejectsOddDimensionsAndTooFewPackets) {
  MachineConfig config = paper_machine(18, 0.25);
  auto run_with = [&](int d, int packets) {
    config.d = d;
    Machine(config).run([packets](Node& node) {
      Data in(4), out(4);
      kernels::stout_wagar_transpose(node, std::as_bytes(std::span(in)), std::as_writable_bytes(std::span(out)),
                                     std::size_t{2} << (node.dim() / 2), kBytes, packets);
    });
  };
  EXPECT_THROW(run_with(3, 4), KernelError);
  EXPECT_THROW(run_with(4, 3), KernelError);  // the largest subcube (k = 2) needs p >= 2 packets per stage
  config.d = 3;
  EXPECT_FALSE(model::stout_wagar_transpose_time(config, 8, kBytes, 4).has_value());
}

TEST(StoutWagarTransposeModel, PaperOptimumGivesTheClosedForm) {
  // §7.2: τN²/2^(d+1) + 2·sqrt(βτ/2^(d+1))·N + β at kp = sqrt(τm/(2β)); d = 4, N = 240, β = 18, τ = 1 per item.
  MachineConfig config = paper_machine(18, 0.25);
  config.d = 4;
  EXPECT_EQ(model::stout_wagar_packets(config, 240, kBytes), 10);
  EXPECT_EQ(model::stout_wagar_transpose_time(config, 240, kBytes, 10), from_us(1800 + 360 + 18));
}

TEST(StoutWagarTransposeModel, GivesNoTimeWhereThePipelineCouldStall) {
  MachineConfig config = paper_machine(18, 0.25);
  config.d = 4;
  EXPECT_FALSE(model::stout_wagar_transpose_time(config, 240, kBytes, 3).has_value());  // fewer than d packets
  config.ports = Ports::parse("one");
  EXPECT_FALSE(model::stout_wagar_transpose_time(config, 240, kBytes, 10).has_value());
  config.ports = Ports::parse("all");
  // 5 x 5 blocks (50 bytes per path) in 4 packets: 13-byte packets, two of which exceed a 25-byte piece.
  EXPECT_FALSE(model::stout_wagar_transpose_time(config, 20, kBytes, 4).has_value());
}

TEST(StoutWagarTransposeRegistry, RunsVerifiedAndAsPredicted) {
  const harness::KernelFamily& info = harness::find_family("transpose");
  MachineConfig config = paper_machine(18, 0.25);
  config.d = 4;
  harness::KernelCase c;
  c.algo = "stout-wagar";
  c.m = 3600 * kBytes;
  const harness::KernelResult r = info.run(config, {}, c);
  EXPECT_TRUE(r.verified) << r.verify_message;
  ASSERT_TRUE(r.predicted.has_value());
  EXPECT_EQ(r.report.makespan, *r.predicted);
  EXPECT_EQ(r.predicted, info.predict(config, c));

  auto expands_to_stout_wagar = [&](const MachineConfig& cfg) {
    const auto cases = info.expand_all(cfg, c);
    return std::count_if(cases.begin(), cases.end(),
                         [](const harness::KernelCase& k) { return k.algo == "stout-wagar"; });
  };
  EXPECT_EQ(expands_to_stout_wagar(config), 1);
  config.ports = Ports::parse("one");
  EXPECT_EQ(expands_to_stout_wagar(config), 0);
  config.ports = Ports::parse("all");
  config.d = 3;
  EXPECT_EQ(expands_to_stout_wagar(config), 0);
}

TEST(StoutWagarTransposeRegistry, PiecesGiveThePacketsPerLink) {
  // §7.2, (kp + 1)(τm/(2kp) + β) with kp = P = 8 (the optimum is 10), m = 60·60·4 bytes, β = 18, τ = 0.25:
  // 9·(0.25·14400/16 + 18) = 9·243 µs.
  const harness::KernelFamily& info = harness::find_family("transpose");
  MachineConfig config = paper_machine(18, 0.25);
  config.d = 4;
  harness::KernelCase c;
  c.algo = "stout-wagar";
  c.m = 3600 * kBytes;
  c.params.set("packets", 8);
  const harness::KernelResult r = info.run(config, {}, c);
  EXPECT_TRUE(r.verified) << r.verify_message;
  EXPECT_EQ(r.run_case.params.number("packets"), 8u);
  EXPECT_EQ(r.report.makespan, from_us(9 * 243));
  EXPECT_EQ(r.predicted, std::optional<Time>(from_us(9 * 243)));
  EXPECT_EQ(info.predict(config, c), r.predicted);
}

TEST(StoutWagarTransposeRegistry, ZeroPiecesRunAndReportTheFastestPacketCount) {
  const harness::KernelFamily& info = harness::find_family("transpose");
  MachineConfig config = paper_machine(18, 0.25);
  config.d = 4;
  harness::KernelCase c;
  c.algo = "stout-wagar";
  c.m = 3600 * kBytes;
  EXPECT_EQ(info.run(config, {}, c).run_case.params.number("packets"),
            10u);  // model::stout_wagar_packets, checked above against §7.2
}

TEST(StoutWagarTransposeRegistry, FewerPiecesThanDAreAUsageError) {
  const harness::KernelFamily& info = harness::find_family("transpose");
  MachineConfig config = paper_machine(18, 0.25);
  config.d = 4;
  harness::KernelCase c;
  c.algo = "stout-wagar";
  c.m = 3600 * kBytes;
  c.params.set("packets", 3);
  EXPECT_THROW(info.run(config, {}, c), UsageError);
  EXPECT_THROW(info.predict(config, c), UsageError);
}

}  // namespace
}  // namespace hcemu
