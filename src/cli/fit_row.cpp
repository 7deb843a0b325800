#include "cli/fit_row.hpp"

#include <cmath>
#include <utility>

#include "cli/text_table.hpp"

namespace hcemu::cli {

namespace {
// A picosecond in µs: model times are whole picoseconds, so residuals and widths below it are rounding.
constexpr double kPicosecondUs = 1e-6;
}  // namespace

FitRow fit_row(const LeastSquares& fit, std::size_t j, std::string key, std::string unit, std::string measured_by,
               double configured) {
  FitRow row;
  row.key = std::move(key);
  row.unit = std::move(unit);
  row.measured_by = std::move(measured_by);
  row.fitted = fit.coefficients[j];
  row.interval = fit.interval(j);
  row.pinned = !fit.pinned.empty() && fit.pinned[j];
  row.configured = configured;
  row.r_squared = fit.r_squared;
  row.max_residual_us = fit.max_residual;
  row.samples = fit.degrees_of_freedom + fit.coefficients.size();
  return row;
}

bool fitted_exactly(const FitRow& row) {
  // As many samples as unknowns are always fitted exactly, which says nothing.
  return row.interval && row.max_residual_us < kPicosecondUs;
}

std::string regression_warning(const FitRow& row) {
  if (fitted_exactly(row) || row.r_squared >= kPoorRSquared) return "";
  return "the " + row.measured_by + " regression has R² = " + fixed(row.r_squared, 3) + " < " +
         fixed(kPoorRSquared, 1) + ": the model's line explains little of what it measured";
}

std::vector<std::string> parameter_warnings(const FitRow& row) {
  std::vector<std::string> warnings;
  if (fitted_exactly(row)) return warnings;
  if (row.pinned)
    warnings.push_back("held at 0 by the non-negative fit (least squares without the bound makes it negative): the "
                       "measurements show no such cost");
  if (!row.interval) {
    warnings.push_back("no interval, and nothing checks it: the " + row.measured_by +
                       " regression has as many samples as unknowns");
  } else if (const double width = row.interval->high - row.interval->low;
             !row.pinned && width > std::abs(row.fitted) && width > kPicosecondUs) {
    warnings.push_back("its 95% interval is " + fixed(width, 6) + " " + row.unit +
                       " wide, wider than the estimate itself: the measurements hardly fix it");
  }
  return warnings;
}

}  // namespace hcemu::cli
