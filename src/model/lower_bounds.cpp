#include "hcemu/model/lower_bounds.hpp"

#include <algorithm>
#include <bit>

#include "hcemu/model/collectives.hpp"
#include "hcemu/model/permutation.hpp"
#include "hcemu/model/transfer.hpp"
#include "hcemu/model/transpose.hpp"
#include "model/shared.hpp"

namespace hcemu::model {
namespace {

// The least time one channel or link is busy carrying `bytes` (nothing to carry: 0). Any split of them into
// messages and packets costs at least this much: start-ups and set-ups only add.
Time busy(const MachineConfig& config, std::size_t bytes) { return bytes == 0 ? 0 : message_time(config, bytes, 1); }

std::size_t nodes(const MachineConfig& config) { return std::size_t{1} << config.d; }

// The bound of a problem in which one node's data must reach every other node, or every node's data one node.
Time spreading(const MachineConfig& config) { return std::max(distance_bound(config, config.d), spread_bound(config)); }

}  // namespace

int node_channels(const MachineConfig& config) {
  switch (config.ports.kind) {
    case Ports::Kind::one:
    case Ports::Kind::half:
      return 1;
    case Ports::Kind::k:
      return std::max(1, std::min(config.ports.n, config.d));
    case Ports::Kind::all:
      return std::max(1, config.d);
  }
  return 1;
}

Time node_port_bound(const MachineConfig& config, std::size_t out, std::size_t in) {
  if (config.ports.kind == Ports::Kind::half) return busy(config, out) + busy(config, in);
  const auto c = static_cast<std::size_t>(node_channels(config));
  return std::max(busy(config, ceil_div(out, c)), busy(config, ceil_div(in, c)));
}

Time cut_bound(const MachineConfig& config, std::size_t bytes, std::size_t links) {
  return links == 0 ? 0 : busy(config, ceil_div(bytes, links));
}

Time distance_bound(const MachineConfig& config, int hops) { return hops <= 0 ? 0 : message_time(config, 1, hops); }

Time spread_bound(const MachineConfig& config) {
  if (config.switching != Switching::circuit || config.d == 0) return 0;
  const auto fan = static_cast<std::size_t>(node_channels(config)) + 1;
  int rounds = 0;
  for (std::size_t reached = 1; reached < nodes(config); reached *= fan) ++rounds;
  return rounds * message_time(config, 1, 1);
}

Time broadcast_lower_bound(const MachineConfig& config, std::size_t m) {
  if (config.d == 0 || m == 0) return 0;
  return std::max({node_port_bound(config, m, 0), node_port_bound(config, 0, m), spreading(config)});
}

Time fixed_packet_broadcast_lower_bound(const MachineConfig& config, std::size_t m, std::size_t packet_bytes) {
  if (config.d == 0 || m == 0 || packet_bytes == 0) return 0;
  const std::size_t packets = ceil_div(m, packet_bytes);
  const auto waits = static_cast<Time>(ceil_div(packets, static_cast<std::size_t>(node_channels(config))) - 1);
  return waits * busy(config, packet_bytes) + message_time(config, packet_bytes, config.d);
}

Time long_send_lower_bound(const MachineConfig& config, std::size_t m, int src, int dst) {
  const int h = std::popcount(static_cast<unsigned>(src ^ dst));
  if (h == 0 || m == 0) return 0;
  return std::max({node_port_bound(config, m, 0), node_port_bound(config, 0, m), distance_bound(config, h)});
}

Time scatter_lower_bound(const MachineConfig& config, std::size_t m) {
  if (config.d == 0 || m == 0) return 0;
  return std::max(
      {node_port_bound(config, (nodes(config) - 1) * m, 0), node_port_bound(config, 0, m), spreading(config)});
}

Time gather_lower_bound(const MachineConfig& config, std::size_t m) {
  if (config.d == 0 || m == 0) return 0;
  return std::max(
      {node_port_bound(config, 0, (nodes(config) - 1) * m), node_port_bound(config, m, 0), spreading(config)});
}

Time allgather_lower_bound(const MachineConfig& config, std::size_t m) {
  if (config.d == 0 || m == 0) return 0;
  return std::max(node_port_bound(config, m, (nodes(config) - 1) * m), spreading(config));
}

Time complete_exchange_lower_bound(const MachineConfig& config, std::size_t m) {
  if (config.topology.grid()) return grid_complete_exchange_lower_bound(config, m);
  if (config.d == 0 || m == 0) return 0;
  const std::size_t half = nodes(config) / 2;
  const std::size_t others = (nodes(config) - 1) * m;
  return std::max(
      {node_port_bound(config, others, others), cut_bound(config, half * half * m, half), spreading(config)});
}

Time grid_complete_exchange_lower_bound(const MachineConfig& config, std::size_t m) {
  if (config.d == 0 || m == 0) return 0;
  const auto [rows, cols] = config.topology.sides(config.d);
  const bool wrap = config.topology.kind == Topology::Kind::torus;
  const std::size_t n = nodes(config);
  // A node's links: two along each side longer than 1 (on a side of 2 the + and - links are two links).
  const int links = (rows > 1 ? 2 : 0) + (cols > 1 ? 2 : 0);
  std::size_t channels = 1;
  if (config.ports.kind == Ports::Kind::k)
    channels = static_cast<std::size_t>(std::max(1, std::min(config.ports.n, links)));
  if (config.ports.kind == Ports::Kind::all) channels = static_cast<std::size_t>(std::max(1, links));
  const std::size_t others = (n - 1) * m;
  const Time ports = config.ports.kind == Ports::Kind::half ? busy(config, others) + busy(config, others)
                                                            : busy(config, ceil_div(others, channels));
  const int longer = std::max(rows, cols), other = std::min(rows, cols);
  const std::size_t cut_links = static_cast<std::size_t>(wrap ? 2 * other : other);
  const Time cut = longer > 1 ? cut_bound(config, (n / 2) * (n / 2) * m, cut_links) : 0;
  const int diameter = wrap ? rows / 2 + cols / 2 : rows - 1 + cols - 1;
  return std::max({ports, cut, distance_bound(config, diameter)});
}

Time permutation_lower_bound(const MachineConfig& config, std::size_t m, std::span<const std::uint32_t> image) {
  const int d = config.d;
  if (d == 0 || m == 0) return 0;
  Time bound = 0;
  std::size_t total_hops = 0;
  int farthest = 0;
  bool moves = false;
  for (std::size_t s = 0; s < image.size(); ++s) {
    const int h = std::popcount(static_cast<std::uint32_t>(s) ^ image[s]);
    total_hops += static_cast<std::size_t>(h);
    farthest = std::max(farthest, h);
    moves = moves || h > 0;
  }
  if (!moves) return 0;
  bound = std::max(node_port_bound(config, m, m), distance_bound(config, farthest));
  bound = std::max(bound, cut_bound(config, total_hops * m, static_cast<std::size_t>(d) * nodes(config)));
  for (int k = 0; k < d; ++k) {
    std::size_t up = 0, down = 0;  // messages crossing dimension k from bit 0 to bit 1, and back
    for (std::size_t s = 0; s < image.size(); ++s) {
      const bool from = (s >> k) & 1u, to = (image[s] >> k) & 1u;
      if (!from && to) ++up;
      if (from && !to) ++down;
    }
    bound =
        std::max({bound, cut_bound(config, up * m, nodes(config) / 2), cut_bound(config, down * m, nodes(config) / 2)});
  }
  return bound;
}

Time row_transpose_lower_bound(const MachineConfig& config, std::size_t n, std::size_t element_bytes) {
  return complete_exchange_lower_bound(config, row_transpose_block_bytes(config.d, n, element_bytes));
}

Time block_transpose_lower_bound(const MachineConfig& config, std::size_t n, std::size_t element_bytes) {
  const int d = config.d;
  if (d % 2 != 0) return 0;
  const int c = d / 2;
  std::vector<std::uint32_t> image(nodes(config));
  for (std::uint32_t id = 0; id < image.size(); ++id) {
    const std::uint32_t a = id >> c, b = id & ((std::uint32_t{1} << c) - 1);
    image[id] = (b << c) | a;
  }
  return permutation_lower_bound(config, grid_block_bytes(d, n, element_bytes), image);
}

Time histogram_lower_bound(const MachineConfig& config, std::size_t bins) {
  const int d = config.d;
  if (d == 0 || bins == 0) return 0;
  Time bound = spreading(config);
  for (int i = 0; i < config.nodes(); ++i) {
    // A value for every bin it does not own goes out; a (partial) sum for every bin it owns comes in.
    const std::size_t owned = histogram_owned_bins(d, bins, i);
    bound = std::max(bound, node_port_bound(config, kHistogramBinBytes * (bins - owned), kHistogramBinBytes * owned));
  }
  return bound;
}

}  // namespace hcemu::model
