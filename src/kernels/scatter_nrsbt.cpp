// Johnsson & Ho (1987) §4.1.4 and §4.3, Table 3 nRSBT-p(n,1): scatter along n rotated spanning binomial trees
// (model/spanning_trees.hpp). Every block is cut into n parts (the first m mod n one byte longer); part k of every
// block goes down tree k, whose dimension order is k, k + 1, ..., k - 1. SBnT-p divides the nodes into n subtrees;
// nRSBT-p divides the data: the root's link across dimension p is the first edge of a 2^(n-1-i)-node subtree in the
// tree k = p - i, so it carries part of every block, (N - 1)M/n in all, C(n,i)M/n of them in the step that serves
// depth i, and every other link carries no more in that step: the balanced loads Table 3 counts.
//
// The schedule is sbnt_scatter's (scatter_sbnt.cpp): the parts for a node at depth l leave the root in step d - l and
// move one level per step, so all arrive in step d - 1. In step t a node u at depth δ sends each neighbour c = u | 2^p
// one packet: for every tree k in which u is c's parent, ascending, part k of the blocks of c's subtree in tree k at
// depth d - t + δ, ascending. Those parts reached u in step t - 1, from its parents in the several trees, so every node
// packs what it sends (ρ per byte) and copies its own n parts into place (ρ·m); the root's own block is not charged.
#include <bit>
#include <cstring>
#include <map>
#include <utility>
#include <vector>

#include "broadcast_cube.hpp"
#include "hcemu/kernels/scatter.hpp"
#include "hcemu/model/spanning_trees.hpp"
#include "scatter_waves.hpp"

namespace hcemu::kernels {
namespace {

struct Piece {
  int tree;             // part `tree` of
  std::uint32_t block;  // the block for this relative address
};

// What the link from u to u | 2^p carries in step t of an n-cube's scatter, in the order both ends list it.
std::vector<Piece> packet(std::uint32_t u, int p, int t, int n) {
  const std::uint32_t c = u | (std::uint32_t{1} << p);
  const int more = n - t + std::popcount(u) - std::popcount(c);  // the blocks' depth below c
  std::vector<Piece> out;
  if (more < 0) return out;
  for (int k = 0; k < n; ++k) {
    if (model::rotated_sbt_last_dim(k, c, n) != p) continue;  // u is not c's parent in tree k
    std::vector<std::uint32_t> blocks;
    const std::uint32_t free = model::rotated_sbt_free_dims(k, c, n);
    for (std::uint32_t s = free;; s = (s - 1) & free) {
      if (std::popcount(s) == more) blocks.push_back(c | s);
      if (s == 0) break;
    }
    for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) out.push_back({k, *it});  // ascending
  }
  return out;
}

struct Incoming {
  std::uint32_t parent;  // relative address
  std::vector<Piece> pieces;
  Buffer<std::byte> bytes;
  Request request;
};

}  // namespace

void nrsbt_scatter(Node& node, std::span<const std::byte> blocks, std::span<std::byte> block, int root) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const std::size_t m = block.size();
  detail::check_scatter_buffers(node, root, blocks, m, "nrsbt_scatter");
  const int d = node.dim();
  const auto u = static_cast<std::uint32_t>(node.id() ^ root);
  const auto relative_root = static_cast<std::uint32_t>(root);
  if (u == 0 && m > 0) std::memcpy(block.data(), blocks.data() + static_cast<std::size_t>(root) * m, m);
  if (d == 0 || m == 0) return;
  const auto parts = static_cast<std::size_t>(d);
  auto physical = [relative_root](std::uint32_t v) { return static_cast<int>(v ^ relative_root); };
  auto bytes_of = [m, parts](const std::vector<Piece>& pieces) {
    std::size_t bytes = 0;
    for (const Piece& piece : pieces) bytes += detail::part_bytes(m, parts, static_cast<std::size_t>(piece.tree));
    return bytes;
  };
  auto part_of = [m, parts](auto whole, int k) {
    return whole.subspan(detail::part_offset(m, parts, static_cast<std::size_t>(k)),
                         detail::part_bytes(m, parts, static_cast<std::size_t>(k)));
  };
  const int depth = std::popcount(u);

  // incoming[t]: what the parents send in their step t (t = depth - 1 .. d - 1), one packet per parent; step d - 1
  // brings only this node's own parts.
  std::vector<std::vector<Incoming>> incoming(parts);
  if (u != 0)
    for (int t = depth - 1; t < d; ++t)
      for (int p = 0; p < d; ++p) {
        if (((u >> p) & 1u) == 0) continue;
        std::vector<Piece> pieces = packet(u ^ (std::uint32_t{1} << p), p, t, d);
        const std::size_t bytes = bytes_of(pieces);
        if (bytes == 0) continue;
        Incoming& in = incoming[static_cast<std::size_t>(t)].emplace_back();
        in.parent = u ^ (std::uint32_t{1} << p);
        in.pieces = std::move(pieces);
        in.bytes = node.allocate<std::byte>(bytes);
      }
  for (auto& step : incoming)
    for (Incoming& in : step)
      in.request = node.post_recv(physical(in.parent), in.bytes.span());

  std::map<std::pair<int, std::uint32_t>, std::span<const std::byte>> held;  // (tree, block) -> where its part is
  std::vector<Buffer<std::byte>> outgoing;
  std::vector<Request> sends;
  for (int t = depth; t < d; ++t) {
    if (u != 0)
      for (Incoming& in : incoming[static_cast<std::size_t>(t - 1)]) {
        node.wait(in.request);
        std::size_t at = 0;
        for (const Piece& piece : in.pieces) {
          const std::size_t b = detail::part_bytes(m, parts, static_cast<std::size_t>(piece.tree));
          held[{piece.tree, piece.block}] = in.bytes.span().subspan(at, b);
          at += b;
        }
      }
    // Every packet of the step packed first: the step's packets leave together.
    std::vector<std::pair<int, std::size_t>> packed;  // (port, index in outgoing)
    for (int p = 0; p < d; ++p) {
      if ((u >> p) & 1u) continue;
      const std::vector<Piece> pieces = packet(u, p, t, d);
      const std::size_t bytes = bytes_of(pieces);
      if (bytes == 0) continue;
      Buffer<std::byte> out = node.allocate<std::byte>(bytes);
      std::size_t at = 0;
      for (const Piece& piece : pieces) {
        const std::size_t b = detail::part_bytes(m, parts, static_cast<std::size_t>(piece.tree));
        const std::span<const std::byte> from =
            u == 0 ? part_of(blocks.subspan(static_cast<std::size_t>(physical(piece.block)) * m, m), piece.tree)
                   : held.at({piece.tree, piece.block});
        node.copy(from, out.span().subspan(at, b));
        at += b;
      }
      packed.emplace_back(p, outgoing.size());
      outgoing.push_back(std::move(out));
    }
    for (const auto& [p, i] : packed)
      sends.push_back(node.isend(physical(u | (std::uint32_t{1} << p)), std::span<const std::byte>(outgoing[i].span())));
  }
  if (u != 0) {
    for (Incoming& in : incoming[parts - 1]) node.wait(in.request);  // all n parts, then into place
    for (Incoming& in : incoming[parts - 1]) {
      std::size_t at = 0;
      for (const Piece& piece : in.pieces) {
        const std::size_t b = detail::part_bytes(m, parts, static_cast<std::size_t>(piece.tree));
        node.copy(in.bytes.span().subspan(at, b), part_of(block, piece.tree));
        at += b;
      }
    }
  }
  node.wait_all(sends);
}

}  // namespace hcemu::kernels
