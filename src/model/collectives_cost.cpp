#include <algorithm>
#include <cmath>

#include "hcemu/model/collectives.hpp"
#include "hcemu/model/transfer.hpp"
#include "model/group_search.hpp"
#include "model/shared.hpp"
#include "model/transfer_table.hpp"

namespace hcemu::model {
namespace {

// T(L): one L-byte message to a neighbour on free resources.
Time hop_time(const CostTable& cost, const MachineConfig& config, std::size_t bytes) {
  return message_time(cost, config.switching, bytes, 1);
}

// The longest transfer among packets of ⌈m/d⌉ and ⌊m/d⌋ bytes times `scale` (both sizes occur unless d | m).
Time longest_piece_time(const CostTable& cost, const MachineConfig& config, std::size_t m, std::size_t scale) {
  const auto d = static_cast<std::size_t>(config.d);
  Time t = hop_time(cost, config, scale * ceil_div(m, d));
  if (m % d != 0) t = std::max(t, hop_time(cost, config, scale * (m / d)));
  return t;
}

// β of Stout & Wagar: what one transfer costs besides τ per byte.
double transfer_overhead_us(const MachineConfig& config) {
  const double start = config.lambda;
  return config.switching == Switching::circuit ? start + config.delta_msg + config.delta_hop : start;
}

}  // namespace

// ----- One-to-all broadcast -----------------------------------------------------------------------------------------

Time sbt_broadcast_time(const MachineConfig& config, std::size_t m) { return config.d * message_time(config, m, 1); }

std::optional<Time> symmetrized_broadcast_time(const MachineConfig& config, std::size_t m) {
  if (!all_port(config)) return std::nullopt;
  if (config.d == 0) return 0;
  const CostTable cost = CostTable::from(config);
  return config.d * longest_piece_time(cost, config, m, 1);
}

std::optional<Time> systolic_broadcast_time(const MachineConfig& config, std::size_t m) {
  if (!all_port(config)) return std::nullopt;
  const int d = config.d;
  if (d == 0) return 0;
  const int stages = d == 1 ? 1 : d + 1;
  return stages * message_time(config, pipelined_broadcast_packet_bytes(d, m, 1), 1);
}

std::size_t pipelined_broadcast_packet_bytes(int d, std::size_t m, int groups) {
  if (d == 0) return m;
  return ceil_div(m, static_cast<std::size_t>(d) * static_cast<std::size_t>(std::max(groups, 1)));
}

std::optional<Time> pipelined_broadcast_time(const MachineConfig& config, std::size_t m, int groups) {
  if (!all_port(config)) return std::nullopt;
  if (config.d == 0) return 0;
  const int g = std::max(groups, 1);
  const std::size_t s = pipelined_broadcast_packet_bytes(config.d, m, g);
  return (config.d + g - 1) * message_time(config, s, 1);
}

int optimal_broadcast_groups(const MachineConfig& config, std::size_t m) {
  const int d = config.d;
  if (d <= 1 || m == 0) return 1;
  // The packet ⌈m/(dg)⌉ is ⌈⌈m/d⌉/g⌉: ⌈m/d⌉ units, and for one packet size more groups are only more stages.
  const CostTable cost = CostTable::from(config);
  return best_groups(ceil_div(m, static_cast<std::size_t>(d)), [&](int g) {
    return (d + g - 1) * hop_time(cost, config, pipelined_broadcast_packet_bytes(d, m, g));
  });
}

std::optional<Time> nesbt_broadcast_time(const MachineConfig& config, std::size_t m, std::size_t chunk) {
  const bool one_port = config.ports.kind == Ports::Kind::one;
  if (!all_port(config) && !one_port) return std::nullopt;
  const int d = config.d;
  if (d == 0) return 0;
  const CostTable cost = CostTable::from(config);
  const auto n = static_cast<std::size_t>(d);
  const int deepest = d == 1 ? 1 : d + 1;  // levels below the root: the sub-root, then a d-level binomial tree
  if (one_port) {
    // nESBT-b(1,1): the root sends its chunks one after the other, Σ T(chunk), and the last one goes d more links
    // down (Table 1: (M + nB) t_c + (⌈M/B⌉ + n) τ). Exact when every chunk has one size (d | m, and B | m/d unless
    // B >= m/d): then no node's single input port ever holds a chunk behind a longer one. Otherwise none; and none
    // with a port overlap (docs/model.md §14), which lets the root's chunks on different links overlap.
    if (cost.port_overlap != 0) return std::nullopt;
    const std::size_t piece = m / n;
    const std::size_t b = chunk == 0 || chunk >= piece ? piece : chunk;
    if (m % n != 0 || (b != 0 && piece % b != 0)) return std::nullopt;
    const std::size_t chunks = n * (b == 0 ? 1 : piece / b);
    return static_cast<Time>(chunks + static_cast<std::size_t>(deepest - 1)) * hop_time(cost, config, b);
  }
  Time slowest = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t piece = m / n + (k < m % n ? 1 : 0);
    if (piece == 0 && m != 0) continue;  // nothing to send down this tree
    const std::size_t b = chunk == 0 ? std::max<std::size_t>(piece, 1) : chunk;
    const std::size_t chunks = std::max<std::size_t>(ceil_div(piece, b), 1);
    Time sum = 0, longest = 0;
    for (std::size_t c = 0; c < chunks; ++c) {
      const Time t = hop_time(cost, config, std::min(b, piece - std::min(piece, c * b)));
      sum += t;
      longest = std::max(longest, t);
    }
    slowest = std::max(slowest, sum + (deepest - 1) * longest);
  }
  return slowest;
}

std::size_t optimal_nesbt_chunk(const MachineConfig& config, std::size_t m) {
  if (config.d == 0 || m == 0) return 1;
  const auto most = static_cast<double>(ceil_div(m, static_cast<std::size_t>(config.d)));
  const double beta = transfer_overhead_us(config);
  double b = config.tau > 0 ? std::sqrt(static_cast<double>(m) * beta / config.tau) / config.d : most;
  if (config.packet > 0) b = std::min(b, static_cast<double>(config.packet));
  return static_cast<std::size_t>(std::clamp(std::round(b), 1.0, most));
}

// ----- All-to-all broadcast -----------------------------------------------------------------------------------------

Time recursive_doubling_allgather_time(const MachineConfig& config, std::size_t m) {
  Time total = 0;
  for (int i = 0; i < config.d; ++i) total += pairwise_exchange_time(config, (std::size_t{1} << i) * m, 1);
  return total;
}

std::optional<Time> completed_allgather_time(const MachineConfig& config, std::size_t m) {
  if (!all_port(config)) return std::nullopt;
  if (config.d == 0) return 0;
  const CostTable cost = CostTable::from(config);
  Time total = cost.copy((std::size_t{1} << config.d) * m);
  for (int k = 0; k < config.d; ++k) total += longest_piece_time(cost, config, m, std::size_t{1} << k);
  return total;
}

// ----- Histogram ----------------------------------------------------------------------------------------------------

std::size_t histogram_block_bins(int d, std::size_t bins) { return ceil_div(bins, std::size_t{1} << d); }

std::size_t histogram_owned_bins(int d, std::size_t bins, int node) {
  const std::size_t b = histogram_block_bins(d, bins);
  const std::size_t first = static_cast<std::size_t>(node) * b;
  return first >= bins ? 0 : std::min(b, bins - first);
}

std::size_t histogram_subblock_bins(int d, std::size_t bins) {
  return d == 0 ? histogram_block_bins(d, bins) : ceil_div(histogram_block_bins(d, bins), static_cast<std::size_t>(d));
}

Time recursive_halving_histogram_time(const MachineConfig& config, std::size_t bins, std::size_t items) {
  const CostTable cost = CostTable::from(config);
  const std::size_t b = histogram_block_bins(config.d, bins);
  Time total = cost.compute(items);
  for (int k = 1; k <= config.d; ++k) {
    const std::size_t moved = b << (config.d - k);
    total += pairwise_exchange_time(config, kHistogramBinBytes * moved, 1) + cost.compute(moved);
  }
  return total;
}

std::optional<Time> symmetrized_histogram_time(const MachineConfig& config, std::size_t bins, std::size_t items) {
  if (!all_port(config)) return std::nullopt;
  const CostTable cost = CostTable::from(config);
  const std::size_t c = histogram_subblock_bins(config.d, bins);
  Time total = cost.compute(items);
  for (int s = 1; s <= config.d; ++s) {
    const std::size_t per_link = c << (config.d - s);
    total += hop_time(cost, config, kHistogramBinBytes * per_link) +
             cost.compute(per_link * static_cast<std::size_t>(config.d));
  }
  return total;
}

}  // namespace hcemu::model
