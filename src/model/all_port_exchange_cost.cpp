#include <numeric>

#include "hcemu/model/all_port_exchange.hpp"
#include "hcemu/model/transfer.hpp"
#include "model/transfer_table.hpp"

namespace hcemu::model {
namespace {

std::size_t binomial(int n, int k) {
  std::size_t c = 1;
  for (int i = 1; i <= k; ++i) c = c * static_cast<std::size_t>(n - k + i) / static_cast<std::size_t>(i);
  return c;
}

}  // namespace

std::size_t all_port_exchange_stage_bytes(int d, int k, std::size_t m) {
  if (d == 0) return 0;
  std::size_t pieces_times_d = 0;  // Σ_{j<=k} C(d, j): the messages in flight, each crossing one link per piece
  for (int j = 0; j <= k; ++j) pieces_times_d += binomial(d, j);
  return pieces_times_d * m / static_cast<std::size_t>(d);
}

bool all_port_exchange_balanced(int d, std::size_t m) {
  std::size_t l = 1;
  for (int h = 1; h <= d; ++h) l = std::lcm(l, static_cast<std::size_t>(h));
  return m % l == 0;
}

std::optional<Time> all_port_exchange_time(const MachineConfig& config, std::size_t m) {
  if (config.ports.kind != Ports::Kind::all || !all_port_exchange_balanced(config.d, m)) return std::nullopt;
  const CostTable cost = CostTable::from(config);
  Time total = 0;
  for (int k = 0; k < config.d; ++k) {
    const std::size_t link_bytes = all_port_exchange_stage_bytes(config.d, k, m);
    const std::size_t packed = link_bytes * static_cast<std::size_t>(config.d);
    total += message_time(cost, config.switching, link_bytes, 1) + 2 * cost.copy(packed);
  }
  return total;
}

}  // namespace hcemu::model
