#pragma once
// Johnsson & Ho (1987) §4, "generic communication primitives": the one-to-all broadcasts, all-to-all broadcasts and
// all-to-all personalized communication their matrix multiplications are built from, beside the ones hcemu already
// has (sbt_broadcast, symmetrized_broadcast = nRSBT, nesbt_broadcast in broadcast.hpp; recursive_doubling_allgather
// = SBT-b(1,N) and completed_allgather = nRSBT-b(n,N) in allgather.hpp; standard_exchange = SBT-p(1,N) in
// exchange.hpp). Reductions are in reduction.hpp.
//
// Buffers follow broadcast.hpp (one-to-all: every node passes an m-byte `message`, the root's holds the data),
// allgather.hpp (all-to-all: `all` holds one m-byte block per node of the cube or subcube, indexed by source, the
// node's own block in place) and exchange.hpp (personalized: block j of `send` goes to node j, block j of `recv`
// comes from node j). A root other than 0 is the XOR translation of the root-0 schedule.
//
// The closed forms are in hcemu/model/primitives.hpp; docs/kernels/broadcast.md and allgather.md describe each
// algorithm, its table row in the paper and what the emulator shows.
//
// Every kernel here is a collective: every node calls it, in the same order as its other collectives, and it
// talks in a tag space of its own (CollectiveScope, hcemu/node.hpp), so its messages never meet the caller's.
#include <cstddef>
#include <span>

#include "hcemu/kernels/allgather.hpp"
#include "hcemu/kernels/broadcast.hpp"
#include "hcemu/kernels/subcube.hpp"
#include "hcemu/node.hpp"

namespace hcemu::kernels {

// ----- One-to-all broadcast (§4.1, Table 1) -------------------------------------------------------------------------

// GC(1,1): a Hamiltonian path in binary-reflected Gray code order from the root (node root ^ G(p) at position p),
// the message pipelined along it in chunks of at most `chunk` bytes (0: the whole message as one chunk). Made for
// one-port machines (a node receives chunk j + 1 while it forwards chunk j): ⌈M/B⌉ + N - 2 steps of one chunk,
// (M + (N - 2)B) t_c + (⌈M/B⌉ + N - 2) τ.
void gray_code_broadcast(Node& node, std::span<std::byte> message, int root, std::size_t chunk);

// GC(n,1), for all-port machines: the message cut into n parts of ⌈m/n⌉ bytes (the last ones padded), part i sent
// whole, hop by hop, along the Gray-code path with every dimension k rotated to (i + k) mod n. The n paths are not
// edge-disjoint but never use one directed link in the same step, so every step takes one part time:
// (N - 1)·T(⌈m/n⌉), the paper's (M/n)(N - 1) t_c + ⌈M/(n B_m)⌉(N - 1) τ.
void rotated_gray_code_broadcast(Node& node, std::span<std::byte> message, int root);

// SBT-b(n,1): the binomial spanning tree of sbt_broadcast, pipelined for all-port machines: chunks of at most
// `chunk` bytes (0: one chunk), each forwarded to all children as soon as it arrives. The deepest leaf is n links
// down: (M + (n - 1)B) t_c + (⌈M/B⌉ + n - 1) τ.
void pipelined_sbt_broadcast(Node& node, std::span<std::byte> message, int root, std::size_t chunk);

// The Spanning Balanced n-Tree (§4.1.5, model::sbnt_children) used as a one-to-all broadcast tree, pipelined in
// chunks as above. Its paths are shortest paths, so it is n levels deep like the SBT and takes the same time on an
// all-port machine (the paper: "for one-to-all broadcasting the SBnT routing is of higher complexity than the
// nESBT routing"; its strength is all-to-all).
void sbnt_broadcast(Node& node, std::span<std::byte> message, int root, std::size_t chunk);

// The two-rooted complete binary tree (§4.1.6, model::two_rooted_parent) used as a broadcast tree, pipelined the
// same way: the root sends each chunk to the other root v first, then to its own child; v forwards it to its one
// child. The paper gives no algorithm or formula, only that it "is inferior to the nESBT routing, but may be superior
// to the SBT routing and the Hamiltonian path routing". One-port, with J chunks of which the first takes T and the
// last T_L: 2(J + n - 3)T + 2T_L for n >= 2 (every inner node sends each chunk twice, so the pipeline moves one
// chunk per 2T); all-port and k:N for N >= 2: the pipeline of height n, as SBT-b(n,1).
void two_rooted_tree_broadcast(Node& node, std::span<std::byte> message, int root, std::size_t chunk);

// nRSBT-b(n,1), n rotated spanning binomial trees (§4.1.4) with the data set split into n parts, part k down the SBT
// of dimension order k, k+1, ..., k-1: exactly Stout & Wagar's BROADCAST 2, which hcemu has as
// symmetrized_broadcast. This is the same kernel under the paper's name.
inline void nrsbt_broadcast(Node& node, std::span<std::byte> message, int root) {
  symmetrized_broadcast(node, message, root);
}

// nRSBT-b(1,1), the same n rotated trees scheduled for one port (model::nrsbt_one_port_schedule): two sweeps through
// the dimensions, 0..n-1 then 0..n-2, the parts crossing one dimension in one step going as one message. The root
// sends 1, 2, ..., n, n - 1, ..., 1 parts in its 2n - 1 steps, one after the other: Σ_s T(parts of step s), the
// paper's Mn t_c + (2Σ_{i<n} ⌈Mi/(nB_m)⌉ + ⌈M/B_m⌉) τ. Every port model: blocking sends, one step at a time.
void nrsbt_one_port_broadcast(Node& node, std::span<std::byte> message, int root);

// ----- All-to-all broadcast (§4.2, Table 2) -------------------------------------------------------------------------

// CRA(1,N), the Cyclic Rotation Algorithm: one Gray-code Hamiltonian circuit used as a conveyor belt. The node at
// ring position g = IG(id) always sends to G(g + 1) and receives from G(g - 1); in step i = 1..N-1 it passes on the
// block it received in step i - 1 (its own in step 1), so after step i it holds the block of G(g - i).
// (N - 1)·T(m) on one-port and all-port.
void cra_allgather(Node& node, std::span<std::byte> all, std::size_t m);

// CRA(n,N): every block cut into n parts (⌈m/n⌉ bytes, padded), part k rotated along the circuit whose dimensions
// are those of CRA's rotated by k. The paper: "the paths of the CRA(n,N) algorithm are not edge-disjoint, and the
// load non-uniform" — some directed links carry up to n - 1 parts a step — so it gives no time for it, and neither
// does hcemu. The steps run in lock step (a node waits for all n parts before passing them on).
void rotated_cra_allgather(Node& node, std::span<std::byte> all, std::size_t m);

// GCEA(1,N), the Gray Code Exchange Algorithm, inside `cube` (default the whole machine): in step i = 1..N-1 a
// pairwise exchange across dimension first + gray_transition(i - 1) of the block held, so after step i a node holds
// the block of coordinate c ^ G(i). Every node uses the same dimension sequence (0,1,0,2,0,1,0 for n = 3).
// (N - 1)·(pairwise exchange of m bytes).
void gcea_allgather(Node& node, std::span<std::byte> all, std::size_t m, Subcube cube = {});

// GCEA(n,N), for all-port machines: every block cut into n parts (⌈m/n⌉ and ⌊m/n⌋ bytes); in step i part k is
// exchanged across dimension (gray_transition(i - 1) + k) mod n, all n parts at once on n different links, the steps
// in lock step. (N - 1)·T(⌈m/n⌉), the paper's (1/n)(N - 1)M t_c + ⌈M/(n B_m)⌉(N - 1) τ.
void rotated_gcea_allgather(Node& node, std::span<std::byte> all, std::size_t m);

// SBT-b(1,N), recursive doubling (allgather.hpp), inside `cube`: step i exchanges the 2^i blocks gathered so far
// across dimension first + i. Σ_i (pairwise exchange of 2^i·m bytes).
void sbt_allgather(Node& node, std::span<std::byte> all, std::size_t m, Subcube cube);

// SBnT-b(n,N), for all-port machines, inside `cube`: every block travels down the SBnT of its source (translated),
// the blocks going the same way batched into one message per port and step, as in the paper's pseudo-code. In
// step s = 1..n port i carries model::sbnt_broadcast_loads(n)[s-1][i] blocks at every node. Blocks are packed into
// the messages and unpacked out of them with Node::copy (ρ·m per block each way, 2ρ(N - 1)m in all; the paper
// counts copies as free).
void sbnt_allgather(Node& node, std::span<std::byte> all, std::size_t m, Subcube cube = {});

// SBT-b(n,N), for all-port machines: N translated binomial trees (dimension order 0, 1, ..., n - 1), every block down
// its source's tree and the blocks going the same way batched, as sbnt_allgather does with the SBnT. Port i carries
// C(i, s) blocks in step s, so a step lasts C(n - 1, s) blocks: (1/2)NM element transfers in all, the paper's
// "pipelining ... reduces the data transfer time only by a factor of 2" (Table 2). Packing 2ρ(N - 1)m.
void pipelined_sbt_allgather(Node& node, std::span<std::byte> all, std::size_t m);

// SBnT-b(1,N) and nRSBT-b(1,N), the one-port schedules of Table 2 (model::sbnt_one_port_schedule,
// nrsbt_one_port_schedule): two sweeps through the dimensions, 0..n-1 then 0..n-2; in step s every node exchanges
// with its neighbour across dimension s mod n the blocks (SBnT) or parts of blocks (nRSBT, n parts a block) whose
// tree edge falls in that step, batched into one message. (N - 1)M element transfers and 2n - 1 start-ups when every
// step fits a packet; packing and unpacking 2ρ(N - 1)m. Every port model.
void sbnt_one_port_allgather(Node& node, std::span<std::byte> all, std::size_t m);
void nrsbt_one_port_allgather(Node& node, std::span<std::byte> all, std::size_t m);

// nRSBT-b(n,N): every block split into n parts, part k gathered by recursive doubling in the dimension order k, k+1,
// ..., k-1 (§4.2.3's pseudo-code, completed). This is exactly Stout & Wagar's COMPLETE BROADCAST (BROADCAST 2 from
// every node, batched), which hcemu has as completed_allgather: the same kernel under the paper's name.
inline void nrsbt_allgather(Node& node, std::span<std::byte> all, std::size_t m) { completed_allgather(node, all, m); }

// ----- All-to-all personalized (§4.4, Table 4) ----------------------------------------------------------------------
// SBT-p(1,N) is the standard exchange of exchange.hpp (kernels::standard_exchange).

// SBnT-p(n,N), for all-port machines: the block for destination t travels from its source down the source's SBnT to
// t; in step s = 1..n port i carries model::sbnt_personalized_loads(n)[s-1][i] blocks at every node, batched into
// one message. Every forwarded or delivered block is copied with Node::copy (ρ per byte); the node's own block is
// copied uncharged, as in exchange.hpp.
void sbnt_exchange(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m);

// nRSBT-p(n,N), for all-port machines: every block cut into n parts, part k doing the standard exchange in the
// dimension order k, k + 1, ..., k - 1, the n parts on the n ports at once. Every port carries N/2 parts a step:
// n·T((N/2)·⌈m/n⌉), the paper's (1/2)NM t_c + ⌈NM/(2nB_m)⌉ n τ, plus packing every part sent and unpacking every
// part delivered (ρ per byte; the node's own block copied uncharged, as in exchange.hpp).
void nrsbt_exchange(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m);

}  // namespace hcemu::kernels
