#include "hcemu/model/paper_tables.hpp"

#include <algorithm>
#include <cmath>

#include "hcemu/model/even_spread.hpp"

namespace hcemu::model {
namespace {

double start_up_us(const MachineConfig& config) {
  return config.lambda + (config.switching == Switching::circuit ? config.delta_msg + config.delta_hop : 0.0);
}

// ⌈x/B_m⌉ start-ups for a message of x elements; without a packet limit one for any message with data.
double start_ups(const MachineConfig& config, double elements) {
  if (elements <= 0) return 0;
  return config.packet == 0 ? 1.0 : std::ceil(elements / static_cast<double>(config.packet));
}

// C(n, k) as a double, for the tables' arithmetic in elements (n <= 16: exact).
double binomial_count(int n, int k) { return static_cast<double>(binomial(n, k)); }

Time table_time(const MachineConfig& config, double elements, double starts) {
  return from_us(elements * config.tau + starts * start_up_us(config));
}

}  // namespace

std::optional<Time> sbnt_balanced_table_time(const MachineConfig& config, std::size_t m) {
  if (config.ports.kind != Ports::Kind::all) return std::nullopt;
  const int n = config.d;
  if (n == 0) return 0;
  const auto M = static_cast<double>(m);
  double starts = 0;
  for (int i = 1; i <= n; ++i) starts += start_ups(config, binomial_count(n, i) * M / n);
  return table_time(config, (std::ldexp(1.0, n) - 1) * M / n, starts);
}

std::optional<Time> sbnt_exchange_table_time(const MachineConfig& config, std::size_t m) {
  if (config.ports.kind != Ports::Kind::all) return std::nullopt;
  const int n = config.d;
  if (n == 0) return 0;
  const auto M = static_cast<double>(m);
  double starts = 0;
  for (int i = 1; i <= n; ++i) {
    double blocks = 0;
    for (int j = i; j <= n; ++j) blocks += binomial_count(n, j);
    starts += start_ups(config, blocks * M / n);
  }
  return table_time(config, std::ldexp(1.0, n) * M / 2, starts);
}

std::optional<Time> one_port_tree_allgather_table_time(const MachineConfig& config, std::size_t m) {
  if (config.ports.kind != Ports::Kind::one) return std::nullopt;
  const int n = config.d;
  if (n == 0) return 0;
  const double elements = (std::ldexp(1.0, n) - 1) * static_cast<double>(m);
  return table_time(config, elements, std::max(2.0 * n - 1, start_ups(config, elements)));
}

}  // namespace hcemu::model
