#pragma once
// A fixed permutation of the nodes' messages: every node s sends its m bytes to node π(s), known to all in advance
// (Stout & Wagar 1990 §6, "permuted send"). Every node calls the kernel with its own m-byte `message` and an m-byte
// `out`; on return `out` holds the message of π^-1(id). A fixed point (π(s) = s) copies its message without a ρ
// charge: it does not travel. The permutations are those of hcemu/model/permutation.hpp (inversion, bit-reversal,
// shuffle, random with a seed); the closed forms are there too, and docs/kernels/permutation.md compares them.
//
// Every kernel here is a collective: every node calls it, in the same order as its other collectives, and it
// talks in a tag space of its own (CollectiveScope, hcemu/node.hpp), so its messages never meet the caller's.
#include <cstddef>
#include <span>

#include "hcemu/model/permutation.hpp"
#include "hcemu/node.hpp"

namespace hcemu::kernels {

using model::Permutation;

// The baseline: each node sends its message straight to its image in one message, routed by the machine (e-cube,
// docs/model.md §1). Where routes share links the transfers contend (counted in the run report), which is what the
// paper's schedules avoid. Works on every port model.
void ecube_permutation(Node& node, std::span<const std::byte> message, std::span<std::byte> out,
                       const Permutation& permutation);

// INVERSION (Stout & Wagar §6, "complete O.C. SEND 2"), for all-port machines: the permutation s -> s ^ (2^d - 1)
// only. Each message is cut into d packets (⌈m/d⌉ bytes first, then ⌊m/d⌋); packet i of every message crosses
// dimensions i, i+1, ... (mod d), one per stage, so that in stage k each node sends on link e one packet, the i-th of
// the message from x ^ rot_i(2^k - 1), i = (e - k) mod d: d stages of one packet per link, τm + dβ.
void inversion(Node& node, std::span<const std::byte> message, std::span<std::byte> out);

// PERMUTED SEND (Stout & Wagar §6), for all-port machines and any permutation: a deterministic counterpart of
// Valiant's randomized routing. Every node cuts its message into 2^d pieces of ⌈m/2^d⌉ bytes (padded) and sends piece
// j to node j by a COMPLETE EXCHANGE (kernels::all_port_exchange); node j permutes the pieces it holds (ρ per byte) so
// that the piece from s goes to π(s), and a second COMPLETE EXCHANGE delivers them: τm + 2dβ.
void permuted_send(Node& node, std::span<const std::byte> message, std::span<std::byte> out,
                   const Permutation& permutation);

}  // namespace hcemu::kernels
