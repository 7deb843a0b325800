// Stout & Wagar (1990) §5, DISTRIBUTE 1 and DISTRIBUTE 2: one engine, two wave plans (model::distribute_1_waves,
// model::distribute_2_waves). The layout of the packets is scatter_waves.hpp's.
//
//   root:        for each wave: pack, for every link z, the chunks crossing ∅ -> {z} of every message in the wave;
//                send the d packets
//   distance j:  for each (wave, class h >= j) in the root's order:
//                  wait for it (distance 1: the whole wave from the root; further: one packet per lower neighbour)
//                  h > j: for every upper link z, pack the chunk of every message r ⊇ x | z that goes across z
//                         (the i-th of the node's n - j consecutive slices of what it holds of r); send
//                  h = j: the node's own message: put its units in place
//
// DISTRIBUTE 1 has one wave per class, farthest first, so that class h leaves the root in stage d - h and every
// message arrives in stage d - 1 (the paper's staggering); the root is the bottleneck and sends C(d,h)·m/d per link
// for class h. DISTRIBUTE 2 groups the classes into fewer waves: at distance 1 a wave splits into one wavelet per
// class, farthest first, each continuing like DISTRIBUTE 1.
#include <cstring>
#include <vector>

#include "hcemu/kernels/scatter.hpp"
#include "scatter_waves.hpp"
#include "spread_order.hpp"

namespace hcemu::kernels {
namespace {

void root_sends(Node& node, std::span<const std::byte> blocks, int root, const detail::WaveLayout& layout) {
  const int d = layout.d();
  const std::size_t m = layout.m();
  Buffer<std::byte> zeros = node.allocate<std::byte>(detail::most_padding(layout));
  std::fill(zeros.begin(), zeros.end(), std::byte{0});
  std::vector<Request> sends;
  for (std::size_t w = 0; w < layout.waves().size(); ++w) {
    std::vector<Buffer<std::byte>> packets;
    for (int z = 0; z < d; ++z) {
      packets.push_back(node.allocate<std::byte>(layout.wave_bytes(w)));
      std::size_t at = 0;
      for (int h : layout.waves()[w]) {
        const std::size_t len = layout.edge(h, 0);
        for (std::uint32_t r : layout.beyond(std::uint32_t{1} << z, h)) {
          const auto message = blocks.subspan((r ^ static_cast<std::uint32_t>(root)) * m, m);
          const std::size_t i = detail::chunk_index(r, 0, z);
          detail::copy_padded(node, message, i * len, packets.back().span().subspan(at, len), zeros.span());
          at += len;
        }
      }
    }
    for (int z = 0; z < d; ++z)
      sends.push_back(node.isend(node.neighbor(z), std::span<const std::byte>(packets[static_cast<std::size_t>(z)])));
  }
  node.wait_all(sends);
}

struct DistributedWave {
  std::size_t wave;
  int h;
  Buffer<std::byte> in;  // distance >= 2: one packet per lower neighbour, side by side
  std::vector<Request> receives;
};

void forward(Node& node, std::span<std::byte> block, std::uint32_t x, const detail::WaveLayout& layout) {
  const int d = layout.d(), j = std::popcount(x);
  const std::size_t m = layout.m();
  std::vector<int> lower, upper;
  for (int b = 0; b < d; ++b) (x >> b & 1u ? lower : upper).push_back(b);

  // Every receive up front. Distance 1: one packet per wave from the root.
  std::vector<Buffer<std::byte>> waves_in;
  std::vector<Request> wave_receives;
  std::vector<DistributedWave> items;
  for (std::size_t w = 0; w < layout.waves().size(); ++w) {
    if (j == 1) {
      waves_in.push_back(node.allocate<std::byte>(layout.wave_bytes(w)));
      wave_receives.push_back(node.post_recv(node.neighbor(lower[0]), waves_in.back().span()));
    }
    for (int h : layout.waves()[w]) {
      if (h < j) continue;
      DistributedWave item{w, h, {}, {}};
      if (j >= 2) {
        const std::size_t packet = layout.beyond(x, h).size() * layout.edge(h, j - 1);
        item.in = node.allocate<std::byte>(packet * lower.size());
        for (std::size_t s = 0; s < lower.size(); ++s)
          item.receives.push_back(node.post_recv(node.neighbor(lower[s]), item.in.span().subspan(s * packet, packet)));
      }
      items.push_back(std::move(item));
    }
  }

  std::vector<Request> sends;
  std::size_t waited = SIZE_MAX;
  for (DistributedWave& item : items) {
    const int h = item.h;
    const std::vector<std::uint32_t> mine = layout.beyond(x, h);
    if (j == 1 && waited != item.wave) {
      node.wait(wave_receives[item.wave]);
      waited = item.wave;
    }
    node.wait_all(item.receives);
    // What this node holds of message q: one chunk of ℓ_{j-1}(h) from each lower neighbour, in ascending order.
    const std::size_t held = layout.edge(h, j - 1);
    auto holding = [&](std::size_t q) {
      std::vector<std::span<const std::byte>> segments;
      if (j == 1) {
        segments.push_back(waves_in[item.wave].span().subspan(layout.wave_offset(item.wave, h) + q * held, held));
      } else {
        const std::size_t packet = mine.size() * held;
        for (std::size_t s = 0; s < lower.size(); ++s)
          segments.push_back(item.in.span().subspan(s * packet + q * held, held));
      }
      return segments;
    };

    if (h == j) {  // the node's own message, units in the far corner's order
      const std::vector<std::uint32_t> order = detail::spread_final_order(h);
      const std::size_t u = layout.unit(h);
      const auto segments = holding(0);
      for (std::size_t p = 0; p < order.size();) {
        std::size_t run = 1;
        while (p + run < order.size() && order[p + run] == order[p] + run) ++run;
        const std::size_t at = order[p] * u;
        if (at < m) detail::copy_range(node, segments, p * u, block.subspan(at, std::min(run * u, m - at)));
        p += run;
      }
      continue;
    }

    // Pack every upper link's packet, then send them all at once.
    const std::size_t len = layout.edge(h, j);
    std::vector<Buffer<std::byte>> packets;
    for (int z : upper) {
      const std::vector<std::uint32_t> theirs = layout.beyond(x | (std::uint32_t{1} << z), h);
      packets.push_back(node.allocate<std::byte>(theirs.size() * len));
      for (std::size_t k = 0; k < theirs.size(); ++k) {
        const std::size_t i = detail::chunk_index(theirs[k], x, z);
        detail::copy_range(node, holding(detail::index_of(mine, theirs[k])), i * len,
                           packets.back().span().subspan(k * len, len));
      }
    }
    for (std::size_t i = 0; i < upper.size(); ++i)
      sends.push_back(node.isend(node.neighbor(upper[i]), std::span<const std::byte>(packets[i])));
  }
  node.wait_all(sends);
}

void distribute(Node& node, std::span<const std::byte> blocks, std::span<std::byte> block, int root, model::Waves waves,
                const char* kernel) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const std::size_t m = block.size();
  detail::check_scatter_buffers(node, root, blocks, m, kernel);
  const auto x = static_cast<std::uint32_t>(node.id() ^ root);
  if (x == 0 && m > 0) std::memcpy(block.data(), blocks.data() + static_cast<std::size_t>(root) * m, m);
  if (node.dim() == 0 || m == 0) return;
  const detail::WaveLayout layout(node.dim(), m, std::move(waves));
  if (x == 0)
    root_sends(node, blocks, root, layout);
  else
    forward(node, block, x, layout);
}

}  // namespace

void distribute_1(Node& node, std::span<const std::byte> blocks, std::span<std::byte> block, int root) {
  distribute(node, blocks, block, root, model::distribute_1_waves(node.dim()), "distribute_1");
}

void distribute_2(Node& node, std::span<const std::byte> blocks, std::span<std::byte> block, int root) {
  distribute(node, blocks, block, root, model::distribute_2_waves(node.dim()), "distribute_2");
}

}  // namespace hcemu::kernels
