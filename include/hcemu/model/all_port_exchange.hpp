#pragma once
// Closed form of Stout & Wagar's (1990) §6 COMPLETE EXCHANGE on an all-port machine, as hcemu's
// kernels::all_port_exchange runs it (docs/kernels/exchange.md).
#include <cstddef>
#include <optional>
#include <vector>

#include "hcemu/config.hpp"
#include "hcemu/time.hpp"

namespace hcemu::model {

// Bytes each directed link carries in stage k (0-based) when m divides evenly into the pieces:
// L_k = Σ_{j=0..k} C(d, j)·m/d (Stout & Wagar §6). Σ_k L_k = 2^(d-1)·m.
std::size_t all_port_exchange_stage_bytes(int d, int k, std::size_t m);

// True when every link carries the same load in every stage: m divisible by lcm(1..d) (each message splits into
// popcount(r) equal pieces), or m = 0.
bool all_port_exchange_balanced(int d, std::size_t m);

// Bytes each directed link across dimension e = 0..d-1 carries in stage k, as the kernel cuts every message (the
// message to relative address r in popcount(r) pieces, ⌈m/h⌉ bytes first, then ⌊m/h⌋): the same on every node and
// in both directions; each equals all_port_exchange_stage_bytes(d, k, m) when the loads are balanced.
std::vector<std::size_t> all_port_exchange_link_bytes(int d, int k, std::size_t m);

// Σ_k [ t(max_e B_{k,e}) + 2ρ·Σ_e B_{k,e} ], t = one-hop message_time, B = all_port_exchange_link_bytes: every stage
// each node packs what it sends, sends on every link at once, and unpacks what arrives; every node runs the same
// loads, so all start each stage together and its fullest link ends it. Balanced, this is Σ_k [ t(L_k) + 2ρ·d·L_k ],
// and with store-and-forward or circuit, δ = δ' = 0, ρ = 0 and no packet limit the paper's 2^(d-1)·τm + dλ.
// nullopt unless ports are `all`.
std::optional<Time> all_port_exchange_time(const MachineConfig& config, std::size_t m);

}  // namespace hcemu::model
