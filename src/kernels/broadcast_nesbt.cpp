// n edge-disjoint spanning binomial trees: Johnsson & Ho (1987) §3.4 and Table 1 (nESBT-b(n,1)), after Ho &
// Johnsson (ICPP 1986). The construction (docs/kernels/broadcast.md) is edge-disjoint, which
// our tests check.
//
// The message is split into n = d pieces; piece k is sent to the root's neighbour s ^ 2^k and broadcast from there
// with a binomial tree whose dimension order is (k+1, k+2, ..., k-1, k), dimension k last so that s is a leaf,
// which is then deleted. Tree k is thus: s -> s ^ 2^k, then for a node x (y = x ^ s ^ 2^k, h(y) the position in
// that order of y's last 1-bit, -1 for y = 0) the children x ^ 2^o_t for t > h(y). Its height is d + 1. The d
// trees share no directed link, so on an all-port machine each piece, cut into chunks of B bytes, is pipelined
// down its own tree: (M/n + nB) t_c + (⌈M/(nB)⌉ + n) τ in the paper's terms.
//
// A node sits in all d trees at once, each chunk arriving on the link from its parent in that tree. It posts every
// receive up front and forwards each chunk the moment it arrives, taking its chunks with wait_any in the order in
// which they complete in model time, whatever the port model. That order need not be the chunks' own (a short last
// chunk can complete before a longer one that arrived first), so every chunk has a tag of its own.
//
// Only two chunks of a tree can be the first to complete: its earliest chunk not yet taken among those of full size,
// and its last chunk, the only one that may be shorter. The full-size chunks of a tree come down one link from one
// parent, which sends them in their order (the root does; every other node takes them in that order, by induction),
// so they arrive in that order, and a receive completes at max(arrival, input_free + hold) with the same hold for
// chunks of one size (docs/model.md "Ports and receives"): a later full-size chunk never completes before an earlier
// one, and where they tie wait_any takes the earlier, which comes first in `receives`. So each wait_any is over those
// two of every tree, at most 2d requests in their order in `receives`, and takes the chunk a wait over every pending
// one would take: over all of them, each of a node's n arrivals scanned the n still pending, n² in all (d = 4,
// m = 65536, all-port, chunk 4: 70 s, where the gray-code broadcast moves as many messages in 0.07 s).
#include <algorithm>
#include <tuple>
#include <vector>

#include "broadcast_cube.hpp"
#include "hcemu/kernels/broadcast.hpp"
#include "hcemu/model/transfer.hpp"

namespace hcemu::kernels {
namespace {

struct Chunk {
  int tree;
  int tag;
  std::span<std::byte> bytes;
};

// The dimension order of tree k below its sub-root: k+1, k+2, ..., k-1, k.
int order(int k, int t, int d) { return (k + 1 + t) % d; }

// The position in that order of y's last 1-bit, -1 for y = 0.
int last_position(std::uint32_t y, int k, int d) {
  int h = -1;
  for (int t = 0; t < d; ++t)
    if (y & detail::dim_bit(order(k, t, d))) h = t;
  return h;
}

// The chunks of each tree's piece: ⌈m/d⌉ or ⌊m/d⌋ bytes cut into chunks of at most `chunk` bytes. A tree whose
// piece is empty gets none, unless the whole message is empty: then every tree carries one empty chunk, as the
// binomial tree broadcast sends one empty message.
std::vector<std::vector<std::span<std::byte>>> tree_chunks(std::span<std::byte> message, int d, std::size_t chunk) {
  const std::size_t m = message.size();
  const auto n = static_cast<std::size_t>(d);
  std::vector<std::vector<std::span<std::byte>>> trees(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t piece = detail::part_bytes(m, n, k);
    if (piece == 0 && m != 0) continue;
    const std::span<std::byte> data = message.subspan(detail::part_offset(m, n, k), piece);
    const std::size_t b = chunk == 0 ? std::max<std::size_t>(piece, 1) : chunk;
    for (std::size_t at = 0; at < piece || (piece == 0 && at == 0); at += std::max<std::size_t>(b, 1))
      trees[k].push_back(data.subspan(at, std::min(b, piece - at)));
  }
  return trees;
}

}  // namespace

void nesbt_broadcast(Node& node, std::span<std::byte> message, int root, std::size_t chunk) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  detail::check_root(root, node.size(), "nesbt_broadcast");
  const int d = node.dim();
  if (d == 0) return;
  const auto relative = static_cast<std::uint32_t>(node.id() ^ root);
  const auto trees = tree_chunks(message, d, chunk);
  // Chunk c of tree k is tag first_tag[k] + c, on every node.
  std::vector<int> first_tag(static_cast<std::size_t>(d));
  for (int k = 0, next = 0; k < d; ++k) {
    first_tag[static_cast<std::size_t>(k)] = next;
    next += static_cast<int>(trees[static_cast<std::size_t>(k)].size());
  }
  std::vector<Request> sends;

  if (relative == 0) {
    // The root sends every chunk down its tree's first link; chunk-major, so that a one-port root alternates trees.
    for (std::size_t c = 0;; ++c) {
      bool any = false;
      for (int k = 0; k < d; ++k) {
        const auto& parts = trees[static_cast<std::size_t>(k)];
        if (c >= parts.size()) continue;
        sends.push_back(node.isend(node.neighbor(k), std::span<const std::byte>(parts[c]),
                                   first_tag[static_cast<std::size_t>(k)] + static_cast<int>(c)));
        any = true;
      }
      if (!any) break;
    }
    node.wait_all(sends);
    return;
  }

  std::vector<Chunk> chunks;
  std::vector<Request> receives;
  std::vector<std::vector<int>> children(static_cast<std::size_t>(d));  // per tree, the dimensions to forward on
  // Per tree, in `receives`: its earliest full-size chunk not yet taken (from its first chunk up to `last`), and its
  // last chunk, pending until `last_taken`.
  std::vector<std::size_t> next(static_cast<std::size_t>(d)), last(static_cast<std::size_t>(d));
  std::vector<char> last_taken(static_cast<std::size_t>(d), 1);
  for (int k = 0; k < d; ++k) {
    const auto& parts = trees[static_cast<std::size_t>(k)];
    if (parts.empty()) continue;
    next[static_cast<std::size_t>(k)] = receives.size();
    last[static_cast<std::size_t>(k)] = receives.size() + parts.size() - 1;
    last_taken[static_cast<std::size_t>(k)] = 0;
    const std::uint32_t y = relative ^ detail::dim_bit(k);
    const int h = last_position(y, k, d);
    for (int t = h + 1; t < d; ++t)
      if (!(y == 0 && t == d - 1)) children[static_cast<std::size_t>(k)].push_back(order(k, t, d));  // not the root
    const int from = y == 0 ? k : order(k, h, d);
    for (std::size_t c = 0; c < parts.size(); ++c) {
      const int chunk_tag = first_tag[static_cast<std::size_t>(k)] + static_cast<int>(c);
      chunks.push_back({k, chunk_tag, parts[c]});
      receives.push_back(node.post_recv(node.neighbor(from), parts[c], chunk_tag));  // all posted up front
    }
  }

  std::vector<Request> window;
  std::vector<std::size_t> at;  // window[w] is receives[at[w]]
  for (std::size_t left = receives.size(); left > 0; --left) {
    window.clear();
    at.clear();
    for (std::size_t k = 0; k < static_cast<std::size_t>(d); ++k) {
      if (next[k] < last[k]) at.push_back(next[k]);
      if (!last_taken[k]) at.push_back(last[k]);
    }
    for (std::size_t i : at) window.push_back(receives[i]);
    const std::size_t i = at[node.wait_any(window)];
    receives[i] = Request{};
    const Chunk& c = chunks[i];
    const auto k = static_cast<std::size_t>(c.tree);
    if (i == last[k])
      last_taken[k] = 1;
    else
      ++next[k];
    for (int dim : children[static_cast<std::size_t>(c.tree)])
      sends.push_back(node.isend(node.neighbor(dim), std::span<const std::byte>(c.bytes), c.tag));
  }
  node.wait_all(sends);
}

}  // namespace hcemu::kernels
