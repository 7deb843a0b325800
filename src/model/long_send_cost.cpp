#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "hcemu/model/collectives.hpp"
#include "hcemu/model/even_spread.hpp"
#include "hcemu/model/long_send.hpp"
#include "hcemu/model/transfer.hpp"
#include "model/shared.hpp"
#include "model/transfer_table.hpp"

namespace hcemu::model {
namespace {

// T(L): one L-byte message to a neighbour on free resources.
Time hop(const CostTable& cost, const MachineConfig& config, std::size_t bytes) {
  return message_time(cost, config.switching, bytes, 1);
}

// The group count g >= 1 of least time(g), where g enters the time only through the unit ⌈units/g⌉ and, for a
// fixed unit, the time grows with g (each more group is one more packet time at the source): so the best g is the
// least g of one of the O(sqrt(units)) distinct units, and past g = units (a unit of one) more groups only cost.
// Ties go to the fewer groups. This counts hcemu's padding, which the paper's continuous optimum does not.
template <class TimeOfGroups>
int best_groups(std::size_t units, TimeOfGroups time_of) {
  const std::size_t most = std::clamp<std::size_t>(units, 1, static_cast<std::size_t>(std::numeric_limits<int>::max()));
  int best = 1;
  Time best_time = time_of(1);
  for (std::size_t g = 2; g <= most;) {
    const Time t = time_of(static_cast<int>(g));
    if (t < best_time) {
      best = static_cast<int>(g);
      best_time = t;
    }
    const std::size_t unit = (units + g - 1) / g;
    if (unit <= 1) break;
    g = (units + unit - 2) / (unit - 1);  // the least g whose unit is below this one: ⌈units/(unit - 1)⌉
  }
  return best;
}

// The part of O.C. SEND 4 / X.O.C. SEND 2 spent inside the n-cube by one group of units of u bytes:
// Σ_k T(ℓ_k), and ℓ_0, the longest stage.
Time spread_stages(const CostTable& cost, const MachineConfig& config, int n, std::size_t u) {
  Time total = 0;
  for (int k = 0; k < n; ++k) total += hop(cost, config, spread_edge_units(n, k) * u);
  return total;
}

std::size_t part(std::size_t m, std::size_t parts, std::size_t i) { return m / parts + (i < m % parts ? 1 : 0); }

// O.C. SEND 4 and X.O.C. SEND 2 without the destination's final copy; 0 for an empty message.
Time oc_send_4_flight(const CostTable& cost, const MachineConfig& config, std::size_t m, int n, int groups) {
  if (m == 0 || n == 0) return 0;
  const int g = std::max(groups, 1);
  const std::size_t u = oc_send_unit_bytes(m, n, g);
  return (g - 1) * hop(cost, config, spread_edge_units(n, 0) * u) + spread_stages(cost, config, n, u);
}

Time xoc_send_flight(const CostTable& cost, const MachineConfig& config, std::size_t m, int n, int groups) {
  if (m == 0) return 0;
  const int g = std::max(groups, 1);
  const std::size_t u = oc_send_unit_bytes(m, n, g);
  return (g + 1) * hop(cost, config, spread_units(n) * u) + spread_stages(cost, config, n, u);
}

}  // namespace

int pair_distance(int src, int dst) { return std::popcount(static_cast<unsigned>(src ^ dst)); }

Time direct_send_time(const MachineConfig& config, std::size_t m, int n) {
  return n == 0 ? 0 : message_time(config, m, n);
}

Time oc_send_1_time(const MachineConfig& config, std::size_t m, int n) { return n * message_time(config, m, 1); }

std::optional<Time> oc_send_2_time(const MachineConfig& config, std::size_t m, int n) {
  if (!all_port(config)) return std::nullopt;
  if (n == 0 || m == 0) return 0;  // empty packets are not sent
  const auto parts = static_cast<std::size_t>(n);
  // The first packet is the longest (⌈m/n⌉ bytes) and crosses n links one after the other; the paths share no link.
  return n * message_time(config, part(m, parts, 0), 1);
}

std::size_t oc_send_unit_bytes(std::size_t m, int n, int groups) {
  const std::size_t per_group = spread_units(n) * static_cast<std::size_t>(std::max(groups, 1));
  return (m + per_group - 1) / per_group;
}

std::optional<Time> oc_send_4_time(const MachineConfig& config, std::size_t m, int n, int groups) {
  if (!all_port(config)) return std::nullopt;
  if (m == 0 || n == 0) return 0;
  const CostTable cost = CostTable::from(config);
  return oc_send_4_flight(cost, config, m, n, groups) + cost.copy(m);
}

std::optional<Time> oc_send_3_time(const MachineConfig& config, std::size_t m, int n) {
  return oc_send_4_time(config, m, n, 1);
}

int optimal_oc_send_groups(const MachineConfig& config, std::size_t m, int n) {
  if (n <= 1 || m == 0) return 1;
  const CostTable cost = CostTable::from(config);
  return best_groups(spread_unit_bytes(m, n),
                     [&](int g) { return oc_send_4_flight(cost, config, m, n, g); });
}

std::optional<Time> xoc_send_time(const MachineConfig& config, std::size_t m, int n, int groups) {
  if (!all_port(config) || n < 1 || n >= config.d) return std::nullopt;
  if (m == 0) return 0;
  const CostTable cost = CostTable::from(config);
  return xoc_send_flight(cost, config, m, n, groups) + cost.copy(m);
}

int optimal_xoc_send_groups(const MachineConfig& config, std::size_t m, int n) {
  if (n < 1 || m == 0) return 1;
  const CostTable cost = CostTable::from(config);
  return best_groups(spread_unit_bytes(m, n),
                     [&](int g) { return xoc_send_flight(cost, config, m, n, g); });
}

int arbitrary_send_2_stages(int d, int n, int groups) {
  if (n == 0) return 0;
  const int g = std::max(groups, 1);
  return n <= d - 2 ? n + g + 1 : d + g - 1;
}

std::optional<Time> arbitrary_send_2_time(const MachineConfig& config, std::size_t m, int n, int groups) {
  if (!all_port(config)) return std::nullopt;
  if (n == 0) return 0;
  const std::size_t s = pipelined_broadcast_packet_bytes(config.d, m, std::max(groups, 1));
  return arbitrary_send_2_stages(config.d, n, groups) * message_time(config, s, 1);
}

int optimal_arbitrary_send_2_groups(const MachineConfig& config, std::size_t m, int n) {
  const int d = config.d;
  if (d <= 1 || n == 0 || m == 0) return 1;
  // BROADCAST 4's packet ⌈m/(dg)⌉ is the unit here; the stages grow with g.
  const auto ud = static_cast<std::size_t>(d);
  return best_groups((m + ud - 1) / ud, [&](int g) {
    return arbitrary_send_2_stages(d, n, g) * message_time(config, pipelined_broadcast_packet_bytes(d, m, g), 1);
  });
}

std::size_t arbitrary_send_3_oc_bytes(int d, std::size_t m, int n) {
  std::size_t bytes = 0;
  for (int i = 0; i < n; ++i) bytes += part(m, static_cast<std::size_t>(d), static_cast<std::size_t>(i));
  return bytes;
}

std::size_t arbitrary_send_3_xoc_bytes(int d, std::size_t m, int n) {
  return n >= d ? 0 : part(m, static_cast<std::size_t>(d), static_cast<std::size_t>(n));
}

std::optional<Time> arbitrary_send_3_time(const MachineConfig& config, std::size_t m, int n, int groups,
                                          int xoc_groups) {
  if (!all_port(config)) return std::nullopt;
  const int d = config.d;
  if (n == 0 || m == 0) return 0;
  const CostTable cost = CostTable::from(config);
  Time slowest = oc_send_4_flight(cost, config, arbitrary_send_3_oc_bytes(d, m, n), n, groups);
  for (int i = n; i < d; ++i) {
    const std::size_t bytes = part(m, static_cast<std::size_t>(d), static_cast<std::size_t>(i));
    slowest = std::max(slowest, xoc_send_flight(cost, config, bytes, n, xoc_groups));
  }
  return slowest + cost.copy(m);
}

}  // namespace hcemu::model
