#pragma once
// Ordinary least squares for the small dense systems of `hcemu fit`: Householder QR on equilibrated columns, which
// recovers exact data to about 1e-13 relative where normal equations would lose half the digits.
#include <cstddef>
#include <vector>

namespace hcemu::cli {

struct LeastSquares {
  std::vector<double> coefficients;
  double r_squared = 0;        // 1 - SS_res / SS_tot (1 when the data are fitted exactly)
  double max_residual = 0;     // largest |y - fitted y|
  std::size_t max_residual_row = 0;
};

// rows[i] are the regressors of observation i; y[i] its value. Throws std::invalid_argument when there are fewer
// observations than unknowns or the columns are linearly dependent (the parameters cannot be told apart).
LeastSquares least_squares(const std::vector<std::vector<double>>& rows, const std::vector<double>& y);

}  // namespace hcemu::cli
