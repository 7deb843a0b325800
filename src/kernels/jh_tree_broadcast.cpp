// One-to-all broadcasts pipelined down a spanning tree: Johnsson & Ho (1987) §4.1 and Table 1. GC(1,1) uses the
// Hamiltonian path in binary-reflected Gray code order (§4.1.1), SBT-b(n,1) the spanning binomial tree (§4.1.2,
// "with n-port communication, pipelining can be employed"), and sbnt_broadcast the Spanning Balanced n-Tree
// (§4.1.5), two_rooted_tree_broadcast the two-rooted complete binary tree (§4.1.6). All four are one kernel: the message is cut into chunks, every chunk is forwarded to all children the
// moment it has arrived, and a tree of height H then takes Σ_j T(chunk_j) + (H - 1)·max_j T(chunk_j) on the ports
// it was made for (the last chunk leaves the root Σ_j T_j after the start and needs H - 1 more links).
#include <bit>
#include <functional>
#include <vector>

#include "broadcast_cube.hpp"
#include "hcemu/kernels/primitives.hpp"
#include "hcemu/model/spanning_trees.hpp"
#include "jh_cube.hpp"

namespace hcemu::kernels {
namespace {

// A spanning tree in relative addresses (id ^ root): the parent of r != 0, and the children of r.
struct Tree {
  std::function<std::uint32_t(std::uint32_t)> parent;
  std::function<std::vector<std::uint32_t>(std::uint32_t)> children;
};

int dimension_between(std::uint32_t a, std::uint32_t b) { return std::countr_zero(a ^ b); }

void pipelined_tree_broadcast(Node& node, std::span<std::byte> message, int root, std::size_t chunk, const Tree& tree,
                              const char* kernel) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  detail::check_root(root, node.size(), kernel);
  if (node.dim() == 0) return;
  const auto relative = static_cast<std::uint32_t>(node.id() ^ root);
  const std::size_t chunks = detail::chunk_count(message.size(), chunk);

  // Every receive is posted before anything is sent (FORCED-safe); chunks from one parent match in order.
  std::vector<Request> arriving;
  if (relative != 0) {
    const int from = node.neighbor(dimension_between(relative, tree.parent(relative)));
    for (std::size_t j = 0; j < chunks; ++j)
      arriving.push_back(node.post_recv(from, detail::chunk_of(message, chunk, j)));
  }
  std::vector<int> to;
  for (std::uint32_t c : tree.children(relative)) to.push_back(node.neighbor(dimension_between(relative, c)));

  std::vector<Request> sends;
  sends.reserve(chunks * to.size());
  for (std::size_t j = 0; j < chunks; ++j) {
    if (relative != 0) node.wait(arriving[j]);
    const std::span<const std::byte> piece = detail::chunk_of(message, chunk, j);
    for (int child : to) sends.push_back(node.isend(child, piece));
  }
  node.wait_all(sends);
}

}  // namespace

void gray_code_broadcast(Node& node, std::span<std::byte> message, int root, std::size_t chunk) {
  const auto last = static_cast<std::uint32_t>(node.size() - 1);
  const Tree path{
      [](std::uint32_t r) { return model::gray(model::inverse_gray(r) - 1); },
      [last](std::uint32_t r) {
        const std::uint32_t p = model::inverse_gray(r);
        return p == last ? std::vector<std::uint32_t>{} : std::vector<std::uint32_t>{model::gray(p + 1)};
      }};
  pipelined_tree_broadcast(node, message, root, chunk, path, "gray_code_broadcast");
}

void pipelined_sbt_broadcast(Node& node, std::span<std::byte> message, int root, std::size_t chunk) {
  const int d = node.dim();
  // parent(r) = r ^ 2^h(r), children(r) = r ^ 2^t for t > h(r), h the highest 1-bit (Johnsson & Ho §4.1.2).
  const Tree binomial{
      [](std::uint32_t r) { return r ^ (std::uint32_t{1} << detail::highest_bit(r)); },
      [d](std::uint32_t r) {
        std::vector<std::uint32_t> out;
        for (int t = detail::highest_bit(r) + 1; t < d; ++t) out.push_back(r ^ (std::uint32_t{1} << t));
        return out;
      }};
  pipelined_tree_broadcast(node, message, root, chunk, binomial, "pipelined_sbt_broadcast");
}

void sbnt_broadcast(Node& node, std::span<std::byte> message, int root, std::size_t chunk) {
  const int d = node.dim();
  const Tree balanced{[d](std::uint32_t r) { return model::sbnt_parent(r, d); },
                      [d](std::uint32_t r) { return model::sbnt_children(r, d); }};
  pipelined_tree_broadcast(node, message, root, chunk, balanced, "sbnt_broadcast");
}

void two_rooted_tree_broadcast(Node& node, std::span<std::byte> message, int root, std::size_t chunk) {
  const int d = node.dim();
  const Tree two_rooted{[d](std::uint32_t r) { return model::two_rooted_parent(r, d); },
                        [d](std::uint32_t r) { return model::two_rooted_children(r, d); }};
  pipelined_tree_broadcast(node, message, root, chunk, two_rooted, "two_rooted_tree_broadcast");
}

}  // namespace hcemu::kernels
