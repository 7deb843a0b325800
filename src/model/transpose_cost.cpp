#include <algorithm>
#include <cmath>

#include "hcemu/model/transfer.hpp"
#include "hcemu/model/transpose.hpp"
#include "model/transfer_table.hpp"

namespace hcemu::model {

std::size_t row_transpose_block_bytes(int d, std::size_t n, std::size_t element_bytes) {
  const std::size_t rows = n >> d;
  return rows * rows * element_bytes;
}

Time row_transpose_time(const MachineConfig& config, std::size_t n, std::size_t element_bytes, Time exchange) {
  const CostTable cost = CostTable::from(config);
  const std::size_t local = n * (n >> config.d) * element_bytes;  // 2^d·m: the node's whole share
  return exchange + 2 * cost.copy(local);
}

std::size_t grid_block_bytes(int d, std::size_t n, std::size_t element_bytes) {
  const std::size_t side = n >> (d / 2);
  return side * side * element_bytes;
}

std::optional<Time> johnsson_ho_transpose_time(const MachineConfig& config, std::size_t n,
                                               std::size_t element_bytes) {
  if (config.d % 2 != 0) return std::nullopt;
  const CostTable cost = CostTable::from(config);
  const std::size_t block = grid_block_bytes(config.d, n, element_bytes);
  Time steps = 0;
  if (config.d > 0) steps = config.d * message_time(cost, config.switching, block, 1);
  return steps + cost.copy(block);
}

std::optional<Time> stout_wagar_transpose_time(const MachineConfig& config, std::size_t n, std::size_t element_bytes,
                                               int packets) {
  if (config.d % 2 != 0) return std::nullopt;
  const CostTable cost = CostTable::from(config);
  const std::size_t block = grid_block_bytes(config.d, n, element_bytes);
  if (config.d == 0) return cost.copy(block);
  if (config.ports.kind != Ports::Kind::all || block % 2 != 0 || packets < config.d) return std::nullopt;

  const auto c = static_cast<std::size_t>(config.d / 2);
  const auto P = static_cast<std::size_t>(packets);
  const std::size_t half = block / 2, small = half / P, large = small + (half % P == 0 ? 0 : 1);
  const std::size_t large_count = half % P;
  // Packet t forwards bytes that came in packets up to t - 2 when two packets fit in the smallest piece (the
  // paper's p >= 2, §7.2), and a forwarded packet never waits for its link when packets do not shrink.
  if (half > 0 && (half < c || 2 * large > half / c)) return std::nullopt;
  const Time t_small = message_time(cost, config.switching, small, 1);
  const Time t_large = message_time(cost, config.switching, large, 1);
  if (t_small > t_large) return std::nullopt;
  const Time stream = static_cast<Time>(P - large_count) * t_small + static_cast<Time>(large_count) * t_large;
  return 2 * cost.copy(block) + stream + t_large;
}

int stout_wagar_packets(const MachineConfig& config, std::size_t n, std::size_t element_bytes) {
  if (config.d <= 0) return 0;
  constexpr int kMost = 64;
  const int least = std::max(config.d, 2);
  std::optional<Time> best_time;
  int best = 0;
  for (int p = least; p <= std::max(least, kMost); ++p) {
    const std::optional<Time> t = stout_wagar_transpose_time(config, n, element_bytes, p);
    if (t && (!best_time || *t < *best_time)) best_time = t, best = p;
  }
  if (best_time) return best;
  // Stout & Wagar §7.2: p = (1/k)·sqrt(τm/(2β)), i.e. kp = sqrt(τm/(2β)).
  const CostTable cost = CostTable::from(config);
  const double m = static_cast<double>(grid_block_bytes(config.d, n, element_bytes));
  const double tau = static_cast<double>(cost.tau), beta = static_cast<double>(cost.lambda);
  const double kp = beta > 0 ? std::sqrt(tau * m / (2.0 * beta)) : static_cast<double>(kMost);
  return std::clamp(static_cast<int>(std::lround(kp)), least, std::max(least, kMost));
}

}  // namespace hcemu::model
