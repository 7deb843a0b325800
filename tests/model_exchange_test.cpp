// Closed forms of the Direct, Standard and Multiphase exchanges (include/hcemu/model/exchange.hpp). Every expected
// value is worked out by hand from docs/model.md §9 and Bokhari 1993 eq. 2 with small round numbers (microseconds).
#include <gtest/gtest.h>

#include <bit>

#include "common/cost_table.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/model/exchange.hpp"

namespace hcemu::model {
namespace {

// λ = 10, δ' = 2, δ = 1 per hop, τ = 0.5 per byte, ρ = 0.25 per byte; with m = 4 a step of an effective block of
// m·2^(d-a) bytes costs 12 + h + 0.5·m·2^(d-a).
MachineConfig small_cube(int d) {
  MachineConfig config;
  config.d = d;
  config.lambda = 10;
  config.delta_msg = 2;
  config.delta_hop = 1;
  config.tau = 0.5;
  config.rho = 0.25;
  return config;
}

TEST(ModelExchange, DirectExchangeIsTheXorScheduleSumWithoutShuffle) {
  // docs/model.md §9: sum_{k=1..7} (10 + 2 + popcount(k) + 0.5·4) = 7·14 + (1+1+2+1+2+2+3) = 110. No ρ term.
  EXPECT_EQ(direct_exchange_time(small_cube(3), 4), from_us(110));
}

TEST(ModelExchange, StandardExchangeMatchesTheModelOracle) {
  // docs/model.md §9: d(λ + δ' + δ + τ·m·2^(d-1)) + d·ρ·2^d·m = 3(10 + 2 + 1 + 8) + 3·0.25·8·4 = 63 + 24.
  EXPECT_EQ(standard_exchange_time(small_cube(3), 4), from_us(87));
  // d = 5, m = 2: 5(13 + 0.5·2·16) + 5·0.25·32·2 = 145 + 80.
  EXPECT_EQ(standard_exchange_time(small_cube(5), 2), from_us(225));
}

TEST(ModelExchange, MultiphaseChargesEachPhaseItsStepsAndOneShuffle) {
  // Partition (1, 2) of d = 3, m = 4. Phase 1: one step of 16 bytes, 1 hop: 12 + 1 + 8 = 21.
  // Phase 2: steps j = 1, 2, 3 (1, 1, 2 hops) of 8 bytes: 17 + 17 + 18 = 52. Two shuffles of 0.25·8·4 = 8.
  EXPECT_EQ(multiphase_exchange_time(small_cube(3), {1, 2}, 4), from_us(21 + 52 + 16));
}

TEST(ModelExchange, PhaseOrderDoesNotChangeTheTime) {
  EXPECT_EQ(multiphase_exchange_time(small_cube(3), {2, 1}, 4), multiphase_exchange_time(small_cube(3), {1, 2}, 4));
  EXPECT_EQ(multiphase_exchange_time(small_cube(6), {3, 1, 2}, 7), multiphase_exchange_time(small_cube(6), {1, 2, 3}, 7));
}

TEST(ModelExchange, DirectAndStandardAreTheExtremePartitions) {
  const MachineConfig config = small_cube(4);
  EXPECT_EQ(direct_exchange_time(config, 5), multiphase_exchange_time(config, {4}, 5));
  EXPECT_EQ(standard_exchange_time(config, 5), multiphase_exchange_time(config, {1, 1, 1, 1}, 5));
}

TEST(ModelExchange, MultiphaseMatchesTheModelOracleForEveryPartition) {
  // docs/model.md §9, summed step by step exactly as written there.
  const MachineConfig config = small_cube(6);
  const CostTable cost = CostTable::from(config);
  const std::size_t m = 3;
  for (const Partition& partition : partitions(6)) {
    Time expected = 0;
    for (int part : partition) {
      for (unsigned j = 1; j < (1u << part); ++j) {
        expected += cost.lambda + cost.delta_msg + cost.delta_hop * std::popcount(j) +
                    cost.tau * static_cast<Time>(m << (6 - part));
      }
      if (partition.size() > 1) expected += cost.rho * static_cast<Time>(m << 6);
    }
    EXPECT_EQ(multiphase_exchange_time(config, partition, m), expected) << ::testing::PrintToString(partition);
  }
}

TEST(ModelExchange, ZeroCubeExchangesNothing) {
  EXPECT_EQ(multiphase_exchange_time(small_cube(0), {}, 100), 0);
  EXPECT_EQ(direct_exchange_time(small_cube(0), 100), 0);
}

TEST(ModelExchange, BarrierSyncAddsOneBarrierPerPhase) {
  MachineConfig config = small_cube(3);
  config.barrier_a = 5;
  config.barrier_b = 1;  // Q(3) = 8
  EXPECT_EQ(multiphase_exchange_time(config, {1, 2}, 4, Sync::barrier), from_us(89 + 2 * 8));
  EXPECT_EQ(direct_exchange_time(config, 4, Sync::barrier), from_us(110 + 8));
}

TEST(ModelExchange, PairwiseSyncAddsABarrierAndAZeroByteExchangeBeforeEachStep) {
  MachineConfig config = small_cube(3);
  config.barrier_a = 5;
  config.barrier_b = 1;
  config.lambda0 = 6;  // a zero-byte exchange at h hops: 6 + 2 + h
  // Phase 1: one sync of 9. Phase 2: 9 + 9 + 10. Plus Q(3) = 8 per phase.
  EXPECT_EQ(multiphase_exchange_time(config, {1, 2}, 4, Sync::pairwise), from_us(89 + 9 + 28 + 16));
}

TEST(ModelExchange, HalfDuplexDoublesEveryExchangeButNotTheShuffle) {
  MachineConfig config = small_cube(3);
  config.ports = Ports::parse("half");
  EXPECT_EQ(multiphase_exchange_time(config, {1, 2}, 4), from_us(2 * (21 + 52) + 16));
}

TEST(ModelExchange, AllPortAndKPortCostTheSameAsOnePortUnderThisSchedule) {
  MachineConfig config = small_cube(3);
  config.ports = Ports::parse("all");
  EXPECT_EQ(multiphase_exchange_time(config, {1, 2}, 4), from_us(89));
  config.ports = Ports::parse("k:2");
  EXPECT_EQ(multiphase_exchange_time(config, {1, 2}, 4), from_us(89));
}

TEST(ModelExchange, EachPacketOfASplitBlockPaysItsOwnStartUp) {
  MachineConfig config = small_cube(3);
  config.packet = 8;
  // Phase 1's block of 16 bytes goes as two packets of 8: 2·(10 + 2 + 1 + 4) = 34 instead of 21.
  EXPECT_EQ(multiphase_exchange_time(config, {1, 2}, 4), from_us(34 + 52 + 16));
}

TEST(ModelExchange, StoreAndForwardPaysTheStartUpOnEveryHop) {
  MachineConfig config = small_cube(2);
  config.switching = Switching::store_and_forward;
  // Direct, m = 4: steps at 1, 1, 2 hops, each hop λ + τm = 12 (no circuit set-up): 12 + 12 + 24.
  EXPECT_EQ(direct_exchange_time(config, 4), from_us(48));
}

TEST(ModelExchange, PartitionThatDoesNotSumToDIsRejected) {
  EXPECT_THROW(multiphase_exchange_time(small_cube(3), {1, 1}, 4), UsageError);
  EXPECT_THROW(multiphase_exchange_time(small_cube(3), {0, 3}, 4), UsageError);
}

}  // namespace
}  // namespace hcemu::model
