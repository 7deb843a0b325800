// Stout & Wagar (1990) §5, COLLECT: "exactly the same operation [as distributing], only run in reverse". Every
// packet of DISTRIBUTE 1 (or 2) travels the other way, in the reverse order, with the same contents
// (scatter_waves.hpp):
//
//   distance j >= 2: for each (wave, class h >= j), the waves last to first and the classes nearest first:
//                      h = j: the node's own message, in the far corner's unit order (spread_order.hpp)
//                      h > j: wait for one packet from every upper neighbour; what the node holds of message r is
//                             then the chunks from its upper neighbours, in ascending order of dimension
//                    send each lower neighbour x ^ 2^b the slice of every message that came from it in DISTRIBUTE
//   distance 1:      for each wave, last to first: wait for its classes, send the root one packet with all of them
//   root:            for each wave, last to first: wait for the d packets and copy every message into place
#include <cstring>
#include <vector>

#include "hcemu/kernels/scatter.hpp"
#include "scatter_waves.hpp"
#include "spread_order.hpp"

namespace hcemu::kernels {
namespace {

void root_receives(Node& node, std::span<std::byte> blocks, int root, const detail::WaveLayout& layout) {
  const int d = layout.d();
  const std::size_t m = layout.m();
  const std::size_t waves = layout.waves().size();
  std::vector<Buffer<std::byte>> in;
  std::vector<std::vector<Request>> receives(waves);
  for (std::size_t w = waves; w-- > 0;)
    for (int z = 0; z < d; ++z) {
      in.push_back(node.allocate<std::byte>(layout.wave_bytes(w)));
      receives[w].push_back(node.post_recv(node.neighbor(z), in.back().span()));
    }
  std::size_t packet = 0;
  for (std::size_t w = waves; w-- > 0;) {
    node.wait_all(receives[w]);
    for (int z = 0; z < d; ++z, ++packet) {
      std::size_t at = 0;
      for (int h : layout.waves()[w]) {
        const std::size_t len = layout.edge(h, 0);
        for (std::uint32_t r : layout.beyond(std::uint32_t{1} << z, h)) {
          // This chunk is units [i·e, (i+1)·e) of r's message, in order: bytes [i·len, (i+1)·len).
          const std::size_t from = detail::chunk_index(r, 0, z) * len;
          if (from < m) {
            const std::size_t n = std::min(len, m - from);
            node.copy(in[packet].span().subspan(at, n),
                      blocks.subspan((r ^ static_cast<std::uint32_t>(root)) * m + from, n));
          }
          at += len;
        }
      }
    }
  }
}

struct CollectedWave {
  std::size_t wave;
  int h;
  Buffer<std::byte> in;  // one packet per upper neighbour, side by side
  std::vector<Request> receives;
  std::vector<std::size_t> packet_at;  // where each upper neighbour's packet starts
};

void backward(Node& node, std::span<const std::byte> block, std::uint32_t x, const detail::WaveLayout& layout) {
  const int d = layout.d(), j = std::popcount(x);
  std::vector<int> lower, upper;
  for (int b = 0; b < d; ++b) (x >> b & 1u ? lower : upper).push_back(b);
  Buffer<std::byte> zeros = node.allocate<std::byte>(detail::most_padding(layout));
  std::fill(zeros.begin(), zeros.end(), std::byte{0});

  // The items in reverse order, every receive up front.
  std::vector<CollectedWave> items;
  for (std::size_t w = layout.waves().size(); w-- > 0;) {
    const auto& wave = layout.waves()[w];
    for (auto it = wave.rbegin(); it != wave.rend(); ++it) {
      const int h = *it;
      if (h < j) continue;
      CollectedWave item{w, h, {}, {}, {}};
      if (h > j) {
        const std::size_t len = layout.edge(h, j);
        std::size_t total = 0;
        for (int z : upper) {
          item.packet_at.push_back(total);
          total += layout.beyond(x | (std::uint32_t{1} << z), h).size() * len;
        }
        item.in = node.allocate<std::byte>(total);
        for (std::size_t i = 0; i < upper.size(); ++i) {
          const std::size_t end = i + 1 < upper.size() ? item.packet_at[i + 1] : total;
          item.receives.push_back(node.post_recv(node.neighbor(upper[i]),
                                                 item.in.span().subspan(item.packet_at[i], end - item.packet_at[i])));
        }
      }
      items.push_back(std::move(item));
    }
  }

  // Write bytes [from, from + to.size()) of what this node holds of message r (class h) into `to`.
  auto copy_held = [&](const CollectedWave& item, std::uint32_t r, std::size_t from, std::span<std::byte> to) {
    const int h = item.h;
    if (h == j) {  // its own message, laid out in the far corner's unit order
      const std::vector<std::uint32_t> order = detail::spread_final_order(h);
      const std::size_t u = layout.unit(h);
      for (std::size_t done = 0; done < to.size();) {
        const std::size_t p = (from + done) / u, within = (from + done) % u;
        const std::size_t n = std::min(u - within, to.size() - done);
        detail::copy_padded(node, block, order[p] * u + within, to.subspan(done, n), zeros.span());
        done += n;
      }
      return;
    }
    // The chunks from the upper neighbours across the bits of r outside x, ascending.
    const std::size_t len = layout.edge(h, j);
    std::vector<std::span<const std::byte>> segments;
    for (std::size_t i = 0; i < upper.size(); ++i) {
      const std::uint32_t next = x | (std::uint32_t{1} << upper[i]);
      if ((r & next) != next) continue;
      const std::size_t k = detail::index_of(layout.beyond(next, h), r);
      segments.push_back(item.in.span().subspan(item.packet_at[i] + k * len, len));
    }
    detail::copy_range(node, segments, from, to);
  };

  std::vector<Request> sends;
  if (j == 1) {
    // One packet per wave to the root, laid out as the root's DISTRIBUTE packet: classes in the wave's order.
    for (std::size_t first = 0; first < items.size();) {
      const std::size_t w = items[first].wave;
      std::size_t end = first;
      while (end < items.size() && items[end].wave == w) node.wait_all(items[end++].receives);
      Buffer<std::byte> packet = node.allocate<std::byte>(layout.wave_bytes(w));
      for (std::size_t i = first; i < end; ++i) {
        const std::size_t len = layout.edge(items[i].h, 0);
        const std::vector<std::uint32_t> mine = layout.beyond(x, items[i].h);
        for (std::size_t k = 0; k < mine.size(); ++k)
          copy_held(items[i], mine[k], 0, packet.span().subspan(layout.wave_offset(w, items[i].h) + k * len, len));
      }
      sends.push_back(node.isend(node.neighbor(lower[0]), std::span<const std::byte>(packet)));
      first = end;
    }
  } else {
    for (CollectedWave& item : items) {
      node.wait_all(item.receives);
      // To lower neighbour s: the s-th slice (ℓ_{j-1}(h) bytes) of every message r ⊇ x of the class.
      const std::size_t len = layout.edge(item.h, j - 1);
      const std::vector<std::uint32_t> mine = layout.beyond(x, item.h);
      std::vector<Buffer<std::byte>> packets;
      for (std::size_t s = 0; s < lower.size(); ++s) {
        packets.push_back(node.allocate<std::byte>(mine.size() * len));
        for (std::size_t k = 0; k < mine.size(); ++k)
          copy_held(item, mine[k], s * len, packets.back().span().subspan(k * len, len));
      }
      for (std::size_t s = 0; s < lower.size(); ++s)
        sends.push_back(node.isend(node.neighbor(lower[s]), std::span<const std::byte>(packets[s])));
    }
  }
  node.wait_all(sends);
}

void collect(Node& node, std::span<const std::byte> block, std::span<std::byte> blocks, int root, model::Waves waves,
             const char* kernel) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const std::size_t m = block.size();
  detail::check_scatter_buffers(node, root, blocks, m, kernel);
  const auto x = static_cast<std::uint32_t>(node.id() ^ root);
  if (x == 0 && m > 0) std::memcpy(blocks.data() + static_cast<std::size_t>(root) * m, block.data(), m);
  if (node.dim() == 0 || m == 0) return;
  const detail::WaveLayout layout(node.dim(), m, std::move(waves));
  if (x == 0)
    root_receives(node, blocks, root, layout);
  else
    backward(node, block, x, layout);
}

}  // namespace

void collect_1(Node& node, std::span<const std::byte> block, std::span<std::byte> blocks, int root) {
  collect(node, block, blocks, root, model::distribute_1_waves(node.dim()), "collect_1");
}

void collect_2(Node& node, std::span<const std::byte> block, std::span<std::byte> blocks, int root) {
  collect(node, block, blocks, root, model::distribute_2_waves(node.dim()), "collect_2");
}

}  // namespace hcemu::kernels
