#pragma once
// The multiphase planner: the partition of d whose multiphase exchange is fastest for block size m on a given
// machine (Bokhari 1993; Nicol & Bokhari 1994). docs/planner.md describes the algorithm and its sources.
#include <cstddef>
#include <string>
#include <string_view>

#include "hcemu/config.hpp"
#include "hcemu/model/exchange.hpp"
#include "hcemu/model/hull.hpp"
#include "hcemu/model/partitions.hpp"
#include "hcemu/model/split_threshold.hpp"
#include "hcemu/model/sync.hpp"
#include "hcemu/time.hpp"

namespace hcemu::model {

inline constexpr std::string_view kRuleHull = "bokhari-hull";
inline constexpr std::string_view kRuleEnumeration = "exact-enumeration";

struct Plan {
  Partition partition;  // parts non-decreasing
  Time predicted = 0;   // multiphase_exchange_time(config, partition, m, sync)
  std::string rule;     // kRuleHull or kRuleEnumeration
  std::string reason;   // why the hull could not be used, empty when it was
};

// Empty when every phase of every partition costs, at this m, a Bokhari line (per-message start-up, τ per byte, no
// dependence on distance): circuit switching, delta_hop == 0, and no packet splitting of any effective block
// (packet == 0 or m·2^(d-1) <= packet). Any port mode and sync style qualify (half-duplex doubles λ, δ' and τ;
// pairwise sync adds λ0 + δ' per step; barrier adds Q(d) per phase). Otherwise says why not, e.g. "delta_hop > 0:
// the set-up cost depends on the distance, δ·popcount(j), for which Bokhari's theorems are not proved".
std::string hull_inexact_reason(const MachineConfig& config, std::size_t m);

// Bokhari's parameters of this config and sync style, in microseconds: the ExchangeParams whose partition_line
// gives multiphase_exchange_time (up to the picosecond rounding) whenever hull_inexact_reason(config, m) is empty
// and m > 0 (at m = 0 the data messages start up in λ0, not λ).
ExchangeParams bokhari_params(const MachineConfig& config, Sync sync = Sync::none);

// A partition whose multiphase_exchange_time is minimal over all partitions of config.d; among equal times the
// preferred() one (fewer phases, then the equipartition). Where the hull is exact (hull_inexact_reason empty) it
// is built in Θ(√d) from the config's exact picosecond lines and searched in Θ(log d) (rule "bokhari-hull");
// otherwise every partition's exact cost is compared (rule "exact-enumeration"). config.d must be in 0..30.
Plan optimal_partition(const MachineConfig& config, std::size_t m, Sync sync = Sync::none);

// Always the exhaustive rule: for checking, and for callers that want it.
Plan optimal_partition_by_enumeration(const MachineConfig& config, std::size_t m, Sync sync = Sync::none);

}  // namespace hcemu::model
