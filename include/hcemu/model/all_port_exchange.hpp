#pragma once
// Closed form of Stout & Wagar's (1990) §6 COMPLETE EXCHANGE on an all-port machine, as hcemu's
// kernels::all_port_exchange runs it (docs/kernels/exchange.md).
#include <cstddef>
#include <optional>

#include "hcemu/config.hpp"
#include "hcemu/time.hpp"

namespace hcemu::model {

// Bytes each directed link carries in stage k (0-based) when m divides evenly into the pieces:
// L_k = Σ_{j=0..k} C(d, j)·m/d (Stout & Wagar §6). Σ_k L_k = 2^(d-1)·m.
std::size_t all_port_exchange_stage_bytes(int d, int k, std::size_t m);

// True when every link carries the same load in every stage: m divisible by lcm(1..d) (each message splits into
// popcount(r) equal pieces), or m = 0.
bool all_port_exchange_balanced(int d, std::size_t m);

// Σ_k [ t(L_k) + 2ρ·d·L_k ], t = one-hop message_time: every stage each node packs d·L_k bytes, sends L_k on each
// link, and unpacks what arrives. With store-and-forward or circuit, δ = δ' = 0, ρ = 0 and no packet limit this is
// the paper's 2^(d-1)·τm + dλ. nullopt unless ports are `all` and the loads are balanced.
std::optional<Time> all_port_exchange_time(const MachineConfig& config, std::size_t m);

}  // namespace hcemu::model
