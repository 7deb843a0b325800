// Stout & Wagar (1990) §6, COMPLETE EXCHANGE: the completed DISTRIBUTE 1 for link-bound (all-port) hypercubes.
// The schedule, its per-link loads and the batching without headers (the paper's §10 assumption) are written
// out in docs/kernels/exchange.md.
//
// Everything is in relative addresses, which makes every node run the same schedule: the message from s to t has
// relative address r = s ^ t, h = popcount(r), with the bits of r w_0 < ... < w_{h-1}. It is cut into h pieces;
// piece i leaves s in stage d - h and in its step u = 0..h-1 crosses dimension w_{(i+u) mod h} (the rotated
// orders of O.C. SEND 2 inside the subcube s ^ span(r)), so all pieces arrive at the end of stage d - 1. In every
// stage a node sends, on each of its d links, one packet batching every piece that crosses that link then; its
// neighbour across the link sends the same relative pieces back, so each piece (r, i) a node holds is replaced by
// the piece (r, i) of another source, and a node's holding area can be indexed by (r, i) alone.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

#include "hcemu/errors.hpp"
#include "hcemu/kernels/exchange.hpp"
#include "hcemu/model/costs.hpp"

namespace hcemu::kernels {
namespace {

struct Piece {
  std::uint32_t r;        // relative address of its message
  std::size_t offset;     // inside the m-byte message
  std::size_t bytes;
  bool first;             // its step 0: still at its source, read from `send`
  bool last;              // its step h-1: arrives at its destination, written to `recv`
};

// The pieces crossing each dimension in stage k, in the order both ends of the link batch them.
std::vector<std::vector<Piece>> stage_pieces(int d, int k, std::size_t m) {
  std::vector<std::vector<Piece>> by_dim(static_cast<std::size_t>(d));
  const std::uint32_t n = 1u << d;
  std::vector<int> bits;
  for (std::uint32_t r = 1; r < n; ++r) {
    const int h = std::popcount(r);
    const int step = k - (d - h);
    if (step < 0) continue;  // not started yet
    bits.clear();
    for (int b = 0; b < d; ++b)
      if (r & (1u << b)) bits.push_back(b);
    const std::size_t base = m / static_cast<std::size_t>(h), extra = m % static_cast<std::size_t>(h);
    for (int i = 0; i < h; ++i) {
      const auto ui = static_cast<std::size_t>(i);
      const int dim = bits[static_cast<std::size_t>((i + step) % h)];
      by_dim[static_cast<std::size_t>(dim)].push_back(
          Piece{r, ui * base + std::min(ui, extra), base + (ui < extra ? 1 : 0), step == 0, step == h - 1});
    }
  }
  return by_dim;
}

}  // namespace

void all_port_exchange(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m,
                       const ExchangeOptions&) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const int d = node.dim();
  const auto n = static_cast<std::size_t>(node.size());
  const auto self = static_cast<std::uint32_t>(node.id());
  if (send.size() < n * m || recv.size() < n * m) {
    throw UsageError("all-port exchange on node " + std::to_string(node.id()) + ": buffers smaller than 2^d*m");
  }
  // The own block does not travel (as in every exchange here): copied without charge.
  if (m > 0) std::memcpy(recv.data() + self * m, send.data() + self * m, m);
  if (d == 0) return;

  Buffer<std::byte> hold = node.allocate<std::byte>(n * m);  // pieces in transit, at r*m + offset
  Buffer<std::byte> out = node.allocate<std::byte>(n * m);   // this stage's batches, by dimension
  Buffer<std::byte> in = node.allocate<std::byte>(n * m);
  std::vector<Request> requests(2 * static_cast<std::size_t>(d));
  std::vector<std::size_t> start(static_cast<std::size_t>(d) + 1);

  for (int k = 0; k < d; ++k) {
    const auto pieces = stage_pieces(d, k, m);
    for (int e = 0; e < d; ++e) {
      std::size_t bytes = 0;
      for (const Piece& p : pieces[static_cast<std::size_t>(e)]) bytes += p.bytes;
      start[static_cast<std::size_t>(e) + 1] = start[static_cast<std::size_t>(e)] + bytes;
    }
    const std::size_t stage_bytes = start[static_cast<std::size_t>(d)];
    auto batch = [&](const Buffer<std::byte>& b, int e) {
      const auto ue = static_cast<std::size_t>(e);
      return b.span().subspan(start[ue], start[ue + 1] - start[ue]);
    };

    for (int e = 0; e < d; ++e) requests[static_cast<std::size_t>(e)] = node.post_recv(node.neighbor(e), batch(in, e));

    // Batching (Stout & Wagar §3): the paper counts packing as free; here it is charged ρ per byte.
    for (int e = 0; e < d; ++e) {
      std::byte* to = batch(out, e).data();
      for (const Piece& p : pieces[static_cast<std::size_t>(e)]) {
        const std::byte* from = p.first ? send.data() + (self ^ p.r) * m + p.offset : hold.data() + p.r * m + p.offset;
        if (p.bytes > 0) std::memcpy(to, from, p.bytes);
        to += p.bytes;
      }
    }
    node.elapse(model::copy_time(node.config(), stage_bytes));
    for (int e = 0; e < d; ++e) {
      requests[static_cast<std::size_t>(d + e)] = node.isend(node.neighbor(e), batch(out, e));
    }
    node.wait_all(requests);

    node.elapse(model::copy_time(node.config(), stage_bytes));
    for (int e = 0; e < d; ++e) {
      const std::byte* from = batch(in, e).data();
      for (const Piece& p : pieces[static_cast<std::size_t>(e)]) {
        // On its last step a piece of the message from s = self ^ r reaches its destination.
        std::byte* to = p.last ? recv.data() + (self ^ p.r) * m + p.offset : hold.data() + p.r * m + p.offset;
        if (p.bytes > 0) std::memcpy(to, from, p.bytes);
        from += p.bytes;
      }
    }
  }
}

}  // namespace hcemu::kernels
