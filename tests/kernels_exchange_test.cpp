// The complete exchange kernels: every node's result equals the sequential transpose of the block matrix, and the
// virtual-time makespan equals the closed form (docs/model.md §9; Bokhari 1993 eq. 2; Stout & Wagar §6).
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <string>

#include "common/cost_table.hpp"
#include "hcemu/hcemu.hpp"
#include "hcemu/kernels/exchange.hpp"
#include "hcemu/model/all_port_exchange.hpp"
#include "hcemu/model/exchange.hpp"
#include "hcemu/model/partitions.hpp"
#include "hcemu/model/planner.hpp"
#include "hcemu/testing/gtest.hpp"
#include "kernel_machines.hpp"

namespace hcemu {
namespace {

using kernels::ExchangeOptions;
using testing::Case;
using testing::CaseResult;
using testing::CheckList;
using testing::KernelCheck;
using testing::Tolerance;
using Data = std::vector<std::byte>;

using test::ipsc_like;

// Node i's input: 2^d random blocks of m bytes, block j for node j.
KernelCheck<>::InputFn blocks_of(std::size_t m) {
  return [m](const Case& c, int, std::mt19937_64& rng) { return testing::random_bytes(c.nodes() * m, rng); };
}

// The sequential reference: node t receives block t of every node s, in order of s.
KernelCheck<>::ReferenceFn transpose_of_blocks(std::size_t m) {
  return [m](const Case& c, const std::vector<Data>& in) {
    const auto n = static_cast<std::size_t>(c.nodes());
    std::vector<Data> out(n, Data(n * m));
    for (std::size_t t = 0; t < n; ++t)
      for (std::size_t s = 0; s < n; ++s)
        if (m > 0) std::memcpy(out[t].data() + s * m, in[s].data() + t * m, m);
    return out;
  };
}

// docs/model.md §9, one-port circuit, receives posted first, sync none:
// Σ_i [ Σ_{j=1..2^d_i-1} (λ + δ' + δ·popcount(j) + τ·m·2^(d-d_i)) + ρ·2^d·m ], no ρ term for one phase.
Time multiphase_oracle(const MachineConfig& config, const std::vector<int>& partition, std::size_t m) {
  const CostTable cost = CostTable::from(config);
  Time total = 0;
  for (int part : partition) {
    const std::size_t effective = m << (config.d - part);
    for (int j = 1; j < (1 << part); ++j)
      total += cost.startup(effective) + cost.delta_msg + cost.delta_hop * std::popcount(static_cast<unsigned>(j)) +
               cost.tau * static_cast<Time>(effective);
    if (partition.size() > 1) total += cost.copy(m << config.d);
  }
  return total;
}

using PartitionOf = std::function<std::vector<int>(int d)>;

KernelCheck<>::KernelFn multiphase_kernel(std::size_t m, PartitionOf partition_of, Sync sync = Sync::none) {
  return [m, partition_of, sync](Node& node, std::span<const std::byte> in, Data& out) {
    out.resize(in.size());
    kernels::multiphase_exchange(node, in, out, m, partition_of(node.dim()), ExchangeOptions{sync});
  };
}

// The checks of a multiphase exchange over d = 0..8, one-port against the docs/model.md §9 oracle and every port model
// against the model's closed form, contention-free; each case a test of its own (prefixed by `label` when given).
void add_multiphase(CheckList& checks, std::size_t m, const PartitionOf& partition_of, const std::string& label = "",
                    KernelCheck<>::KernelFn kernel = {}) {
  if (!kernel) kernel = multiphase_kernel(m, partition_of);
  KernelCheck check;
  check.dims(0, 8)
      .ports({"one"})
      .base(ipsc_like())
      .input(blocks_of(m))
      .reference(transpose_of_blocks(m))
      .kernel(kernel)
      .predict([=](const MachineConfig& cfg) { return multiphase_oracle(cfg, partition_of(cfg.d), m); })
      .tolerance(Tolerance::exact())
      .no_contention()
      .no_forced_discards();

  KernelCheck other_ports;
  other_ports.dims(0, 6)
      .ports({"all", "half", "k:2"})
      .base(ipsc_like())
      .input(blocks_of(m))
      .reference(transpose_of_blocks(m))
      .kernel(kernel)
      .predict([=](const MachineConfig& cfg) {
        return model::multiphase_exchange_time(cfg, partition_of(cfg.d), m, Sync::none);
      })
      .tolerance(Tolerance::exact())
      .no_contention();
  // The two sweeps' cases differ in their port models, so their names never meet.
  if (label.empty()) {
    checks.add(check).add(other_ports);
  } else {
    checks.add(label, check).add(label, other_ports);
  }
}

HCEMU_KERNEL_CHECKS(DirectExchange, DeliversEveryBlockInTheXorScheduleTime) {
  add_multiphase(checks, 37, [](int d) { return model::direct_partition(d); });
}

HCEMU_KERNEL_CHECKS(StandardExchange, DeliversEveryBlockInDStepsWithShuffles) {
  add_multiphase(checks, 37, [](int d) { return model::standard_partition(d); });
}

// The Standard exchange as Bokhari's pseudocode reads (standard_exchange.cpp) against the same oracle.
HCEMU_KERNEL_CHECKS(StandardExchange, BokharisFormDeliversInTheOracleTime) {
  add_multiphase(
      checks, 37, [](int d) { return model::standard_partition(d); }, "",
      [](Node& node, std::span<const std::byte> in, Data& out) {
        out.resize(in.size());
        kernels::standard_exchange(node, in, out, 37);
      });
}

HCEMU_KERNEL_CHECKS(MultiphaseExchange, EveryEquipartitionDeliversInItsClosedFormTime) {
  for (int n : {2, 3})
    add_multiphase(
        checks, 24, [n](int d) { return n <= d ? model::equipartition(d, n) : model::direct_partition(d); },
        "into" + std::to_string(n));
}

HCEMU_KERNEL_CHECKS(MultiphaseExchange, PhaseOrderDoesNotChangeDataOrTime) {
  // Nicol & Bokhari §2.4: the cost is separable in the phases; any order of the parts is a valid schedule.
  for (std::vector<int> partition : {std::vector<int>{1, 2}, {2, 1}, {1, 3, 1}, {3, 1, 1}, {2, 1, 2}}) {
    int d = 0;
    std::string label = "parts";
    for (int p : partition) d += p, label += "_" + std::to_string(p);
    KernelCheck check;
    check.dims({d})
        .ports({"one", "all"})
        .base(ipsc_like())
        .input(blocks_of(9))
        .reference(transpose_of_blocks(9))
        .kernel(multiphase_kernel(9, [partition](int) { return partition; }))
        .predict([=](const MachineConfig& cfg) { return model::multiphase_exchange_time(cfg, partition, 9); })
        .tolerance(Tolerance::exact())
        .no_contention();
    checks.add(label, check);
  }
}

TEST(MultiphaseExchange, DirectAndStandardKernelsEqualTheirPartitions) {
  for (int d : {3, 5}) {
    MachineConfig config = ipsc_like();
    config.d = d;
    const std::size_t m = 11;
    auto run = [&](auto&& kernel) {
      std::vector<Data> out(std::size_t{1} << d);
      RunReport report = Machine(config).run([&](Node& node) {
        Data in(node.size() * m);
        for (std::size_t k = 0; k < in.size(); ++k) in[k] = static_cast<std::byte>(k * 7 + node.id());
        auto& o = out[static_cast<std::size_t>(node.id())];
        o.resize(in.size());
        kernel(node, in, o);
      });
      return std::make_pair(report.makespan, out);
    };
    const auto direct = run([&](Node& n, const Data& in, Data& o) { kernels::direct_exchange(n, in, o, m); });
    const auto direct_mp = run([&](Node& n, const Data& in, Data& o) {
      kernels::multiphase_exchange(n, in, o, m, model::direct_partition(d));
    });
    const auto standard = run([&](Node& n, const Data& in, Data& o) { kernels::standard_exchange(n, in, o, m); });
    const auto standard_mp = run([&](Node& n, const Data& in, Data& o) {
      kernels::multiphase_exchange(n, in, o, m, model::standard_partition(d));
    });
    EXPECT_EQ(direct, direct_mp) << "d=" << d;
    EXPECT_EQ(standard, standard_mp) << "d=" << d;
    EXPECT_EQ(direct.second, standard.second) << "d=" << d;
  }
}

// The Standard exchange as Bokhari (1993) §2.1 writes it and the multiphase exchange with (1, ..., 1) are one schedule:
// every node ends with the same blocks at the same clock, under every synchronisation style and port model.
TEST(StandardExchange, BokharisPseudocodeGivesTheDataAndTimesOfThePartitionOfOnes) {
  const std::size_t m = 13;
  for (Sync sync : {Sync::none, Sync::barrier, Sync::pairwise})
    for (const char* ports : {"one", "half", "all"})
      for (int d = 0; d <= 5; ++d) {
        SCOPED_TRACE(std::string(to_string(sync)) + " ports=" + ports + " d=" + std::to_string(d));
        MachineConfig config = ipsc_like();
        config.d = d;
        config.ports = Ports::parse(ports);
        if (sync != Sync::none) config.protocol = Protocol::forced;
        auto run = [&](auto&& kernel) {
          std::vector<Data> out(std::size_t{1} << d);
          RunReport report = Machine(config).run([&](Node& node) {
            Data in(node.size() * m);
            for (std::size_t k = 0; k < in.size(); ++k) in[k] = static_cast<std::byte>(k * 11 + node.id() * 3);
            auto& o = out[static_cast<std::size_t>(node.id())];
            o.resize(in.size());
            kernel(node, in, o);
          });
          std::vector<Time> clocks;
          for (const NodeStats& n : report.nodes) clocks.push_back(n.final_clock);
          return std::make_pair(clocks, out);
        };
        const auto bokhari = run(
            [&](Node& n, const Data& in, Data& o) { kernels::standard_exchange(n, in, o, m, ExchangeOptions{sync}); });
        const auto ones = run([&](Node& n, const Data& in, Data& o) {
          kernels::multiphase_exchange(n, in, o, m, model::standard_partition(d), ExchangeOptions{sync});
        });
        EXPECT_EQ(bokhari.first, ones.first);
        EXPECT_EQ(bokhari.second, ones.second);
      }
}

HCEMU_KERNEL_CHECKS(MultiphaseExchange, OddSizesDeliverInTheirClosedFormTime) {
  MachineConfig base = ipsc_like();
  base.packet = 64;  // m·2^(d-d_i) not a multiple of the packet size: a short last packet
  for (std::size_t m : {std::size_t{0}, std::size_t{1}, std::size_t{100}}) {
    for (int n : {1, 2}) {
      auto partition_of = [n](int d) { return n <= d ? model::equipartition(d, n) : model::direct_partition(d); };
      KernelCheck check;
      check.dims({0, 1, 3, 5})
          .ports({"one", "all"})
          .base(base)
          .input(blocks_of(m))
          .reference(transpose_of_blocks(m))
          .kernel(multiphase_kernel(m, partition_of))
          .variant("circuit", [](MachineConfig&) {})
          .variant("store-and-forward", [](MachineConfig& c) { c.switching = Switching::store_and_forward; })
          .predict([=](const MachineConfig& cfg) {
            return model::multiphase_exchange_time(cfg, partition_of(cfg.d), m, Sync::none);
          })
          .tolerance(Tolerance::exact());
      checks.add("m" + std::to_string(m) + "_phases" + std::to_string(n), check);
    }
  }
}

HCEMU_KERNEL_CHECKS(MultiphaseExchange, BarrierAndPairwiseSyncUnderForcedLoseNothing) {
  MachineConfig base = ipsc_like();
  base.protocol = Protocol::forced;
  for (Sync sync : {Sync::barrier, Sync::pairwise}) {
    for (int n : {1, 2}) {
      auto partition_of = [n](int d) { return n <= d ? model::equipartition(d, n) : model::direct_partition(d); };
      KernelCheck check;
      check.dims(0, 6)
          .ports({"one", "all"})
          .base(base)
          .input(blocks_of(20))
          .reference(transpose_of_blocks(20))
          .kernel(multiphase_kernel(20, partition_of, sync))
          .predict([=](const MachineConfig& cfg) {
            return model::multiphase_exchange_time(cfg, partition_of(cfg.d), 20, sync);
          })
          .tolerance(Tolerance::exact())
          .no_forced_discards()
          .no_contention();
      checks.add(std::string(to_string(sync)) + "_phases" + std::to_string(n), check);
    }
  }
}

// Nicol & Bokhari §4: "Omission of the global synchronization is fatal as it leads to messages arriving before
// their corresponding receives have been posted and thus being discarded." Node 0 reaches the exchange late.
void late_node_0(Node& node, Sync sync) {
  const std::size_t m = 16;
  Data in(node.size() * m, std::byte{1}), out(node.size() * m);
  if (node.id() == 0) node.elapse(from_us(1000));
  kernels::direct_exchange(node, in, out, m, ExchangeOptions{sync});
}

TEST(MultiphaseExchange, SkippingTheBarrierUnderForcedLosesTheMessagesOfALateNode) {
  MachineConfig config = ipsc_like();
  config.d = 3;
  config.protocol = Protocol::forced;
  try {
    Machine(config).run([](Node& node) { late_node_0(node, Sync::none); });
    ADD_FAILURE() << "the exchange finished although node 0's messages arrived before its receives were posted";
  } catch (const DeadlockError& e) {
    // Every node sent to node 0 before it posted: all 7 receives of node 0 wait for discarded messages.
    int discarded = 0;
    for (const BlockedOperation& b : e.blocked)
      if (b.node == 0 && b.detail == "its message was discarded under FORCED") ++discarded;
    EXPECT_GE(discarded, 1) << e.what();
    // The report that comes with the error lists the lost messages: all to node 0, each found too early by a
    // receive node 0 posted at 1000 µs.
    ASSERT_NE(e.report, nullptr);
    EXPECT_GE(e.report->forced_discards.size(), 1u);
    for (const ForcedDiscard& lost : e.report->forced_discards) {
      EXPECT_EQ(lost.destination, 0);
      ASSERT_TRUE(lost.post_time.has_value());
      EXPECT_EQ(*lost.post_time, from_us(1000));
      EXPECT_LT(lost.arrival, *lost.post_time);
    }
  }
}

TEST(MultiphaseExchange, BarrierProtectsALateNodeUnderForced) {
  MachineConfig config = ipsc_like();
  config.d = 3;
  config.protocol = Protocol::forced;
  const RunReport report = Machine(config).run([](Node& node) { late_node_0(node, Sync::barrier); });
  EXPECT_TRUE(report.forced_discards.empty());
}

TEST(MultiphaseExchange, UnforcedSurvivesALateNodeWithoutSync) {
  MachineConfig config = ipsc_like();
  config.d = 3;
  const RunReport report = Machine(config).run([](Node& node) { late_node_0(node, Sync::none); });
  EXPECT_TRUE(report.forced_discards.empty());
  EXPECT_TRUE(report.unreceived.empty());
}

HCEMU_KERNEL_CHECKS(AutoExchange, RunsThePlannersPartitionInItsPredictedTime) {
  for (std::size_t m : {std::size_t{4}, std::size_t{64}, std::size_t{2048}}) {
    KernelCheck check;
    check.dims({0, 2, 5, 7})
        .ports({"one"})
        .base(ipsc_like())
        .input(blocks_of(m))
        .reference(transpose_of_blocks(m))
        .kernel([m](Node& node, std::span<const std::byte> in, Data& out) {
          out.resize(in.size());
          const auto used = kernels::auto_exchange(node, in, out, m);
          EXPECT_EQ(used, model::optimal_partition(node.config(), m).partition);
        })
        .predict([m](const MachineConfig& cfg) { return model::optimal_partition(cfg, m).predicted; })
        .tolerance(Tolerance::exact())
        .no_contention();
    checks.add("m" + std::to_string(m), check);
  }
}

HCEMU_KERNEL_CHECKS(MultiphaseExchange, TenDimensionsDeliverInTheOracleTime) {
  KernelCheck check;
  check.dims({10})
      .ports({"one", "all"})
      .base(ipsc_like())
      .input(blocks_of(3))
      .reference(transpose_of_blocks(3))
      .kernel(multiphase_kernel(3, [](int d) { return model::equipartition(d, 3); }))
      .predict([](const MachineConfig& cfg) {
        return model::multiphase_exchange_time(cfg, model::equipartition(cfg.d, 3), 3);
      })
      .tolerance(Tolerance::exact())
      .no_contention();
  checks.add(check);
}

// Stout & Wagar §6 and docs/model.md §9: all-port, store-and-forward, δ = δ' = 0: 2^(d-1)·τm + dλ.
HCEMU_KERNEL_CHECKS(AllPortExchange, MatchesStoutWagarClosedForm) {
  MachineConfig base;
  base.lambda = 12;
  base.tau = 1;
  base.switching = Switching::store_and_forward;
  const std::size_t m = 840;  // lcm(1..8): every message splits into equal pieces
  KernelCheck check;
  check.dims(0, 7)
      .ports({"all"})
      .base(base)
      .input(blocks_of(m))
      .reference(transpose_of_blocks(m))
      .kernel([m](Node& node, std::span<const std::byte> in, Data& out) {
        out.resize(in.size());
        kernels::all_port_exchange(node, in, out, m);
      })
      .predict([m](const MachineConfig& cfg) {
        const CostTable cost = CostTable::from(cfg);
        return cfg.d == 0 ? Time{0} : (cost.tau * static_cast<Time>(m) << (cfg.d - 1)) + cfg.d * cost.lambda;
      })
      .tolerance(Tolerance::exact())
      .no_contention();
  checks.add(check);
}

TEST(AllPortExchange, PaperValueForDThree) {
  // Stout & Wagar (1990) §9, the worked value: d = 3, β = 12, τ = 1, m = 3600 gives 14436.
  MachineConfig config;
  config.d = 3;
  config.lambda = 12;
  config.tau = 1;
  config.ports = Ports::parse("all");
  config.switching = Switching::store_and_forward;
  ASSERT_EQ(model::all_port_exchange_time(config, 3600), from_us(14436));
  const std::size_t m = 3600;
  const RunReport report = Machine(config).run([&](Node& node) {
    Data in(node.size() * m), out(node.size() * m);
    kernels::all_port_exchange(node, in, out, m);
  });
  EXPECT_EQ(report.makespan, from_us(14436));
}

TEST(AllPortExchange, UnevenPiecesTakeEachStagesFullestLink) {
  // d = 2, m = 1 byte: the message to relative address 3 is cut into pieces of 1 and 0 bytes. Stage 0 carries only
  // its 1-byte piece, across dimension 0; stage 1 the messages to 1 (dimension 0) and 2 (dimension 1) and the 1-byte
  // piece's second step, across dimension 1: loads (1, 0) then (1, 2), so T(1) + T(2) with T(L) = 12 + L µs.
  MachineConfig config;
  config.d = 2;
  config.lambda = 12;
  config.tau = 1;
  config.ports = Ports::parse("all");
  config.switching = Switching::store_and_forward;
  EXPECT_EQ(model::all_port_exchange_link_bytes(2, 0, 1), (std::vector<std::size_t>{1, 0}));
  EXPECT_EQ(model::all_port_exchange_link_bytes(2, 1, 1), (std::vector<std::size_t>{1, 2}));
  ASSERT_EQ(model::all_port_exchange_time(config, 1), from_us(13 + 14));
  const RunReport report = Machine(config).run([&](Node& node) {
    Data in(node.size()), out(node.size());
    kernels::all_port_exchange(node, in, out, 1);
  });
  EXPECT_EQ(report.makespan, from_us(13 + 14));
}

HCEMU_KERNEL_CHECKS(AllPortExchange, OddSizesAndOtherPortsStillDeliver) {
  for (std::size_t m : {std::size_t{0}, std::size_t{1}, std::size_t{7}}) {
    KernelCheck check;
    check.dims(0, 6)
        .ports({"one", "all"})
        .base(ipsc_like())
        .input(blocks_of(m))
        .reference(transpose_of_blocks(m))
        .kernel([m](Node& node, std::span<const std::byte> in, Data& out) {
          out.resize(in.size());
          kernels::all_port_exchange(node, in, out, m);
        })
        .predict([m](const MachineConfig& cfg) { return model::all_port_exchange_time(cfg, m); })
        .tolerance(Tolerance::exact());
    checks.add("m" + std::to_string(m), check);
  }
}

HCEMU_KERNEL_CHECKS(AllPortExchange, WithRhoAndCircuitMatchesItsClosedForm) {
  KernelCheck check;
  check.dims(1, 7)
      .ports({"all"})
      .base(ipsc_like())
      .input(blocks_of(60))
      .reference(transpose_of_blocks(60))
      .kernel([](Node& node, std::span<const std::byte> in, Data& out) {
        out.resize(in.size());
        kernels::all_port_exchange(node, in, out, 60);
      })
      .predict([](const MachineConfig& cfg) { return model::all_port_exchange_time(cfg, 60); })
      .tolerance(Tolerance::exact())
      .no_contention()
      // 60 = lcm(1..6): balanced up to d = 6, not at d = 7, where each stage's fullest link sets its time.
      .check([](const CaseResult& r) -> std::string { return r.predicted ? "" : "no closed form"; });
  checks.add(check);
}

}  // namespace
}  // namespace hcemu
