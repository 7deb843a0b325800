#include "hcemu/model/planner.hpp"

#include <optional>
#include <string>
#include <vector>

#include "hcemu/errors.hpp"
#include "lower_envelope.hpp"
#include "model/transfer_table.hpp"

namespace hcemu::model {

namespace {

void check_dimension(int d) {
  if (d < 0 || d > 30) throw UsageError("multiphase planner: d must be in 0..30, got " + std::to_string(d));
}

int port_factor(const MachineConfig& config) { return config.ports.kind == Ports::Kind::half ? 2 : 1; }

// The exact cost of phases and partitions as lines in m, in picoseconds. Where the hull is exact the intercept does
// not depend on m; it is taken from the exact phase time at this m, so that the line is the cost at m whatever.
class ExactLines {
 public:
  ExactLines(const MachineConfig& config, std::size_t m, Sync sync)
      : config_(config), m_(m), sync_(sync), cost_(CostTable::from(config)),
        phases_(static_cast<std::size_t>(config.d) + 1) {}

  detail::Line<Time> partition(const Partition& partition) {
    detail::Line<Time> line;
    for (int part : partition) {
      const detail::Line<Time>& phase = this->phase(part);
      line.slope += phase.slope;
      line.intercept += phase.intercept;
    }
    // Bokhari 1993 eq. 2: each phase shuffles 2^d·m bytes, except a lone Direct phase (§2.3).
    if (partition.size() > 1) line.slope += static_cast<Time>(partition.size()) * (cost_.rho << config_.d);
    return line;
  }

 private:
  // One phase: 2^a - 1 transfers of m·2^(d-a) bytes at τ per byte (2τ under half duplex, docs/model.md §4).
  const detail::Line<Time>& phase(int part) {
    std::optional<detail::Line<Time>>& cached = phases_[static_cast<std::size_t>(part)];
    if (!cached) {
      const Time slope = ((Time{1} << part) - 1) * (cost_.tau * port_factor(config_)) * (Time{1} << (config_.d - part));
      cached = detail::Line<Time>{slope, phase_exchange_time(config_, part, m_, sync_) - slope * static_cast<Time>(m_)};
    }
    return *cached;
  }

  const MachineConfig& config_;
  std::size_t m_;
  Sync sync_;
  CostTable cost_;
  std::vector<std::optional<detail::Line<Time>>> phases_;
};

}  // namespace

std::string hull_inexact_reason(const MachineConfig& config, std::size_t m) {
  const CostTable cost = CostTable::from(config);
  if (config.switching != Switching::circuit) {
    return "store-and-forward: a step pays λ + τL on each of its popcount(j) hops, so its cost depends on the "
           "distance, which Bokhari's model does not allow";
  }
  if (cost.delta_hop != 0) {
    return "delta_hop > 0: a step's set-up costs δ·popcount(j), not an average δ per message, and Bokhari's and "
           "Nicol & Bokhari's theorems are not proved for it";
  }
  if (config.d >= 1 && cost.short_limit != 0 && m != 0 && m <= cost.short_limit) {
    return "short-message protocol: a block of 1..short_limit bytes starts up in λs and moves at τs (docs/model.md "
           "§13), so a phase's cost changes its line where its effective block crosses short_limit";
  }
  if (config.d >= 1 && cost.packet != 0 && (m << (config.d - 1)) > cost.packet) {
    return "packet splitting: an effective block of up to m·2^(d-1) bytes exceeds the packet size, and each packet "
           "pays its own start-up, so a phase's cost is not a line in m";
  }
  return {};
}

ExchangeParams bokhari_params(const MachineConfig& config, Sync sync) {
  const double factor = port_factor(config);
  ExchangeParams params;
  params.d = config.d;
  params.lambda = factor * config.lambda;
  params.delta = factor * config.delta_msg;
  if (sync == Sync::pairwise) {  // Nicol & Bokhari 1994 §4: the zero-byte exchange adds λ0 + δ' to each step
    params.lambda += factor * config.lambda0.value_or(config.lambda);
    params.delta += factor * config.delta_msg;
  }
  params.tau = factor * config.tau;
  params.rho = config.rho;
  params.barrier = sync == Sync::none ? 0 : config.barrier_a + config.barrier_b * config.d;
  params.direct_shuffle = false;
  return params;
}

Plan optimal_partition_by_enumeration(const MachineConfig& config, std::size_t m, Sync sync) {
  check_dimension(config.d);
  // A phase's cost depends only on its size (Nicol & Bokhari 1994 §2.4, the separability their analysis uses), so
  // each size is costed once and every partition is a sum.
  std::vector<Time> phase(static_cast<std::size_t>(config.d) + 1, 0);
  for (int part = 1; part <= config.d; ++part) {
    phase[static_cast<std::size_t>(part)] = phase_exchange_time(config, part, m, sync);
  }
  const Time shuffle = shuffle_time(config, m);
  Plan best;
  bool found = false;
  for (const Partition& partition : partitions(config.d)) {
    Time time = partition.size() > 1 ? static_cast<Time>(partition.size()) * shuffle : 0;
    for (int part : partition) time += phase[static_cast<std::size_t>(part)];
    if (!found || time < best.predicted || (time == best.predicted && preferred(partition, best.partition))) {
      best.partition = partition;
      best.predicted = time;
      found = true;
    }
  }
  best.rule = kRuleEnumeration;
  return best;
}

Plan optimal_partition(const MachineConfig& config, std::size_t m, Sync sync) {
  check_dimension(config.d);
  const std::string reason =
      config.d == 0 ? "d = 0: the only partition is the empty one" : hull_inexact_reason(config, m);
  if (!reason.empty()) {
    Plan plan = optimal_partition_by_enumeration(config, m, sync);
    plan.reason = reason;
    return plan;
  }
  // Bokhari 1993 §3.5: the Θ(√d) candidate equipartitions, fewest phases first (the order of preference in ties).
  ExactLines exact(config, m, sync);
  std::vector<Partition> candidates;
  std::vector<detail::Line<Time>> lines;
  for (int n : hull_candidates(config.d)) {
    candidates.push_back(equipartition(config.d, n));
    lines.push_back(exact.partition(candidates.back()));
  }
  const std::vector<std::size_t> faces = detail::lower_envelope(lines);
  std::vector<detail::Line<Time>> face_lines;
  face_lines.reserve(faces.size());
  for (std::size_t face : faces) face_lines.push_back(lines[face]);
  const Partition& partition = candidates[faces[detail::face_index_at(face_lines, static_cast<Time>(m))]];
  return {partition, multiphase_exchange_time(config, partition, m, sync), std::string(kRuleHull), {}};
}

}  // namespace hcemu::model
