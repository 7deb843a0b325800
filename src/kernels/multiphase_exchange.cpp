// Multiphase complete exchange, and its one-phase extreme, the Direct exchange (its other extreme, the Standard
// exchange, is written as Bokhari's pseudocode reads in standard_exchange.cpp). Bokhari (1993) §2.2-2.3; Nicol &
// Bokhari (1994) §2.4 (schedule) and §4 (synchronisation on the iPSC/860).
//
// Bokhari's procedure Multiphase names the phase's bits as this code does: `start` is the highest bit of the phase's
// subcubes and `stop` the lowest, stop = start - d_i + 1; the partner in step j is mynumber ⊕ (j·2^stop); the next
// phase starts at stop - 1.
//
// Block bookkeeping. Each node holds a list of 2^d logical blocks. Write S for the dimension bits already spanned
// by earlier phases. The invariant of Nicol & Bokhari §2.4 ("the message lists are exactly those they would contain
// if we had used SE through each of those dimensions") is, for node p and logical position x:
//     position x holds the block from  src = (p & ~S) | (x & S)  to  dst = (p & S) | (x & ~S).
// Initially S = {} (position x = the block for node x); at the end S = all bits (position x = the block from
// node x), which is the required result. A phase over the bit range R sends to the partner q every block whose
// destination agrees with q on R, i.e. the positions whose R-bits equal q's R-bits (2^(d-d_i) blocks: the
// effective block), and the block from q lands at the same position with its R-bits replaced by q's.
//
// Storage order. During a phase the list is stored with the R-bits as the most significant part of the index
// (then the bits above R, then those below), so that the effective block for each partner is one contiguous
// segment, as in the Standard exchange pseudocode ("message = blocks n/2 to n-1"). A block received from the
// partner whose R-bits are r goes to segment r of a receive area laid out the same way. The shuffle after the phase
// is then one permutation of all 2^d blocks from (list, receive area) into the storage order of the next phase, or
// into natural order after the last phase. The first phase spans the highest bits, so its storage order is the
// natural one and the sends come straight from the caller's buffer; a one-phase exchange (Direct) receives straight
// into the caller's buffer and needs no shuffle (Bokhari 1993 §2.3).
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>

#include "hcemu/errors.hpp"
#include "hcemu/kernels/exchange.hpp"

namespace hcemu::kernels {
namespace {

// The phase's storage index of logical position x: R = [stop, stop + width) on top, then the bits above R, then
// the bits below.
std::uint32_t phase_index(std::uint32_t x, int d, int stop, int width) {
  const std::uint32_t below = x & ((1u << stop) - 1u);
  const std::uint32_t r_bits = (x >> stop) & ((1u << width) - 1u);
  const std::uint32_t above = x >> (stop + width);
  return (r_bits << (d - width)) | (above << stop) | below;
}

void check_sizes(const Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m) {
  const std::size_t need = static_cast<std::size_t>(node.size()) * m;
  if (send.size() < need || recv.size() < need) {
    throw UsageError("complete exchange on node " + std::to_string(node.id()) + ": buffers of " +
                     std::to_string(send.size()) + " and " + std::to_string(recv.size()) + " bytes, need 2^d*m = " +
                     std::to_string(need));
  }
}

void check_partition(const Node& node, std::span<const int> partition) {
  int sum = 0;
  for (int part : partition) {
    if (part <= 0) throw UsageError("multiphase exchange: partition parts must be positive");
    sum += part;
  }
  if (sum != node.dim() || (node.dim() > 0 && partition.empty())) {
    throw UsageError("multiphase exchange: the partition sums to " + std::to_string(sum) + ", not d = " +
                     std::to_string(node.dim()));
  }
}

// One phase: a Direct exchange in the subcube spanning bits [stop, stop + width), of effective blocks of
// `effective` bytes. Segment r of `list` goes to the partner whose R-bits are r; the partner's effective block
// arrives in segment r of `incoming`. The own segment is neither sent nor received.
// Nicol & Bokhari (1994) §4: under FORCED every receive of the phase is posted first; `barrier` then
// synchronises globally so that no message can arrive before its receive was posted; `pairwise` also precedes each
// transfer with a zero-byte exchange so that both directions start together.
void direct_phase(Node& node, std::span<const std::byte> list, std::span<std::byte> incoming, int stop, int width,
                  std::size_t effective, const ExchangeOptions& options) {
  const int steps = (1 << width) - 1;
  auto segment_of = [&](int partner) { return (static_cast<std::uint32_t>(partner) >> stop) & ((1u << width) - 1u); };
  auto partner_at = [&](int j) { return node.id() ^ (j << stop); };  // mynumber ⊕ (j·2^stop)
  // Inside the exchange's own tag space: data and the zero-byte pairwise syncs apart.
  constexpr int data_tag = 0;
  constexpr int sync_tag = 1;

  // Every receive of the phase posted in one group, and every send without a handle: a Direct exchange at d = 13
  // posts 8191 receives and 8191 sends on each of 8192 nodes, and as requests and their handles they alone took
  // 6 GiB of the host's memory (node.hpp). Element r of a group receives segment r, from the partner whose R-bits
  // are r; the own segment receives nothing.
  const bool pairwise = options.sync == Sync::pairwise;
  const std::uint32_t own = segment_of(node.id());
  std::vector<int> sources(static_cast<std::size_t>(steps) + 1);
  for (std::uint32_t r = 0; r < sources.size(); ++r)
    sources[r] = r == own ? kNoSource : node.id() ^ static_cast<int>((r ^ own) << stop);
  RecvGroup data = node.post_recvs(sources, incoming.first(sources.size() * effective), effective, data_tag);
  RecvGroup sync = pairwise ? node.post_recvs(sources, std::span<std::byte>(), 0, sync_tag) : RecvGroup{};
  sources = {};  // copied by the node
  if (options.sync != Sync::none) node.barrier();

  for (int j = 1; j <= steps; ++j) {
    const int partner = partner_at(j);
    const std::uint32_t segment = segment_of(partner);
    if (pairwise) {
      node.post_send(partner, std::span<const std::byte>(), sync_tag);
      node.wait(sync, segment);
    }
    node.post_send(partner, list.subspan(segment * effective, effective), data_tag);
    node.wait(data, segment);
  }
  node.wait_sends();
}

}  // namespace

void multiphase_exchange(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m,
                         std::span<const int> partition, const ExchangeOptions& options) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  check_sizes(node, send, recv, m);
  check_partition(node, partition);
  const int d = node.dim();
  const auto n = static_cast<std::uint32_t>(node.size());
  const auto self = static_cast<std::uint32_t>(node.id());
  const std::size_t total = static_cast<std::size_t>(n) * m;

  if (partition.size() <= 1) {  // d = 0, or Direct: one phase over all bits, natural order, no shuffle.
    // The own block never travels: it is in place in the papers' model, so it is copied without charge.
    if (m > 0) std::memcpy(recv.data() + self * m, send.data() + self * m, m);
    if (d > 0) direct_phase(node, send, recv, 0, d, m, options);
    return;
  }

  // Two working areas, each (list | receive area) of 2^d blocks apiece: the shuffle reads one and writes the
  // list part of the other.
  Buffer<std::byte> work[2] = {node.allocate<std::byte>(2 * total), node.allocate<std::byte>(2 * total)};
  std::vector<std::uint32_t> order(n);

  int start = d - 1;  // the highest bit of this phase's subcubes
  int current = 0;    // which work area holds this phase's list
  for (std::size_t i = 0; i < partition.size(); ++i) {
    const int width = partition[i];                  // d_i
    const int stop = start - width + 1;              // the lowest bit of this phase's subcubes
    const std::size_t effective = m << (d - width);  // m·2^(d-d_i), Bokhari 1993 §2.3
    std::span<std::byte> area = work[current].span();
    std::span<std::byte> incoming = area.subspan(total, total);

    std::span<const std::byte> list;
    if (i == 0) {
      // The first phase's order is the natural one, so it sends straight from the caller's blocks; only the own
      // segment must sit next to the receive area for the shuffle (uncharged, as above: it does not move).
      list = send.first(total);
      const std::size_t own_segment = ((self >> stop) & ((1u << width) - 1u)) * effective;
      if (effective > 0) std::memcpy(area.data() + own_segment, send.data() + own_segment, effective);
    } else {
      list = area.first(total);
    }

    direct_phase(node, list, incoming, stop, width, effective, options);
    start = stop - 1;

    // The shuffle (Bokhari 1993 §2.1 "shuffle blocks"): new logical position x comes from the own segment of the
    // list if its R-bits are ours, otherwise from the receive area; it is stored in the next phase's order.
    const bool last = i + 1 == partition.size();
    const int next_width = last ? d : partition[i + 1];
    const int next_stop = last ? 0 : start - next_width + 1;
    const std::uint32_t r_mask = ((1u << width) - 1u) << stop;
    for (std::uint32_t x = 0; x < n; ++x) {
      const std::uint32_t from = phase_index(x, d, stop, width) + ((x & r_mask) == (self & r_mask) ? 0 : n);
      order[phase_index(x, d, next_stop, next_width)] = from;
    }
    std::span<std::byte> target = last ? recv.first(total) : work[1 - current].span().first(total);
    if (m > 0) node.permute(area, target, m, order);
    current = 1 - current;
  }
}

void direct_exchange(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m,
                     const ExchangeOptions& options) {
  const std::vector<int> partition = node.dim() > 0 ? std::vector<int>{node.dim()} : std::vector<int>{};
  multiphase_exchange(node, send, recv, m, partition, options);
}

}  // namespace hcemu::kernels
