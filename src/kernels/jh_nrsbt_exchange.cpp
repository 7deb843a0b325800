// All-to-all personalized communication along n rotated spanning binomial trees: Johnsson & Ho (1987) §4.4, Table 4
// nRSBT-p(n,N). Every block is cut into n parts; part k of every block does the standard exchange (SBT-p(1,N)) in the
// dimension order k, k + 1, ..., k - 1: in step u it crosses dimension (k + u) mod n when its destination differs from
// its holder there. In step u the n parts use the n dimensions, one each, so every port carries N/2 part blocks a
// step: NM/(2n) elements, the table's ⌈NM/(2nB_m)⌉ n start-ups and NM/2 element transfers.
//
// Before step u, part k of the block from s to t is held by the node equal to t on the dimensions crossed so far
// (D = {k, ..., k + u - 1}) and to s elsewhere, so a node x sends across j = (k + u) mod n the N/2 parts with s = x
// off D and t = x on D, t_j != x_j. What a node forwards was received in some earlier step (or is its own); it packs
// every part it sends and unpacks every part delivered to it (Node::copy, ρ per byte); its own block is copied
// uncharged, as in exchange.hpp.
#include <algorithm>
#include <cstring>
#include <map>
#include <vector>

#include "broadcast_cube.hpp"
#include "hcemu/kernels/primitives.hpp"
#include "jh_cube.hpp"

namespace hcemu::kernels {
namespace {

struct Part {
  std::uint32_t source, destination;
  friend bool operator<(const Part& a, const Part& b) {
    return a.source != b.source ? a.source < b.source : a.destination < b.destination;
  }
};

// The parts node x sends across dimension (k + u) mod n in step u, of tree k, in the order both ends list them.
std::vector<Part> step_parts(std::uint32_t x, int n, int k, int u) {
  std::uint32_t crossed = 0;
  for (int i = 0; i < u; ++i) crossed |= std::uint32_t{1} << ((k + i) % n);
  const std::uint32_t j = std::uint32_t{1} << ((k + u) % n);
  const std::uint32_t free_t = ~(crossed | j) & ((std::uint32_t{1} << n) - 1);
  std::vector<Part> parts;
  // s ranges over x with the crossed bits free; t over x's crossed bits, the opposite bit j, the rest free.
  for (std::uint32_t a = crossed;; a = (a - 1) & crossed) {
    for (std::uint32_t b = free_t;; b = (b - 1) & free_t) {
      parts.push_back({(x & ~crossed) | a, (x & crossed) | ((x ^ j) & j) | b});
      if (b == 0) break;
    }
    if (a == 0) break;
  }
  std::sort(parts.begin(), parts.end());
  return parts;
}

}  // namespace

void nrsbt_exchange(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const int n = node.dim();
  const auto nodes = static_cast<std::size_t>(node.size());
  detail::start_personalized(node, send, recv, m, "nrsbt_exchange");
  const auto self = static_cast<std::uint32_t>(node.id());
  if (n == 0) return;
  const auto parts = static_cast<std::size_t>(n);
  const std::size_t half = nodes / 2;

  // out[u][k], in[u][k]: tree k's parts in step u (on port (k + u) mod n), and the buffers they travel in.
  std::vector<std::vector<std::vector<Part>>> out(parts), in(parts);
  std::vector<std::vector<Buffer<std::byte>>> outgoing(parts), incoming(parts);
  std::vector<std::vector<Request>> arriving(parts);
  for (int u = 0; u < n; ++u)
    for (int k = 0; k < n; ++k) {
      const int port = (k + u) % n;
      const std::size_t bytes = half * detail::part_bytes(m, parts, static_cast<std::size_t>(k));
      out[static_cast<std::size_t>(u)].push_back(step_parts(self, n, k, u));
      in[static_cast<std::size_t>(u)].push_back(step_parts(self ^ (std::uint32_t{1} << port), n, k, u));
      outgoing[static_cast<std::size_t>(u)].push_back(node.allocate<std::byte>(bytes));
      incoming[static_cast<std::size_t>(u)].push_back(node.allocate<std::byte>(bytes));
      arriving[static_cast<std::size_t>(u)].push_back(
          node.post_recv(node.neighbor(port), incoming[static_cast<std::size_t>(u)].back().span()));
    }

  // Where part k of (source, destination) is now: its source's send buffer, or the step it last arrived in.
  std::vector<std::map<Part, std::span<const std::byte>>> held(parts);
  auto part_of = [&](auto block, std::size_t k) {
    return block.subspan(detail::part_offset(m, parts, k), detail::part_bytes(m, parts, k));
  };
  std::vector<Request> sends;
  for (std::size_t u = 0; u < parts; ++u) {
    if (u > 0) {
      node.wait_all(arriving[u - 1]);
      for (std::size_t k = 0; k < parts; ++k) {
        const std::size_t b = detail::part_bytes(m, parts, k);
        for (std::size_t i = 0; i < in[u - 1][k].size(); ++i) {
          const Part& p = in[u - 1][k][i];
          const auto bytes = incoming[u - 1][k].span().subspan(i * b, b);
          if (p.destination == self)
            node.copy(bytes, part_of(recv.subspan(p.source * m, m), k));
          else
            held[k][p] = bytes;
        }
      }
    }
    for (std::size_t k = 0; k < parts; ++k) {
      const std::size_t b = detail::part_bytes(m, parts, k);
      for (std::size_t i = 0; i < out[u][k].size(); ++i) {
        const Part& p = out[u][k][i];
        const std::span<const std::byte> from =
            p.source == self ? part_of(send.subspan(p.destination * m, m), k) : held[k].at(p);
        node.copy(from, outgoing[u][k].span().subspan(i * b, b));
      }
    }
    for (std::size_t k = 0; k < parts; ++k)  // all packed first: the step's n messages leave together
      sends.push_back(node.isend(node.neighbor(static_cast<int>((k + u) % parts)),
                                 std::span<const std::byte>(outgoing[u][k].span())));
  }
  node.wait_all(arriving[parts - 1]);
  for (std::size_t k = 0; k < parts; ++k) {  // the last step delivers everything left
    const std::size_t b = detail::part_bytes(m, parts, k);
    for (std::size_t i = 0; i < in[parts - 1][k].size(); ++i)
      node.copy(incoming[parts - 1][k].span().subspan(i * b, b),
                part_of(recv.subspan(in[parts - 1][k][i].source * m, m), k));
  }
  node.wait_all(sends);
}

}  // namespace hcemu::kernels
