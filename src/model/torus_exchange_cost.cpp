#include "hcemu/model/torus_exchange_cost.hpp"

#include <algorithm>
#include <string>

#include "hcemu/errors.hpp"
#include "hcemu/model/transfer.hpp"
#include "lower_envelope.hpp"
#include "model/transfer_table.hpp"

namespace hcemu::model {

std::string torus_algorithm_name(int d, int x) {
  if (x == 0) return "t2";
  if (x == torus_max_x(d)) return "t1";
  return "t1." + std::to_string(x);
}

int torus_algorithm_x(int d, const std::string& name) {
  if (name == "t2") return 0;
  if (name == "t1") return torus_max_x(d);
  if (name.rfind("t1.", 0) == 0 && name.size() > 3 &&
      std::all_of(name.begin() + 3, name.end(), [](char c) { return c >= '0' && c <= '9'; }) && name.size() < 6) {
    const int x = std::stoi(name.substr(3));
    if (x >= 1 && x <= torus_max_x(d)) return x;
    // d is Suh, Shin & An's: a 2^d x 2^d torus, the command's -d 2d.
    const std::string side = std::to_string(1L << std::min(d, 30));
    throw UsageError("torus exchange: " + name + " needs a 2^d x 2^d torus with d >= " + std::to_string(x + 3) +
                     " (the command's -d " + std::to_string(2 * (x + 3)) + " or more), this one is " + side + " x " +
                     side + " (d = " + std::to_string(d) + ", -d " + std::to_string(2 * d) + ")");
  }
  throw UsageError("torus exchange: unknown algorithm '" + name + "' (t1, t2, t1.1, t1.2, ...)");
}

std::size_t torus_startups(int d, int x) { return torus_schedule(d, x).steps.size(); }

std::size_t torus_volume_blocks(int d, int x) {
  const TorusSchedule schedule = torus_schedule(d, x);
  std::size_t total = 0;
  for (std::size_t k = 0; k < schedule.steps.size(); ++k) total += torus_step_blocks(schedule, k);
  return total;
}

Time torus_exchange_time(const MachineConfig& config, int d, int x, std::size_t m, Sync sync) {
  const TorusSchedule schedule = torus_schedule(d, x);
  if (d == 0) return 0;  // one node: its own block is in place, as in the hypercube exchanges
  const CostTable cost = CostTable::from(config);
  const std::size_t nodes = std::size_t{1} << (2 * d);
  // The kernel copies its 2^(2d) blocks into its working pool and, at the end, gathers its result out of it.
  Time total = 2 * cost.copy(nodes * m);
  for (std::size_t k = 0; k < schedule.steps.size(); ++k) {
    const std::size_t bytes = torus_step_blocks(schedule, k) * m;
    const int hops = torus_step_hops(schedule, k);
    const TorusStepKind kind = schedule.steps[k].kind;
    const bool one_way = kind == TorusStepKind::concentrate || kind == TorusStepKind::scatter;
    if (sync != Sync::none) total += cost.barrier(config.d);
    if (sync == Sync::pairwise) total += pairwise_exchange_time(config, 0, hops);  // Nicol & Bokhari 1994 §4
    total += cost.copy(bytes);  // packing the message out of the pool
    total += one_way ? message_time(cost, config.switching, bytes, hops) : pairwise_exchange_time(config, bytes, hops);
  }
  return total;
}

TorusPlan torus_plan(const MachineConfig& config, int d, std::size_t m, Sync sync) {
  TorusPlan plan;
  for (int x = 0; x <= torus_max_x(d); ++x) plan.times.push_back(torus_exchange_time(config, d, x, m, sync));
  plan.x = static_cast<int>(std::min_element(plan.times.begin(), plan.times.end()) - plan.times.begin());
  plan.name = torus_algorithm_name(d, plan.x);
  plan.predicted = plan.times[static_cast<std::size_t>(plan.x)];
  return plan;
}

TorusEnvelope torus_envelope(const MachineConfig& config, int d, Sync sync, const std::vector<int>& candidates) {
  std::vector<int> members = candidates;
  if (members.empty())
    for (int x = 0; x <= torus_max_x(d); ++x) members.push_back(x);
  std::vector<detail::Line<Time>> lines;
  for (int x : members) {
    torus_schedule(d, x);  // rejects an x the torus lacks
    const Time at_one = torus_exchange_time(config, d, x, 1, sync);
    const Time at_two = torus_exchange_time(config, d, x, 2, sync);
    lines.push_back({at_two - at_one, at_one - (at_two - at_one)});
  }
  TorusEnvelope envelope;
  const std::vector<std::size_t> hull = detail::lower_envelope(lines);
  for (std::size_t i = 0; i < hull.size(); ++i) {
    envelope.faces.push_back(members[hull[i]]);
    if (i == 0) continue;
    const auto& a = lines[hull[i - 1]];
    const auto& b = lines[hull[i]];
    const double m = static_cast<double>(b.intercept - a.intercept) / static_cast<double>(a.slope - b.slope);
    envelope.crossovers.push_back({m, members[hull[i - 1]], members[hull[i]]});
  }
  return envelope;
}

}  // namespace hcemu::model
