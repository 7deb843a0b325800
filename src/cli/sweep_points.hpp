#pragma once
// The points of `hcemu sweep`: one algorithm (a curve) at one m, as the table, the plot, the CSV and the JSON show
// them.
#include <cstddef>
#include <string>
#include <vector>

#include "cli/case_runner.hpp"

namespace hcemu::cli {

struct SweepPoint {
  std::size_t m;
  CaseOutcome outcome;
  bool emulated = true;  // false: only the closed form was evaluated (--predicted-only)
};

// A curve's label: the case as run, but with the algorithm's own numbers as requested, so that an optimum g, B or P
// that changes with m stays one curve (the value used at each point is in the CSV and the JSON).
std::string curve_label(const harness::KernelFamily& family, const CaseOutcome& outcome);

// Whether each point is the one the model says is fastest among the curves at its m, as run marks its rows (with
// --predicted-only, among the curves with a closed form).
std::vector<bool> optimal_points(const std::vector<SweepPoint>& points);

}  // namespace hcemu::cli
