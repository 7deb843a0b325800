// Standard exchange, as Bokhari (1993) §2.1 writes it (after Johnsson & Ho):
//
//   for j = d - 1 downto 0 do
//     if (bit j of mynumber = 0) then message = blocks n/2 to n - 1 else message = blocks 0 to n/2 - 1;
//     send_message_to_processor(mynumber ⊕ 2^j);
//     shuffle blocks;
//
// The node's n = 2^d blocks are a list whose index, in step j, has the destination's bit j on top: blocks n/2 .. n-1
// are those for the nodes whose bit j is 1. The half for the other side of bit j goes to the partner, whose half for
// this side arrives in its place, in the same order (both ends keep their lists the same way). "Shuffle blocks" is
// the perfect shuffle, which rotates the index one bit to the left: bit j - 1 comes on top for the next step, and
// after the d-th shuffle the index is the source node, the order the caller's recv wants.
//
// The costs are those of the multiphase exchange with the partition (1, ..., 1), which the same schedule is
// (Bokhari 1993 §2.3): d transfers of m·2^(d-1) bytes, each with the synchronisation of ExchangeOptions (Nicol &
// Bokhari 1994 §4), and d shuffles of all 2^d blocks, charged ρ·2^d·m each. As there, the first step sends straight
// from the caller's blocks, and the half that stays is placed beside the arriving one without charge (it does not
// move in the papers' model).
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "hcemu/errors.hpp"
#include "hcemu/kernels/exchange.hpp"

namespace hcemu::kernels {
namespace {

// The perfect shuffle of a d-bit list index: one bit to the left, the top bit coming round to the bottom.
std::uint32_t shuffled(std::uint32_t index, int d) { return ((index << 1) | (index >> (d - 1))) & ((1u << d) - 1u); }

// One step: `message` to the partner, the partner's into `arriving` (Nicol & Bokhari 1994 §4: the receive is posted
// first; `barrier` then waits for every node's, `pairwise` also exchanges a zero-byte message first).
void exchange_with(Node& node, int partner, std::span<const std::byte> message, std::span<std::byte> arriving,
                   Sync sync) {
  constexpr int data_tag = 0, sync_tag = 1;
  Request data = node.post_recv(partner, arriving, data_tag);
  Request ready;
  if (sync == Sync::pairwise) ready = node.post_recv(partner, std::span<std::byte>(), sync_tag);
  if (sync != Sync::none) node.barrier();
  std::vector<Request> sends;
  if (sync == Sync::pairwise) {
    sends.push_back(node.isend(partner, std::span<const std::byte>(), sync_tag));
    node.wait(ready);
  }
  sends.push_back(node.isend(partner, message, data_tag));
  node.wait(data);
  node.wait_all(sends);
}

}  // namespace

void standard_exchange(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m,
                       const ExchangeOptions& options) {
  const int d = node.dim();
  // With one dimension the Standard exchange is the Direct one, whose single shuffle would be the identity and is
  // not done (Bokhari 1993 §2.3).
  if (d <= 1) return direct_exchange(node, send, recv, m, options);
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const auto n = static_cast<std::uint32_t>(node.size());
  const std::size_t total = n * m, half = total / 2;
  if (send.size() < total || recv.size() < total)
    throw UsageError("standard exchange on node " + std::to_string(node.id()) + ": buffers of " +
                     std::to_string(send.size()) + " and " + std::to_string(recv.size()) +
                     " bytes, need 2^d*m = " + std::to_string(total));

  // Two working areas, each the list (n blocks) and the arriving half (n/2 blocks): a shuffle reads one and writes
  // the list of the other.
  Buffer<std::byte> work[2] = {node.allocate<std::byte>(total + half), node.allocate<std::byte>(total + half)};
  std::vector<std::uint32_t> order(n);
  std::span<const std::byte> blocks = send.first(total);  // step d - 1's list is the natural order
  int current = 0;

  for (int j = d - 1; j >= 0; --j) {
    std::span<std::byte> area = work[current].span();
    const bool low = ((node.id() >> j) & 1) == 0;
    std::span<const std::byte> message = low ? blocks.subspan(half, half) : blocks.first(half);
    const std::size_t kept = low ? 0 : half;
    if (j == d - 1 && m > 0) std::memcpy(area.data() + kept, blocks.data() + kept, half);
    exchange_with(node, node.id() ^ (1 << j), message, area.subspan(total, half), options.sync);

    // Shuffle blocks: list index i goes to shuffled(i); the half that went out is now the arrived one.
    for (std::uint32_t i = 0; i < n; ++i) {
      const bool arrived = (i >= n / 2) == low;
      order[shuffled(i, d)] = arrived ? n + (i & (n / 2 - 1)) : i;
    }
    std::span<std::byte> target = j == 0 ? recv.first(total) : work[1 - current].span().first(total);
    if (m > 0) node.permute(area, target, m, order);
    blocks = target;
    current = 1 - current;
  }
}

}  // namespace hcemu::kernels
