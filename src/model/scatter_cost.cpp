#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <utility>

#include "hcemu/model/even_spread.hpp"
#include "hcemu/model/scatter.hpp"
#include "hcemu/model/spanning_trees.hpp"
#include "hcemu/model/transfer.hpp"
#include "model/shared.hpp"
#include "model/transfer_table.hpp"

namespace hcemu::model {
namespace {

// The bytes one message of class h puts on one link from a node at distance j (j < h): ℓ_j(h).
std::size_t edge_bytes(std::size_t m, int h, int j) { return spread_edge_bytes(m, h, j); }

// What a node at distance j sends on each upper link for class h: the chunks of the C(d-j-1, h-j-1) messages whose
// destinations lie beyond that link.
std::size_t up_batch(int d, std::size_t m, int h, int j) {
  return static_cast<std::size_t>(binomial(d - j - 1, h - j - 1)) * edge_bytes(m, h, j);
}

// What the root puts on each link for one wave.
std::size_t wave_bytes(int d, std::size_t m, const std::vector<int>& wave) {
  std::size_t bytes = 0;
  for (int h : wave) bytes += up_batch(d, m, h, 0);
  return bytes;
}

using Item = std::pair<std::size_t, int>;  // (wave, class)

}  // namespace

Waves distribute_1_waves(int d) {
  Waves waves;
  for (int h = d; h >= 1; --h) waves.push_back({h});
  return waves;
}

int distribute_2_wave_count(int d) {
  if (d <= 0) return 0;
  const double need = std::ldexp(1.0, d) - 1;
  double reach = 0, power = 1;  // Σ_{i<k} d·(d-1)^i: what k waves of (d-1)-fold growing packets carry
  for (int k = 1;; ++k) {
    reach += d * power;
    power *= d - 1;
    if (reach >= need) return k;
  }
}

double distribute_2_ratio(int d) {
  const int k = distribute_2_wave_count(d);
  const double need = std::ldexp(1.0, d) - 1;
  auto carried = [d, k](double r) {
    double sum = 0, power = 1;
    for (int i = 0; i < k; ++i, power *= r) sum += d * power;
    return sum;
  };
  double lo = 0, hi = std::max(1.0, static_cast<double>(d));
  for (int it = 0; it < 200; ++it) {
    const double mid = (lo + hi) / 2;
    (carried(mid) < need ? lo : hi) = mid;
  }
  return hi;
}

Waves distribute_2_waves(int d) {
  const int k = distribute_2_wave_count(d);
  if (k == 0) return {};
  if (k == 1) return {{1}};
  const double r = distribute_2_ratio(d);
  Waves outward;  // nearest first: {1}, then the waves k-1, k-2, ...
  outward.push_back({1});
  int next = 2;
  for (int i = 1; i <= k - 2; ++i) {
    std::vector<int> wave;
    double load = 0;
    const double target = std::pow(r, i);
    while (next <= d - (k - 1 - i)) {  // leave a class for each wave still to fill
      const double add = static_cast<double>(binomial(d, next)) / d;
      if (!wave.empty() && load + add > target) break;
      load += add;
      wave.push_back(next++);
    }
    outward.push_back(wave);
  }
  std::vector<int> first;
  while (next <= d) first.push_back(next++);
  outward.push_back(first);
  Waves waves(outward.rbegin(), outward.rend());
  for (auto& w : waves) std::sort(w.rbegin(), w.rend());
  return waves;
}

std::optional<LevelTimes> distribute_times(const MachineConfig& config, std::size_t m, const Waves& waves) {
  if (!all_port(config)) return std::nullopt;
  const int d = config.d;
  LevelTimes out;
  out.level.assign(static_cast<std::size_t>(d) + 1, 0);
  if (d == 0 || m == 0) return out;
  const CostTable cost = CostTable::from(config);
  auto T = [&](std::size_t bytes) { return message_time(cost, config.switching, bytes, 1); };

  // The root: pack a wave, send it on all d links; the next wave is packed while this one travels.
  std::vector<Time> wave_arrives(waves.size());
  Time clock = 0, link_free = 0;
  for (std::size_t w = 0; w < waves.size(); ++w) {
    const std::size_t bytes = wave_bytes(d, m, waves[w]);
    clock += cost.copy(static_cast<std::size_t>(d) * bytes);
    link_free = std::max(clock, link_free) + T(bytes);
    wave_arrives[w] = link_free;
  }
  out.level[0] = std::max(clock, link_free);

  // Distance j = 1..d: the items (wave, class) in the root's order; arrived[item] at distance j - 1.
  std::map<Item, Time> arrived;
  for (int j = 1; j <= d; ++j) {
    std::map<Item, Time> sent;
    clock = 0;
    link_free = 0;
    for (std::size_t w = 0; w < waves.size(); ++w) {
      for (int h : waves[w]) {
        if (h < j) continue;
        clock = std::max(clock, j == 1 ? wave_arrives[w] : arrived.at({w, h}));
        if (h == j) {
          clock += cost.copy(m);  // the node's own message, into place
          continue;
        }
        const std::size_t batch = up_batch(d, m, h, j);
        clock += cost.copy(static_cast<std::size_t>(d - j) * batch);
        link_free = std::max(clock, link_free) + T(batch);
        sent[{w, h}] = link_free;
      }
    }
    out.level[static_cast<std::size_t>(j)] = std::max(clock, link_free);
    arrived = std::move(sent);
  }
  out.makespan = *std::max_element(out.level.begin(), out.level.end());
  return out;
}

std::optional<Time> distribute_1_time(const MachineConfig& config, std::size_t m) {
  const auto t = distribute_times(config, m, distribute_1_waves(config.d));
  return t ? std::optional<Time>(t->makespan) : std::nullopt;
}

std::optional<Time> distribute_2_time(const MachineConfig& config, std::size_t m) {
  const auto t = distribute_times(config, m, distribute_2_waves(config.d));
  return t ? std::optional<Time>(t->makespan) : std::nullopt;
}

std::optional<LevelTimes> collect_times(const MachineConfig& config, std::size_t m, const Waves& waves) {
  if (!all_port(config)) return std::nullopt;
  const int d = config.d;
  LevelTimes out;
  out.level.assign(static_cast<std::size_t>(d) + 1, 0);
  if (d == 0 || m == 0) return out;
  const CostTable cost = CostTable::from(config);
  auto T = [&](std::size_t bytes) { return message_time(cost, config.switching, bytes, 1); };

  // Distance j = d..2: the items in reverse order, nearest class first; a node's own message (h = j) first of all.
  std::map<Item, Time> arrived;  // from distance j + 1
  for (int j = d; j >= 2; --j) {
    std::map<Item, Time> sent;
    Time clock = 0, link_free = 0;
    for (std::size_t w = waves.size(); w-- > 0;) {
      for (auto it = waves[w].rbegin(); it != waves[w].rend(); ++it) {
        const int h = *it;
        if (h < j) continue;
        if (h > j) clock = std::max(clock, arrived.at({w, h}));
        // Down each of the j lower links: the chunks of the C(d-j, h-j) messages from beyond this node.
        const std::size_t batch = static_cast<std::size_t>(binomial(d - j, h - j)) * edge_bytes(m, h, j - 1);
        clock += cost.copy(static_cast<std::size_t>(j) * batch);
        link_free = std::max(clock, link_free) + T(batch);
        sent[{w, h}] = link_free;
      }
    }
    out.level[static_cast<std::size_t>(j)] = std::max(clock, link_free);
    arrived = std::move(sent);
  }
  // Distance 1: one message per wave to the root, packed once everything in it has arrived.
  std::vector<Time> wave_arrives(waves.size());
  Time clock = 0, link_free = 0;
  for (std::size_t w = waves.size(); w-- > 0;) {
    for (int h : waves[w])
      if (h > 1) clock = std::max(clock, arrived.at({w, h}));
    const std::size_t bytes = wave_bytes(d, m, waves[w]);
    clock += cost.copy(bytes);
    link_free = std::max(clock, link_free) + T(bytes);
    wave_arrives[w] = link_free;
  }
  out.level[1] = std::max(clock, link_free);
  // The root: unpack each wave's messages into place.
  clock = 0;
  for (std::size_t w = waves.size(); w-- > 0;) {
    std::size_t messages = 0;
    for (int h : waves[w]) messages += static_cast<std::size_t>(binomial(d, h));
    clock = std::max(clock, wave_arrives[w]) + cost.copy(messages * m);
  }
  out.level[0] = clock;
  out.makespan = *std::max_element(out.level.begin(), out.level.end());
  return out;
}

std::optional<Time> collect_1_time(const MachineConfig& config, std::size_t m) {
  const auto t = collect_times(config, m, distribute_1_waves(config.d));
  return t ? std::optional<Time>(t->makespan) : std::nullopt;
}

std::optional<Time> collect_2_time(const MachineConfig& config, std::size_t m) {
  const auto t = collect_times(config, m, distribute_2_waves(config.d));
  return t ? std::optional<Time>(t->makespan) : std::nullopt;
}

Time sbt_scatter_time(const MachineConfig& config, std::size_t m) {
  Time total = 0;
  for (int i = 0; i < config.d; ++i) total += message_time(config, (std::size_t{1} << i) * m, 1);
  return total;
}

Time sbt_gather_time(const MachineConfig& config, std::size_t m) { return sbt_scatter_time(config, m); }

namespace {

// The scatter down a tree whose nodes sit at depth popcount (kernels' tree_scatter), node by node, step by step.
std::optional<Time> tree_scatter_time(const MachineConfig& config, std::size_t m,
                                      const std::vector<std::vector<std::uint32_t>>& children,
                                      std::uint32_t (*parent_of)(std::uint32_t, int)) {
  if (!all_port(config)) return std::nullopt;
  const int d = config.d;
  if (d == 0 || m == 0) return 0;
  const CostTable cost = CostTable::from(config);
  auto T = [&](std::size_t bytes) { return message_time(cost, config.switching, bytes, 1); };
  const std::uint32_t nodes = std::uint32_t{1} << d;

  // below[v][l]: the nodes at distance l from the root in v's subtree (v included).
  std::vector<std::vector<std::size_t>> below(nodes, std::vector<std::size_t>(static_cast<std::size_t>(d) + 1, 0));
  for (std::uint32_t v = nodes; v-- > 0;) {  // children have larger addresses than their parent
    below[v][static_cast<std::size_t>(std::popcount(v))] += 1;
    if (v != 0)
      for (int l = 0; l <= d; ++l)
        below[parent_of(v, d)][static_cast<std::size_t>(l)] += below[v][static_cast<std::size_t>(l)];
  }

  // arrives[v][t]: when v has its parent's packet of step t. Nodes in order of depth: parents first.
  std::vector<std::uint32_t> by_depth(nodes);
  for (std::uint32_t v = 0; v < nodes; ++v) by_depth[v] = v;
  std::stable_sort(by_depth.begin(), by_depth.end(),
                   [](std::uint32_t a, std::uint32_t b) { return std::popcount(a) < std::popcount(b); });
  std::vector<std::vector<Time>> arrives(nodes, std::vector<Time>(static_cast<std::size_t>(d), -1));
  Time makespan = 0;
  for (std::uint32_t u : by_depth) {
    const int depth = std::popcount(u);
    Time clock = 0;
    std::vector<Time> link_free(children[u].size(), 0);
    for (int t = depth; t < d; ++t) {
      if (t > 0 && arrives[u][static_cast<std::size_t>(t - 1)] >= 0)
        clock = std::max(clock, arrives[u][static_cast<std::size_t>(t - 1)]);
      const auto level = static_cast<std::size_t>(d - t + depth);  // the messages of step t are for this distance
      if (u == 0) {
        std::size_t step_bytes = 0;
        for (std::uint32_t c : children[u]) step_bytes += below[c][level] * m;
        clock += cost.copy(step_bytes);
      }
      for (std::size_t i = 0; i < children[u].size(); ++i) {
        const std::size_t bytes = below[children[u][i]][level] * m;
        if (bytes == 0) continue;
        link_free[i] = std::max(clock, link_free[i]) + T(bytes);
        arrives[children[u][i]][static_cast<std::size_t>(t)] = link_free[i];
      }
    }
    if (u != 0) clock = std::max(clock, arrives[u][static_cast<std::size_t>(d - 1)]);  // its own message
    for (Time f : link_free) clock = std::max(clock, f);
    makespan = std::max(makespan, clock);
  }
  return makespan;
}

}  // namespace

std::optional<Time> sbnt_scatter_time(const MachineConfig& config, std::size_t m) {
  return tree_scatter_time(config, m, sbnt_children(config.d), sbnt_parent);
}

std::optional<Time> pipelined_sbt_scatter_time(const MachineConfig& config, std::size_t m) {
  return tree_scatter_time(config, m, sbt_children(config.d), sbt_parent);
}

}  // namespace hcemu::model
