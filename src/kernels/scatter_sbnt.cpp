// Johnsson & Ho (1987) §4.3, SBnT-p(n,1): scatter down the spanning balanced n-tree (model/spanning_trees.hpp); and
// SBT-p(n,1) (Table 3), the same schedule down the binomial tree on all ports.
//
// The block for v (relative address, depth l = popcount(v)) leaves the root in step d - l and moves one level per
// step, so every block arrives in step d - 1: in step t a node u at depth δ sends each child c one packet with the
// blocks of c's subtree at depth d - t + δ, and it received exactly those, for all its children at once, from its
// parent in step t - 1. Inside a packet the blocks are in depth-first (preorder) order of the tree, children in
// ascending order, so what a node passes to each child is a contiguous slice of what it received: only the root
// packs (ρ per byte), and a node's own block arrives alone, in step d - 1, straight into place. Both trees' paths are
// shortest paths (depth = popcount), which is all the schedule needs of a tree.
#include <bit>
#include <cstring>
#include <vector>

#include "hcemu/kernels/scatter.hpp"
#include "hcemu/model/spanning_trees.hpp"
#include "scatter_waves.hpp"

namespace hcemu::kernels {
namespace {

// The nodes of v's subtree (v included) in preorder.
void preorder(std::uint32_t v, const std::vector<std::vector<std::uint32_t>>& children,
              std::vector<std::uint32_t>& out) {
  out.push_back(v);
  for (std::uint32_t c : children[v]) preorder(c, children, out);
}

// For every child c of u, its subtree by depth, each in preorder: what the packet to c carries in the step that
// serves that depth.
std::vector<std::vector<std::vector<std::uint32_t>>> subtrees_by_depth(
    std::uint32_t u, int d, const std::vector<std::vector<std::uint32_t>>& children) {
  std::vector<std::vector<std::vector<std::uint32_t>>> out;
  for (std::uint32_t c : children[u]) {
    std::vector<std::uint32_t> all;
    preorder(c, children, all);
    out.emplace_back(static_cast<std::size_t>(d) + 1);
    for (std::uint32_t v : all) out.back()[static_cast<std::size_t>(std::popcount(v))].push_back(v);
  }
  return out;
}

// The scatter down the tree given by its children (a table of every relative address's, ascending) and parent.
void tree_scatter(Node& node, std::span<const std::byte> blocks, std::span<std::byte> block, int root,
                  const std::vector<std::vector<std::uint32_t>>& children, std::uint32_t (*parent_of)(std::uint32_t, int),
                  const char* kernel) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const std::size_t m = block.size();
  detail::check_scatter_buffers(node, root, blocks, m, kernel);
  const int d = node.dim();
  const auto u = static_cast<std::uint32_t>(node.id() ^ root);
  const auto relative_root = static_cast<std::uint32_t>(root);
  if (u == 0 && m > 0) std::memcpy(block.data(), blocks.data() + static_cast<std::size_t>(root) * m, m);
  if (d == 0 || m == 0) return;
  const auto below = subtrees_by_depth(u, d, children);
  const int depth = std::popcount(u);
  auto physical = [relative_root](std::uint32_t v) { return static_cast<int>(v ^ relative_root); };

  // What arrives from the parent in step t - 1 (t = depth..d - 1), for the children; the own block in step d - 1.
  std::vector<Buffer<std::byte>> in(static_cast<std::size_t>(d));
  std::vector<Request> arriving(static_cast<std::size_t>(d));
  if (u != 0) {
    const int parent = physical(parent_of(u, d));
    for (int t = depth; t < d; ++t) {
      std::size_t bytes = 0;
      for (const auto& sub : below) bytes += sub[static_cast<std::size_t>(d - t + depth)].size() * m;
      if (bytes == 0) continue;
      in[static_cast<std::size_t>(t - 1)] = node.allocate<std::byte>(bytes);
      arriving[static_cast<std::size_t>(t - 1)] = node.post_recv(parent, in[static_cast<std::size_t>(t - 1)].span());
    }
    arriving[static_cast<std::size_t>(d - 1)] = node.post_recv(parent, block);
  }

  std::vector<Request> sends;
  for (int t = depth; t < d; ++t) {
    const auto level = static_cast<std::size_t>(d - t + depth);
    std::vector<std::vector<std::uint32_t>> packets;
    std::size_t total = 0;
    for (const auto& sub : below) {
      packets.push_back(sub[level]);
      total += packets.back().size() * m;
    }
    if (total == 0) continue;
    std::vector<Buffer<std::byte>> out;
    std::span<const std::byte> source;
    if (u == 0) {  // the root packs the step's packets from its blocks
      Buffer<std::byte> packed = node.allocate<std::byte>(total);
      std::size_t at = 0;
      for (const auto& p : packets)
        for (std::uint32_t v : p) {
          node.copy(blocks.subspan(static_cast<std::size_t>(physical(v)) * m, m), packed.span().subspan(at, m));
          at += m;
        }
      out.push_back(std::move(packed));
      source = out.back().span();
    } else {
      node.wait(arriving[static_cast<std::size_t>(t - 1)]);
      source = in[static_cast<std::size_t>(t - 1)].span();
    }
    std::size_t at = 0;
    for (std::size_t i = 0; i < packets.size(); ++i) {
      const std::size_t bytes = packets[i].size() * m;
      if (bytes == 0) continue;
      sends.push_back(node.isend(physical(children[u][i]), source.subspan(at, bytes)));
      at += bytes;
    }
  }
  if (u != 0) node.wait(arriving[static_cast<std::size_t>(d - 1)]);
  node.wait_all(sends);
}

}  // namespace

void sbnt_scatter(Node& node, std::span<const std::byte> blocks, std::span<std::byte> block, int root) {
  tree_scatter(node, blocks, block, root, model::sbnt_children(node.dim()), model::sbnt_parent, "sbnt_scatter");
}

void pipelined_sbt_scatter(Node& node, std::span<const std::byte> blocks, std::span<std::byte> block, int root) {
  tree_scatter(node, blocks, block, root, model::sbt_children(node.dim()), model::sbt_parent, "pipelined_sbt_scatter");
}

}  // namespace hcemu::kernels
