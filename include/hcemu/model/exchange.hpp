#pragma once
// Closed forms of the complete exchange on 2^d nodes: Direct, Standard and Multiphase (Bokhari 1993 §2-3; Nicol &
// Bokhari 1994 §2, eq. 1-2; docs/model.md §9), for every port, switching and packet mode of the emulator and every sync
// style. They predict, to the picosecond, the schedule the multiphase kernel runs:
//   phase i of partition (d_1..d_k) spans bits [lo_i, lo_i + d_i), lo_i = d - (d_1 + ... + d_i); its effective block
//   is M_i = m * 2^(d - d_i) bytes; step j = 1..2^d_i - 1 exchanges M_i bytes with id ^ (j << lo_i), at distance
//   popcount(j); after the phase, when k > 1, a local shuffle of all 2^d * m bytes.
// One-port circuit with sync none gives the docs/model.md §9 oracle
//   sum_i [ sum_{j=1..2^d_i - 1} (λ + δ' + δ·popcount(j) + τ·m·2^(d - d_i)) + ρ·2^d·m ],  no ρ term when k = 1.
#include <cstddef>

#include "hcemu/config.hpp"
#include "hcemu/model/partitions.hpp"
#include "hcemu/model/sync.hpp"
#include "hcemu/time.hpp"

namespace hcemu::model {

// Throws UsageError unless every part is at least 1 and the parts sum to d.
void check_partition(int d, const Partition& partition);

// One phase spanning `part` dimensions, without its shuffle: the 2^part - 1 pairwise exchanges of the effective
// block (Nicol & Bokhari 1994 eq. 1 without 2^d·m·ρ), plus what the sync style adds:
//   barrier: Q(d) once, after the receives are posted;
//   pairwise: Q(d), and before each data exchange a zero-byte exchange with the partner (start-up λ0).
// Each exchange costs pairwise_exchange_time, so the phase agrees with the emulator in every mode.
Time phase_exchange_time(const MachineConfig& config, int part, std::size_t m, Sync sync = Sync::none);

// The local shuffle after a phase: ρ·2^d·m (Bokhari 1993 eq. 2).
Time shuffle_time(const MachineConfig& config, std::size_t m);

// Multiphase complete exchange with the given partition of config.d (Bokhari 1993 eq. 2, exact). A one-part
// partition is the Direct exchange and does no shuffle (Bokhari 1993 §2.3: it would be the identity). d = 0 with the
// empty partition costs nothing.
Time multiphase_exchange_time(const MachineConfig& config, const Partition& partition, std::size_t m,
                              Sync sync = Sync::none);

// Direct exchange, XOR schedule: the partition {d} (Bokhari 1993 §2.2). One-port circuit, sync none:
// sum_{k=1..2^d-1} (λ + δ' + δ·popcount(k) + τm).
Time direct_exchange_time(const MachineConfig& config, std::size_t m, Sync sync = Sync::none);

// Standard exchange: the partition {1, ..., 1} (Bokhari 1993 §2.1, after Johnsson & Ho). One-port circuit, sync
// none, d >= 2: d(λ + δ' + δ + τ·m·2^(d-1)) + d·ρ·2^d·m.
Time standard_exchange_time(const MachineConfig& config, std::size_t m, Sync sync = Sync::none);

Partition direct_partition(int d);    // {d}, or {} for d = 0
Partition standard_partition(int d);  // d ones

}  // namespace hcemu::model
