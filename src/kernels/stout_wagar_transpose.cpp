// Transpose of a block-distributed matrix on a 2^c x 2^c grid for link-bound (all-port) hypercubes: Stout & Wagar
// (1990) §7.2, MATRIX TRANSPOSITION (stored by submatrices) = L.C. INVERSION on every logically connected subcube
// at once (docs/kernels/transpose.md).
//
// d = 2c. Node a·2^c + b holds M_{a,b} and must end with the block of node b·2^c + a, transposed. D = a ^ b marks
// the k positions where the row half and the column half of the id differ. The l.c. subcube S_{a,b} is the 2^k
// nodes with the same D and a's bits outside D; its *logical links* flip bits i and i + c
// together (i in D) and are the two physical paths of length 2 through the intermediates that flip only bit i or
// only bit i + c. An intermediate differs in k - 1 positions, so it is a member of another subcube, and every
// directed link of the cube serves one subcube in one role ("no two such subcubes can share the same physical
// link"). A member's transpose partner is its opposite corner in S_{a,b}: the transpose is an INVERSION inside
// every subcube.
//
// INVERSION (complete O.C. SEND 2, §6): piece i of k of a member's block crosses the logical dimensions i, i+1,
// ..., i+k-1 (mod k) in stages 0..k-1. So a member sends on logical dimension e in stage s what it received on
// logical dimension e-1 in stage s-1, and in stage 0 its own piece e; what arrives in the last stage is piece e
// of the partner's block. L.C. INVERSION (§7.2) splits each logical send over the two physical paths (half h of
// the block takes the path whose first hop flips bit i for h = 0, bit i + c for h = 1) and pipelines the stages:
// "breaking the data up into at least four packets", the intermediates "one send behind".
//
// Here each out-link of a member carries one stream: its own piece e of half h, then the stream arriving on
// logical dimension e-1, in order. The stream is cut into P packets (the paper's kp sends): packet t leaves in
// send slot t, the intermediate forwards it in slot t + 1, and it has arrived before slot t + 2. With P >= 2k
// (the paper's p >= 2) and equal packets, packet t only needs data of incoming packets up to t - 2, so no link
// ever waits: every link carries its P packets back to back and the last arrives after P + 1 slots,
// (P + 1)(τm/(2P) + β). (Unequal packets may need packet t - 1, and wait for it, but never a later one.) When k
// divides P these are exactly p = P/k packets per stage; otherwise a packet may end one stage and begin the next
// (packets may be split and merged freely, §1.3). When a half block has fewer than k bytes some pieces are empty and
// a member would have to relay a packet in the slot it arrives; the packets then follow the stages instead
// (P/k per stage, shared out as evenly as possible), which always leaves a slot between arrival and departure.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "hcemu/errors.hpp"
#include "hcemu/kernels/transpose.hpp"

namespace hcemu::kernels {
namespace {

// Where part i begins when `total` is cut into `parts` nearly equal parts, the smaller ones first: packets on a
// link then never shrink, so a packet forwarded on arrival never waits for its link.
std::size_t part_begin(std::size_t total, std::size_t parts, std::size_t i) {
  const std::size_t base = total / parts, smaller = parts - total % parts;
  return i * base + (i > smaller ? i - smaller : 0);
}

std::size_t part_size(std::size_t total, std::size_t parts, std::size_t i) {
  return part_begin(total, parts, i + 1) - part_begin(total, parts, i);
}

// The P + 1 packet boundaries of the stream a member of a k-dimensional l.c. subcube sends on logical dimension e
// along one physical path (`half` bytes: its pieces e, e-1, ..., e-k+1 of that half). Every node computes the
// same boundaries for the same (k, e), which is how a receiver and an intermediate know each packet's size.
std::vector<std::size_t> stream_bounds(std::size_t half, int k, int e, std::size_t packets) {
  std::vector<std::size_t> bounds(packets + 1);
  const auto uk = static_cast<std::size_t>(k);
  if (half >= uk) {
    for (std::size_t t = 0; t <= packets; ++t) bounds[t] = part_begin(half, packets, t);
    return bounds;
  }
  std::size_t offset = 0;
  for (std::size_t s = 0; s < uk; ++s) {
    const std::size_t piece = part_size(half, uk, static_cast<std::size_t>((e + k - static_cast<int>(s)) % k));
    const std::size_t first = s * packets / uk, last = (s + 1) * packets / uk;
    for (std::size_t slot = first; slot < last; ++slot)
      bounds[slot] = offset + part_begin(piece, last - first, slot - first);
    offset += piece;
  }
  bounds[packets] = offset;
  return bounds;
}

// A member's logical dimension e along path h: the out-link it sends its stream on, and the in-link on which the
// stream of logical dimension e-1 arrives from an intermediate. Both live in one area [piece | incoming stream]:
// the first `half` bytes of it are the outgoing stream, and the last `piece` bytes are the partner's piece e.
struct MemberPath {
  int out_dim = 0, in_dim = 0;
  std::vector<std::size_t> out_bounds, in_bounds;
  std::size_t half = 0;
  std::size_t piece = 0;        // q_e: own piece e of this half, sent first
  std::size_t block_offset = 0;  // where piece e of this half sits in a block
  std::size_t area = 0;          // offset of [piece | incoming stream] in the member area
  std::vector<Request> in;
  std::size_t received = 0;
};

// An intermediate's relay for another subcube: packets in on one link, out on the other of the same position.
struct RelayPath {
  int in_dim = 0, out_dim = 0;
  std::vector<std::size_t> bounds;
  std::size_t area = 0;  // offset of the stream in the relay area
  std::vector<Request> in;
};

std::vector<std::uint32_t> transpose_order(std::size_t side) {
  std::vector<std::uint32_t> order(side * side);
  for (std::size_t i = 0; i < side; ++i)
    for (std::size_t j = 0; j < side; ++j) order[i * side + j] = static_cast<std::uint32_t>(j * side + i);
  return order;
}

}  // namespace

void stout_wagar_transpose(Node& node, std::span<const std::byte> block, std::span<std::byte> out, std::size_t n,
                           std::size_t element_bytes, int packets) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const int d = node.dim();
  if (d % 2 != 0)
    throw UsageError("Stout-Wagar transpose: needs an even d for a square grid, got d = " + std::to_string(d));
  const int c = d / 2;
  const std::size_t side = n >> c;
  if ((side << c) != n) throw UsageError("Stout-Wagar transpose: n is not a multiple of 2^(d/2)");
  const std::size_t bytes = side * side * element_bytes;
  if (block.size() < bytes || out.size() < bytes)
    throw UsageError("Stout-Wagar transpose: buffers smaller than a block");
  if (c > 0 && packets < 2 * c)
    throw UsageError("Stout-Wagar transpose: needs at least 2·(d/2) = " + std::to_string(2 * c) +
                     " packets per link (the paper's p >= 2), got " + std::to_string(packets));

  const int id = node.id();
  const int a = id >> c, b = id & ((1 << c) - 1);
  const int differ = a ^ b;
  const int k = std::popcount(static_cast<unsigned>(differ));
  std::vector<int> positions;  // logical dimension e flips bits positions[e] and positions[e] + c
  for (int i = 0; i < c; ++i)
    if ((differ >> i) & 1) positions.push_back(i);
  const std::size_t half[2] = {bytes - bytes / 2, bytes / 2};
  const auto P = static_cast<std::size_t>(c > 0 ? packets : 0);

  std::vector<MemberPath> members;
  std::size_t member_bytes = 0;
  for (int e = 0; e < k; ++e) {
    const int prev = (e + k - 1) % k;
    const auto ue = static_cast<std::size_t>(e);
    for (int h = 0; h < 2; ++h) {
      MemberPath m;
      m.out_dim = positions[ue] + (h == 0 ? 0 : c);
      m.in_dim = positions[static_cast<std::size_t>(prev)] + (h == 0 ? c : 0);  // the intermediate's second hop
      m.half = half[h];
      m.out_bounds = stream_bounds(m.half, k, e, P);
      m.in_bounds = stream_bounds(m.half, k, prev, P);
      m.piece = part_size(m.half, static_cast<std::size_t>(k), ue);
      m.block_offset = (h == 0 ? 0 : half[0]) + part_begin(m.half, static_cast<std::size_t>(k), ue);
      m.area = member_bytes;
      member_bytes += m.piece + m.half;
      members.push_back(std::move(m));
    }
  }
  std::vector<RelayPath> relays;
  std::size_t relay_bytes = 0;
  for (int i = 0; i < c; ++i) {
    if ((differ >> i) & 1) continue;
    // The members on either side differ in position i as well: their subcube has D | bit i, and position i is
    // its logical dimension number popcount(D below i).
    const int member_k = k + 1;
    const int member_e = std::popcount(static_cast<unsigned>(differ & ((1 << i) - 1)));
    for (int h = 0; h < 2; ++h) {
      RelayPath r;
      r.in_dim = i + (h == 0 ? 0 : c);
      r.out_dim = i + (h == 0 ? c : 0);
      r.bounds = stream_bounds(half[h], member_k, member_e, P);
      r.area = relay_bytes;
      relay_bytes += half[h];
      relays.push_back(std::move(r));
    }
  }

  Buffer<std::byte> member_area = node.allocate<std::byte>(member_bytes);
  Buffer<std::byte> relay_area = node.allocate<std::byte>(relay_bytes);
  auto packet = [](const Buffer<std::byte>& area, std::size_t base, const std::vector<std::size_t>& bounds,
                   std::size_t t) { return area.span().subspan(base + bounds[t], bounds[t + 1] - bounds[t]); };

  // Every receive is posted before anything is sent (FORCED; the paper's prearranged, header-free packets).
  for (MemberPath& m : members)
    for (std::size_t j = 0; j < P; ++j)
      m.in.push_back(node.post_recv(node.neighbor(m.in_dim), packet(member_area, m.area + m.piece, m.in_bounds, j)));
  for (RelayPath& r : relays)
    for (std::size_t j = 0; j < P; ++j)
      r.in.push_back(node.post_recv(node.neighbor(r.in_dim), packet(relay_area, r.area, r.bounds, j)));

  if (k == 0) {
    // My own partner: only the local transpose (the paper counts it as free; hcemu charges ρ per byte).
    if (bytes > 0) node.permute(block.first(bytes), out.first(bytes), element_bytes, transpose_order(side));
  } else {
    // Stage each own piece in front of the stream it opens (charged ρ: the whole block once).
    for (const MemberPath& m : members)
      node.copy(block.subspan(m.block_offset, m.piece), member_area.span().subspan(m.area, m.piece));
  }

  std::vector<Request> sends;
  sends.reserve(P * static_cast<std::size_t>(d));
  for (std::size_t t = 0; t <= P; ++t) {
    // The intermediates: one send behind, packet t - 1 arrived at the end of slot t - 1.
    if (t > 0) {
      for (RelayPath& r : relays) {
        node.wait(r.in[t - 1]);
        sends.push_back(node.isend(node.neighbor(r.out_dim), packet(relay_area, r.area, r.bounds, t - 1)));
      }
    }
    if (t == P) break;
    // The members: packet t of each stream, once the incoming packets whose bytes it forwards are in.
    for (MemberPath& m : members) {
      std::size_t upto = t > 0 ? t - 1 : 0;  // incoming packets [0, upto): those up to t - 2 are in by now
      const std::size_t end = m.out_bounds[t + 1];
      if (end > m.piece) {
        const auto last = static_cast<std::size_t>(
            std::lower_bound(m.in_bounds.begin(), m.in_bounds.begin() + static_cast<std::ptrdiff_t>(P),
                             end - m.piece) - m.in_bounds.begin());  // one past the last packet it needs
        if (last > t)
          throw std::logic_error("Stout-Wagar transpose: packet " + std::to_string(t) + " would need a later one");
        upto = std::max(upto, last);
      }
      while (m.received < upto) node.wait(m.in[m.received++]);
      sends.push_back(node.isend(node.neighbor(m.out_dim), packet(member_area, m.area, m.out_bounds, t)));
    }
  }
  for (MemberPath& m : members)
    while (m.received < P) node.wait(m.in[m.received++]);

  if (k > 0 && bytes > 0) {
    // The partner's piece e of half h is the tail of path (e, h)'s area; lay the block out transposed.
    std::vector<std::uint32_t> where(bytes);
    for (const MemberPath& m : members)
      for (std::size_t u = 0; u < m.piece; ++u)
        where[m.block_offset + u] = static_cast<std::uint32_t>(m.area + m.half + u);
    std::vector<std::uint32_t> order(bytes);
    for (std::size_t i = 0; i < side; ++i)
      for (std::size_t j = 0; j < side; ++j)
        for (std::size_t u = 0; u < element_bytes; ++u)
          order[(i * side + j) * element_bytes + u] = where[(j * side + i) * element_bytes + u];
    node.permute(member_area.span(), out.first(bytes), 1, order);
  }
  node.wait_all(sends);
}

}  // namespace hcemu::kernels
