#include <algorithm>
#include <bit>
#include <cstdint>
#include <numeric>
#include <vector>

#include "hcemu/model/all_port_exchange.hpp"
#include "hcemu/model/even_spread.hpp"
#include "hcemu/model/transfer.hpp"
#include "model/transfer_table.hpp"

namespace hcemu::model {
std::size_t all_port_exchange_stage_bytes(int d, int k, std::size_t m) {
  if (d == 0) return 0;
  std::size_t pieces_times_d = 0;  // Σ_{j<=k} C(d, j): the messages in flight, each crossing one link per piece
  for (int j = 0; j <= k; ++j) pieces_times_d += static_cast<std::size_t>(binomial(d, j));
  return pieces_times_d * m / static_cast<std::size_t>(d);
}

bool all_port_exchange_balanced(int d, std::size_t m) {
  return m % lcm_up_to(d) == 0;
}

std::vector<std::size_t> all_port_exchange_link_bytes(int d, int k, std::size_t m) {
  std::vector<std::size_t> bytes(static_cast<std::size_t>(d), 0);
  for (std::uint32_t r = 1; r < (std::uint32_t{1} << d); ++r) {
    const int h = std::popcount(r);
    const int step = k - (d - h);
    if (step < 0) continue;  // not started yet
    // Piece i (⌈m/h⌉ bytes for the first m mod h pieces, ⌊m/h⌋ after) crosses the ((i + step) mod h)-th set bit of r.
    std::vector<int> bits;
    for (int b = 0; b < d; ++b)
      if (r >> b & 1u) bits.push_back(b);
    const auto uh = static_cast<std::size_t>(h);
    for (std::size_t i = 0; i < uh; ++i)
      bytes[static_cast<std::size_t>(bits[(i + static_cast<std::size_t>(step)) % uh])] += m / uh + (i < m % uh ? 1 : 0);
  }
  return bytes;
}

std::optional<Time> all_port_exchange_time(const MachineConfig& config, std::size_t m) {
  if (config.ports.kind != Ports::Kind::all) return std::nullopt;
  const CostTable cost = CostTable::from(config);
  Time total = 0;
  for (int k = 0; k < config.d; ++k) {
    // Every node's links carry the same loads, dimension by dimension, each way: a stage ends with its fullest link.
    const std::vector<std::size_t> links = all_port_exchange_link_bytes(config.d, k, m);
    const std::size_t fullest = *std::max_element(links.begin(), links.end());
    const std::size_t packed = std::accumulate(links.begin(), links.end(), std::size_t{0});
    total += message_time(cost, config.switching, fullest, 1) + 2 * cost.copy(packed);
  }
  return total;
}

}  // namespace hcemu::model
