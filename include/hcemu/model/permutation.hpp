#pragma once
// Fixed permutations of the nodes' messages (every node s sends its m bytes to node π(s)) and the closed forms of the
// kernels of include/hcemu/kernels/permutation.hpp: the plain e-cube routing (each message straight to its image),
// Stout & Wagar's (1990) §6 INVERSION and PERMUTED SEND. docs/kernels/permutation.md compares them.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hcemu/config.hpp"
#include "hcemu/time.hpp"

namespace hcemu::model {

struct Permutation {
  std::string name;                  // as permutation_by_name spells it
  std::vector<std::uint32_t> image;  // image[s] = π(s), for s = 0..2^d - 1
};

// s -> s ^ (2^d - 1): every node to its opposite corner (Stout & Wagar §6 "inversion").
Permutation inversion_permutation(int d);
// s -> s with its d bits in reverse order.
Permutation bit_reversal_permutation(int d);
// The perfect shuffle: s -> s rotated left by one bit.
Permutation shuffle_permutation(int d);
// s -> s + 1 mod 2^d: every node to the next higher-numbered one (Stout & Wagar §6 "rotation").
Permutation rotation_permutation(int d);
// s -> s ^ 2^(d-1): every node of the lower half-cube swaps with its neighbour in the upper one (Stout & Wagar §9
// "reflection": the fixed-point-free permutation of least total distance, with inversion's highest-order bound).
// The identity for d = 0.
Permutation reflection_permutation(int d);
// A uniformly random permutation: Fisher-Yates driven by SplitMix64 from `seed`, so the same on every platform.
Permutation random_permutation(int d, std::uint64_t seed);
// "inversion", "bit-reversal", "shuffle", "rotation", "reflection", "random" (seed 1) or "random:SEED"; throws
// UsageError otherwise.
Permutation permutation_by_name(std::string_view spec, int d);
// The names permutation_by_name knows.
const std::vector<std::string>& permutation_names();

// The inverse: inverse[π(s)] = s. Throws UsageError if `image` is not a permutation of 0..size-1.
std::vector<std::uint32_t> inverse_permutation(std::span<const std::uint32_t> image);

// E-cube routing of the permutation (docs/model.md §1: the differing bits corrected from the lowest up): the most
// messages that cross any one directed link.
std::size_t ecube_congestion(int d, std::span<const std::uint32_t> image);

// The plain e-cube routing when no two messages compete for a link: store-and-forward, one packet per message, no
// two routes on the same directed link in the same hop (so every hop takes the same slot of T(m)); circuit, no two
// routes sharing a directed link at all. Then every message takes message_time(m, its distance) and the time is the
// longest of them. nullopt when routes compete (the time then depends on the order in which the contending
// transfers are served), under `half` ports (a node's send and receive share its port), and with a packet limit
// below m under store-and-forward.
std::optional<Time> ecube_permutation_time(const MachineConfig& config, std::size_t m,
                                           std::span<const std::uint32_t> image);

// INVERSION (Stout & Wagar §6), all-port: d stages of one packet per link, the longest packet ⌈m/d⌉ bytes:
// d·T(⌈m/d⌉), τm + dβ when d divides m. 0 for d = 0 or m = 0.
std::optional<Time> inversion_time(const MachineConfig& config, std::size_t m);

// PERMUTED SEND (Stout & Wagar §6): two COMPLETE EXCHANGEs of pieces of p = ⌈m/2^d⌉ bytes (the message padded to
// 2^d·p), with the local permutation of the 2^d pieces between them (ρ·2^d·p):
// 2·all_port_exchange_time(p) + ρ·2^d·p, which is τm + 2dβ with ρ = 0 when lcm(1..d) divides p (otherwise the
// exchange's links carry unequal loads and its fullest link sets each stage). nullopt for ports other than all.
std::optional<Time> permuted_send_time(const MachineConfig& config, std::size_t m);
std::size_t permuted_send_piece_bytes(int d, std::size_t m);

}  // namespace hcemu::model
