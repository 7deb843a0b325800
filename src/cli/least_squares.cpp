#include "cli/least_squares.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace hcemu::cli {

LeastSquares least_squares(const std::vector<std::vector<double>>& rows, const std::vector<double>& y) {
  const std::size_t n = rows.size();
  const std::size_t p = n ? rows.front().size() : 0;
  if (n != y.size()) throw std::invalid_argument("least squares: as many observations as values are needed");
  if (p == 0 || n < p) throw std::invalid_argument("least squares: fewer observations than unknowns");

  // Column-major copy, each column scaled to unit norm so that µs and bytes columns weigh alike.
  std::vector<std::vector<double>> a(p, std::vector<double>(n));
  std::vector<double> scale(p, 0);
  for (std::size_t j = 0; j < p; ++j) {
    for (std::size_t i = 0; i < n; ++i) {
      if (rows[i].size() != p) throw std::invalid_argument("least squares: rows of different lengths");
      a[j][i] = rows[i][j];
      scale[j] += rows[i][j] * rows[i][j];
    }
    scale[j] = std::sqrt(scale[j]);
    if (scale[j] == 0) throw std::invalid_argument("least squares: a column is all zero");
    for (auto& v : a[j]) v /= scale[j];
  }
  std::vector<double> b = y;

  // Householder QR: column k is reflected onto e_k, and the same reflection applied to the later columns and b.
  std::vector<double> diagonal(p);
  for (std::size_t k = 0; k < p; ++k) {
    double norm = 0;
    for (std::size_t i = k; i < n; ++i) norm += a[k][i] * a[k][i];
    norm = std::sqrt(norm);
    // Relative to the unit column norm: a smaller remainder means the column is a combination of earlier ones.
    if (norm < 1e-10) throw std::invalid_argument("least squares: the columns are linearly dependent");
    double alpha = a[k][k] > 0 ? -norm : norm;
    std::vector<double> v(a[k].begin() + static_cast<std::ptrdiff_t>(k), a[k].end());
    v[0] -= alpha;
    double vv = 0;
    for (double x : v) vv += x * x;
    const auto reflect = [&](std::vector<double>& column) {
      double dot = 0;
      for (std::size_t i = k; i < n; ++i) dot += v[i - k] * column[i];
      double factor = 2 * dot / vv;
      for (std::size_t i = k; i < n; ++i) column[i] -= factor * v[i - k];
    };
    for (std::size_t j = k + 1; j < p; ++j) reflect(a[j]);
    reflect(b);
    diagonal[k] = alpha;
  }
  // Back substitution on R x = Q^T b.
  std::vector<double> x(p);
  for (std::size_t k = p; k-- > 0;) {
    double sum = b[k];
    for (std::size_t j = k + 1; j < p; ++j) sum -= a[j][k] * x[j];
    x[k] = sum / diagonal[k];
  }
  LeastSquares fit;
  fit.coefficients.resize(p);
  for (std::size_t j = 0; j < p; ++j) fit.coefficients[j] = x[j] / scale[j];

  double mean = 0;
  for (double v : y) mean += v;
  mean /= static_cast<double>(n);
  double ss_res = 0, ss_tot = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double predicted = 0;
    for (std::size_t j = 0; j < p; ++j) predicted += rows[i][j] * fit.coefficients[j];
    double residual = y[i] - predicted;
    ss_res += residual * residual;
    ss_tot += (y[i] - mean) * (y[i] - mean);
    if (std::abs(residual) > fit.max_residual) fit.max_residual = std::abs(residual), fit.max_residual_row = i;
  }
  // Data that do not vary (one regressor, one value) have no variance to explain: they are explained fully when the
  // residuals are at the level of rounding.
  double ss_y = 0;
  for (double v : y) ss_y += v * v;
  const double rounding = 1e-20 * ss_y;
  if (ss_tot > rounding) fit.r_squared = 1 - ss_res / ss_tot;
  else fit.r_squared = ss_res <= rounding ? 1.0 : 0.0;
  return fit;
}

}  // namespace hcemu::cli
