#pragma once
// One parameter fitted by `hcemu fit`: its estimate with unit and 95% interval, the quality of the regression it came
// from, and that quality in words where it is poor.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "cli/least_squares.hpp"

namespace hcemu::cli {

struct FitRow {
  std::string key;          // "lambda", "tau", "barrier_b", ... ("lambda+delta_msg" where they cannot be split)
  std::string unit;         // "µs", "µs/byte", "µs/dimension", "µs/hop", "µs/flop"
  std::string measured_by;  // "ping-pong", "exchange", "barrier", "permute", "compute", or the kernel
  double fitted = 0;
  std::optional<Interval> interval;  // 95%; empty when the regression has as many samples as unknowns
  bool pinned = false;               // held at 0 by the non-negative fit: unconstrained, it goes negative
  double configured = 0;
  double r_squared = 0;        // of the regression the parameter came from
  double max_residual_us = 0;  // of that regression
  std::size_t samples = 0;
};

// Coefficient j of `fit`, with its interval and the regression's quality.
FitRow fit_row(const LeastSquares& fit, std::size_t j, std::string key, std::string unit, std::string measured_by,
               double configured);

// Below this R² a regression explains too little of what it measured to be trusted.
inline constexpr double kPoorRSquared = 0.9;

// Whether the regression fits more samples than it has unknowns exactly, to the picosecond (virtual timing): no
// warning then applies.
bool fitted_exactly(const FitRow& row);
// "R² = 0.67 < 0.9: ...", or empty: the row's regression, which every row measured by it shares.
std::string regression_warning(const FitRow& row);
// The row's own warnings, in words: pinned at 0, an interval wider than the estimate, no interval at all.
std::vector<std::string> parameter_warnings(const FitRow& row);

}  // namespace hcemu::cli
