#pragma once
// A long message from one node to another: Stout & Wagar (1990) §3 (to the opposite corner) and §4 (to any node).
//
// Every node calls the kernel with an m-byte `message`, the same parameters, `src` and `dst`; on the source
// `message` holds the data, on return the destination's `message` holds it (other nodes' buffers are not touched;
// they only give m). dst = kOppositeCorner (the default) names src ^ (2^d - 1), and src = dst sends nothing. Every
// algorithm is written, as in the paper, for source 0 and destination 2^n - 1 (n = popcount(src ^ dst)) and carried
// to the actual pair by the cube's symmetries: XOR with src, and a relabelling of the dimensions that puts the n
// differing ones first. The opposite-corner algorithms run, for a destination at distance n < d, inside the n-cube
// spanned by the differing dimensions (which is what ARBITRARY SEND 1 is).
//
// Every receive is posted before anything is sent, so all of them also run under FORCED. The closed forms are in
// hcemu/model/long_send.hpp; docs/kernels/long_send.md compares them with the emulator.
//
// Every kernel here is a collective: every node calls it, in the same order as its other collectives, and it
// talks in a tag space of its own (CollectiveScope, hcemu/node.hpp), so its messages never meet the caller's.
#include <cstddef>
#include <span>

#include "hcemu/node.hpp"

namespace hcemu::kernels {

inline constexpr int kOppositeCorner = -1;

// The plain send: one message from src to dst, routed by the machine (e-cube).
void direct_send(Node& node, std::span<std::byte> message, int src = 0, int dst = kOppositeCorner);

// O.C. SEND 1 (§3): in stage k the node at virtual 2^k - 1 forwards the whole message across virtual dimension k:
// n transfers of m bytes, one after the other.
void oc_send_1(Node& node, std::span<std::byte> message, int src = 0, int dst = kOppositeCorner);

// O.C. SEND 2 (§3), for all-port machines: the message is cut into n packets (⌈m/n⌉ bytes first, then ⌊m/n⌋);
// packet i crosses virtual dimensions i, i+1, ..., i+n-1 (mod n), so the n paths share no link and no
// intermediate node: n·T(m/n), τm + nβ.
void oc_send_2(Node& node, std::span<std::byte> message, int src = 0, int dst = kOppositeCorner);

// O.C. SEND 4 (§3), for all-port machines; ARBITRARY SEND 1 (§4) when dst is not the opposite corner. The message
// is cut into `groups` groups of lcm(1..n) units (model/even_spread.hpp, the last units padded with zeros); each
// group runs O.C. SEND 3: in stage k the nodes at distance k split what they hold evenly over their links to
// distance k + 1. A node passes a group on as soon as it has it, so the groups follow one another one stage-0
// packet time apart. The destination puts the units in order at the end (ρ·m).
void oc_send_4(Node& node, std::span<std::byte> message, int groups, int src = 0, int dst = kOppositeCorner);
// O.C. SEND 3 (§3): O.C. SEND 4 with one group.
void oc_send_3(Node& node, std::span<std::byte> message, int src = 0, int dst = kOppositeCorner);
// ARBITRARY SEND 1 (§4): O.C. SEND 4 in the n-cube spanned by the dimensions in which src and dst differ.
inline void arbitrary_send_1(Node& node, std::span<std::byte> message, int groups, int src = 0,
                             int dst = kOppositeCorner) {
  oc_send_4(node, message, groups, src, dst);
}

// ARBITRARY SEND 2 (§4), for all-port machines: BROADCAST 4 (§2) from src with `groups` groups, stopped at the
// stage in which dst has every packet (n + g + 1 stages for n <= d - 2, d + g - 1 otherwise); only the transfers
// that lead to dst are made.
void arbitrary_send_2(Node& node, std::span<std::byte> message, int groups, int src = 0, int dst = kOppositeCorner);

// X.O.C. SEND 2 (§4), for all-port machines and 1 <= n <= d - 1; X.O.C. SEND 1 with groups = 1. Each group crosses
// dimension `via` (one in which src and dst agree; -1: the lowest such) to the parallel n-cube, goes through it by
// O.C. SEND 3 and crosses `via` again to dst. Throws UsageError when dst is src's opposite corner (no dimension to
// step out along) or `via` is not a dimension in which src and dst agree.
void xoc_send(Node& node, std::span<std::byte> message, int groups, int src, int dst, int via = -1);

// ARBITRARY SEND 3 (§4), for all-port machines: the message is cut into d parts (⌈m/d⌉ bytes first, then ⌊m/d⌋);
// the first n parts go together by O.C. SEND 4 (`groups` groups) through the n-cube spanned by src ^ dst, part i
// (i = n..d-1) by X.O.C. SEND 2 (`xoc_groups` groups) across the i-th virtual dimension, the d - n + 1 sends on
// disjoint links at once.
void arbitrary_send_3(Node& node, std::span<std::byte> message, int groups, int xoc_groups, int src = 0,
                      int dst = kOppositeCorner);

// The exchanges of §3 and §4: nodes a and b swap their m-byte messages, both sends at once; on return a's `message`
// holds b's and b's holds a's (every other node's is not touched). b = kOppositeCorner names a's opposite corner.
// Each send runs its kernel above, the one from b in the mirror image of the one from a: a send uses every link only
// in the direction away from its source (toward the destination's side of each dimension it spreads over, out and
// back along its own X.O.C. dimension), so the two share no directed link, and every node that is in both passes
// each group on as soon as it is whole. The exchange takes one send's time (§3: "another o.c. send could be done
// from node 2^d - 1 to node 0 concurrently ... since each would use different links"; §4: "an arbitrary exchange is
// possible between two nodes in the same amount of time by using the links in the other direction").
//
// O.C. EXCHANGE: O.C. SEND 4 with `groups` groups both ways (ARBITRARY SEND 1's exchange at distance n < d).
void oc_exchange(Node& node, std::span<std::byte> message, int groups, int a = 0, int b = kOppositeCorner);
// ARBITRARY EXCHANGE: ARBITRARY SEND 3 both ways.
void arbitrary_exchange(Node& node, std::span<std::byte> message, int groups, int xoc_groups, int a = 0,
                        int b = kOppositeCorner);

}  // namespace hcemu::kernels
