#include "cli/sweep_points.hpp"

#include <map>
#include <variant>

namespace hcemu::cli {

std::string curve_label(const harness::KernelFamily& family, const CaseOutcome& outcome) {
  harness::KernelCase c = outcome.result ? outcome.result->run_case : outcome.requested;
  std::vector<std::string> chosen;
  for (const auto& [name, value] : c.params.values())
    if ((std::holds_alternative<std::uint64_t>(value) || name != "partition") && !outcome.requested.params.has(name))
      chosen.push_back(name);
  for (const auto& name : chosen) c.params.erase(name);
  return case_label(family, c);
}

std::vector<bool> optimal_points(const std::vector<SweepPoint>& points) {
  std::map<std::size_t, std::vector<std::size_t>> at_m;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& result = points[i].outcome.result;
    if (points[i].emulated || (result && result->predicted)) at_m[points[i].m].push_back(i);
  }
  std::vector<bool> optimal(points.size(), false);
  for (const auto& [m, indices] : at_m) {
    std::vector<const CaseOutcome*> outcomes;
    for (std::size_t i : indices) outcomes.push_back(&points[i].outcome);
    if (const int best = optimal_index(outcomes); best >= 0) optimal[indices[static_cast<std::size_t>(best)]] = true;
  }
  return optimal;
}

}  // namespace hcemu::cli
