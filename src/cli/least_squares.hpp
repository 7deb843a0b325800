#pragma once
// Least squares for the small dense systems of `hcemu fit`: Householder QR on equilibrated columns, which recovers
// exact data to about 1e-13 relative where normal equations would lose half the digits; the non-negative variant
// (Lawson & Hanson 1974, ch. 23), since no cost of the model is negative; and each coefficient's standard error and
// 95% confidence interval.
#include <cstddef>
#include <optional>
#include <vector>

namespace hcemu::cli {

struct Interval {
  double low = 0, high = 0;
};

struct LeastSquares {
  std::vector<double> coefficients;
  // sqrt(s²·[(XᵀX)⁻¹]_jj) with s² = SS_res / (n - p): the unconstrained fit's covariance, with the residuals of the
  // fit returned. Empty when n == p (no residual degrees of freedom).
  std::vector<double> standard_errors;
  // Non-negative fits: the coefficients held at 0 where the unconstrained fit goes below 0 (by more than rounding).
  std::vector<bool> pinned;
  bool non_negative = false;
  std::size_t degrees_of_freedom = 0;  // n - p
  double r_squared = 0;                // 1 - SS_res / SS_tot (1 when the data are fitted exactly)
  double max_residual = 0;             // largest |y - fitted y|
  std::size_t max_residual_row = 0;

  // The 95% confidence interval of coefficient j: coefficient ± t(0.975, n - p)·standard error, its lower end at
  // least 0 in a non-negative fit. Empty when n == p.
  std::optional<Interval> interval(std::size_t j) const;
};

// rows[i] are the regressors of observation i; y[i] its value. Throws std::invalid_argument when there are fewer
// observations than unknowns or the columns are linearly dependent (the parameters cannot be told apart).
LeastSquares least_squares(const std::vector<std::vector<double>>& rows, const std::vector<double>& y);

// The same, every coefficient >= 0: Lawson & Hanson's active-set algorithm (1974, ch. 23, NNLS). Where the
// unconstrained solution is already non-negative it is returned as it is.
LeastSquares non_negative_least_squares(const std::vector<std::vector<double>>& rows, const std::vector<double>& y);

// The 0.975 quantile of Student's t with `dof` >= 1 degrees of freedom (the half-width of a two-sided 95% interval in
// standard errors): tabulated to 6 decimals for 1..30, 40, 60 and 120, and between and beyond them interpolated in
// 1/dof (within 1e-4).
double student_t_975(std::size_t dof);

}  // namespace hcemu::cli
