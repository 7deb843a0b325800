#include <algorithm>
#include <cmath>

#include "hcemu/model/primitives.hpp"
#include "hcemu/model/spanning_trees.hpp"
#include "hcemu/model/transfer.hpp"
#include "model/shared.hpp"
#include "model/transfer_table.hpp"

namespace hcemu::model {
namespace {

Time hop(const MachineConfig& config, std::size_t bytes) { return message_time(config, bytes, 1); }

std::size_t busiest(const std::vector<std::size_t>& ports) {
  return ports.empty() ? 0 : *std::max_element(ports.begin(), ports.end());
}

}  // namespace

Time pipeline_time(const MachineConfig& config, std::size_t m, std::size_t chunk, int height) {
  if (height <= 0) return 0;
  const CostTable cost = CostTable::from(config);
  const std::size_t b = chunk == 0 ? m : chunk;
  const std::size_t chunks = (chunk == 0 || m == 0) ? 1 : (m + chunk - 1) / chunk;
  Time sum = 0, longest = 0;
  for (std::size_t j = 0; j < chunks; ++j) {
    const Time t = message_time(cost, config.switching, std::min(b, m - std::min(m, j * b)), 1);
    sum += t;
    longest = std::max(longest, t);
  }
  return sum + (height - 1) * longest;
}

std::optional<Time> gray_code_broadcast_time(const MachineConfig& config, std::size_t m, std::size_t chunk) {
  if (config.ports.kind == Ports::Kind::half) return std::nullopt;
  return pipeline_time(config, m, chunk, config.nodes() - 1);
}

std::optional<Time> rotated_gray_code_broadcast_time(const MachineConfig& config, std::size_t m) {
  if (!all_port(config)) return std::nullopt;
  if (config.d == 0) return 0;
  const auto n = static_cast<std::size_t>(config.d);
  return (config.nodes() - 1) * hop(config, (m + n - 1) / n);
}

std::optional<Time> pipelined_sbt_broadcast_time(const MachineConfig& config, std::size_t m, std::size_t chunk) {
  if (!all_port(config)) return std::nullopt;
  return pipeline_time(config, m, chunk, config.d);
}

std::optional<Time> sbnt_broadcast_time(const MachineConfig& config, std::size_t m, std::size_t chunk) {
  if (!all_port(config)) return std::nullopt;
  return pipeline_time(config, m, chunk, config.d);  // every SBnT path is a shortest path: n levels
}

std::optional<Time> two_rooted_tree_broadcast_time(const MachineConfig& config, std::size_t m, std::size_t chunk) {
  if (config.ports.kind == Ports::Kind::half) return std::nullopt;
  const int n = config.d;
  if (!one_port(config) || n <= 1) return pipeline_time(config, m, chunk, n);
  const CostTable cost = CostTable::from(config);
  if (cost.port_overlap != 0) return std::nullopt;
  const std::size_t b = (chunk == 0 || m == 0) ? m : std::min(chunk, m);
  const std::size_t chunks = (chunk == 0 || m == 0) ? 1 : (m + chunk - 1) / chunk;
  const Time first = hop(config, b), last = hop(config, m - (chunks - 1) * b);
  return 2 * static_cast<Time>(chunks + static_cast<std::size_t>(n) - 3) * first + 2 * last;
}

Time nrsbt_one_port_broadcast_time(const MachineConfig& config, std::size_t m) {
  const int n = config.d;
  const TreeSchedule schedule = nrsbt_one_port_schedule(n);
  const auto parts = static_cast<std::size_t>(n);
  Time total = 0;
  for (int s = 0; s < schedule.steps; ++s) {
    const std::uint32_t neighbour = std::uint32_t{1} << (s % n);
    std::size_t bytes = 0;
    for (int k = 0; k < n; ++k)
      if (schedule.step(k, neighbour) == s) bytes += m / parts + (static_cast<std::size_t>(k) < m % parts ? 1 : 0);
    total += hop(config, bytes);
  }
  return total;
}

int two_rooted_tree_chunk_height(const MachineConfig& config) { return one_port(config) ? config.d - 2 : config.d - 1; }

std::size_t optimal_pipeline_chunk(const MachineConfig& config, std::size_t m, int h) {
  if (h <= 0 || m == 0) return 0;
  const double beta =
      config.lambda + (config.switching == Switching::circuit ? config.delta_msg + config.delta_hop : 0.0);
  double b = config.tau > 0 ? std::sqrt(static_cast<double>(m) * beta / (h * config.tau)) : static_cast<double>(m);
  if (config.packet > 0) b = std::min(b, static_cast<double>(config.packet));
  return static_cast<std::size_t>(std::clamp(std::round(b), 1.0, static_cast<double>(m)));
}

Time cra_allgather_time(const MachineConfig& config, std::size_t m) { return gcea_allgather_time(config, m, config.d); }

Time gcea_allgather_time(const MachineConfig& config, std::size_t m, int dims) {
  return ((1 << dims) - 1) * pairwise_exchange_time(config, m, 1);
}

std::optional<Time> rotated_gcea_allgather_time(const MachineConfig& config, std::size_t m) {
  if (!all_port(config)) return std::nullopt;
  if (config.d == 0) return 0;
  const auto n = static_cast<std::size_t>(config.d);
  return (config.nodes() - 1) * hop(config, (m + n - 1) / n);
}

Time sbt_allgather_time(const MachineConfig& config, std::size_t m, int dims) {
  Time total = 0;
  for (int i = 0; i < dims; ++i) total += pairwise_exchange_time(config, (std::size_t{1} << i) * m, 1);
  return total;
}

std::optional<Time> sbnt_allgather_time(const MachineConfig& config, std::size_t m, int dims) {
  if (!all_port(config)) return std::nullopt;
  const CostTable cost = CostTable::from(config);
  Time total = 2 * cost.copy(((std::size_t{1} << dims) - 1) * m);
  for (const auto& step : sbnt_broadcast_loads(dims)) total += hop(config, m * busiest(step));
  return total;
}

namespace {

// Σ_s max over the ports that carry something of their message time, plus 2ρ(N - 1)m; `exchange`: one port a step,
// each a pairwise exchange.
Time tree_allgather_time(const MachineConfig& config, std::size_t m, const TreeSchedule& schedule, bool exchange) {
  const CostTable cost = CostTable::from(config);
  const auto parts = static_cast<std::size_t>(schedule.trees);
  Time total = 2 * cost.copy(((std::size_t{1} << schedule.n) - 1) * m);
  for (const auto& step : tree_schedule_loads(schedule)) {
    Time longest = 0;
    for (const auto& port : step) {
      std::size_t bytes = 0, routes = 0;
      for (std::size_t k = 0; k < parts; ++k) {
        bytes += port[k] * (m / parts + (k < m % parts ? 1 : 0));
        routes += port[k];
      }
      if (routes == 0) continue;
      longest = std::max(longest, exchange ? pairwise_exchange_time(config, bytes, 1) : hop(config, bytes));
    }
    total += longest;
  }
  return total;
}

}  // namespace

std::optional<Time> pipelined_sbt_allgather_time(const MachineConfig& config, std::size_t m) {
  if (!all_port(config)) return std::nullopt;
  return tree_allgather_time(config, m, sbt_all_port_schedule(config.d), false);
}

Time sbnt_one_port_allgather_time(const MachineConfig& config, std::size_t m) {
  return tree_allgather_time(config, m, sbnt_one_port_schedule(config.d), true);
}

Time nrsbt_one_port_allgather_time(const MachineConfig& config, std::size_t m) {
  return tree_allgather_time(config, m, nrsbt_one_port_schedule(config.d), true);
}

std::optional<Time> sbnt_exchange_time(const MachineConfig& config, std::size_t m) {
  if (!all_port(config)) return std::nullopt;
  const CostTable cost = CostTable::from(config);
  Time total = cost.copy((static_cast<std::size_t>(config.nodes()) - 1) * m);  // deliveries
  for (const auto& step : sbnt_personalized_loads(config.d)) {
    std::size_t packed = 0;
    for (std::size_t load : step) packed += load;
    total += hop(config, m * busiest(step)) + cost.copy(packed * m);
  }
  return total;
}

std::optional<Time> nrsbt_exchange_time(const MachineConfig& config, std::size_t m) {
  if (!all_port(config)) return std::nullopt;
  const int n = config.d;
  if (n == 0) return 0;
  const CostTable cost = CostTable::from(config);
  const auto half = static_cast<std::size_t>(config.nodes()) / 2;
  const auto parts = static_cast<std::size_t>(n);
  const Time step = hop(config, half * ((m + parts - 1) / parts)) + cost.copy(half * m);
  return n * step + cost.copy((static_cast<std::size_t>(config.nodes()) - 1) * m);
}

Time sbt_reduce_time(const MachineConfig& config, std::size_t elements, std::uint64_t flops_per_element) {
  const CostTable cost = CostTable::from(config);
  return config.d * (hop(config, 8 * elements) + cost.compute(flops_per_element * elements));
}

Time recursive_halving_reduce_scatter_time(const MachineConfig& config, std::size_t block, int dims,
                                           std::uint64_t flops_per_element, std::size_t element_bytes) {
  const CostTable cost = CostTable::from(config);
  Time total = 0;
  for (int k = 1; k <= dims; ++k) {
    const std::size_t moved = block << (dims - k);
    total += pairwise_exchange_time(config, element_bytes * moved, 1) + cost.compute(flops_per_element * moved);
  }
  return total;
}

std::optional<Time> sbnt_reduce_scatter_time(const MachineConfig& config, std::size_t block, int dims,
                                             std::uint64_t flops_per_element, std::size_t element_bytes) {
  if (!all_port(config)) return std::nullopt;
  const CostTable cost = CostTable::from(config);
  const auto others = (std::size_t{1} << dims) - 1;
  // One compute call per block combined: `others` of them (docs/model.md §14).
  Time total = cost.copy(element_bytes * block * others) + static_cast<Time>(others) * cost.compute(flops_per_element * block);
  for (const auto& step : sbnt_broadcast_loads(dims)) total += hop(config, element_bytes * block * busiest(step));
  return total;
}

}  // namespace hcemu::model
