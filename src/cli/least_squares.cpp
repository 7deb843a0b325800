#include "cli/least_squares.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace hcemu::cli {

namespace {

void check_shape(const std::vector<std::vector<double>>& rows, const std::vector<double>& y) {
  const std::size_t n = rows.size();
  const std::size_t p = n ? rows.front().size() : 0;
  if (n != y.size()) throw std::invalid_argument("least squares: as many observations as values are needed");
  if (p == 0 || n < p) throw std::invalid_argument("least squares: fewer observations than unknowns");
  for (const auto& row : rows)
    if (row.size() != p) throw std::invalid_argument("least squares: rows of different lengths");
}

double column_norm(const std::vector<std::vector<double>>& rows, std::size_t j) {
  double sum = 0;
  for (const auto& row : rows) sum += row[j] * row[j];
  return std::sqrt(sum);
}

struct Solution {
  std::vector<double> x;                 // one per selected column, in the columns' own units
  std::vector<double> inverse_diagonal;  // [(XᵀX)⁻¹]_jj of the selected columns, when asked for
};

// Least squares on the selected columns of `rows`.
Solution solve(const std::vector<std::vector<double>>& rows, const std::vector<double>& y,
               const std::vector<std::size_t>& selected, bool with_inverse) {
  const std::size_t n = rows.size();
  const std::size_t p = selected.size();
  // Column-major copy, each column scaled to unit norm so that µs and bytes columns weigh alike.
  std::vector<std::vector<double>> a(p, std::vector<double>(n));
  std::vector<double> scale(p, 0);
  for (std::size_t j = 0; j < p; ++j) {
    scale[j] = column_norm(rows, selected[j]);
    if (scale[j] == 0) throw std::invalid_argument("least squares: a column is all zero");
    for (std::size_t i = 0; i < n; ++i) a[j][i] = rows[i][selected[j]] / scale[j];
  }
  std::vector<double> b = y;

  // Householder QR: column k is reflected onto e_k, and the same reflection applied to the later columns and b.
  // Afterwards a[j][k] (k < j) is R(k, j) and diagonal[k] is R(k, k).
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
  const auto r = [&](std::size_t row, std::size_t column) { return row == column ? diagonal[row] : a[column][row]; };
  // Back substitution on R x = Q^T b.
  Solution solution;
  solution.x.resize(p);
  for (std::size_t k = p; k-- > 0;) {
    double sum = b[k];
    for (std::size_t j = k + 1; j < p; ++j) sum -= r(k, j) * solution.x[j];
    solution.x[k] = sum / diagonal[k];
  }
  for (std::size_t j = 0; j < p; ++j) solution.x[j] /= scale[j];
  if (!with_inverse) return solution;
  // X = A·S with A = QR and S the column scales, so (XᵀX)⁻¹ = S⁻¹R⁻¹R⁻ᵀS⁻¹: its diagonal is the squared norm of each
  // row of R⁻¹, over the squared scale. R⁻¹ is upper triangular, solved column by column from R·Z = I.
  std::vector<std::vector<double>> z(p, std::vector<double>(p, 0));  // z[row][column]
  for (std::size_t c = 0; c < p; ++c) {
    z[c][c] = 1 / diagonal[c];
    for (std::size_t i = c; i-- > 0;) {
      double sum = 0;
      for (std::size_t k = i + 1; k <= c; ++k) sum += r(i, k) * z[k][c];
      z[i][c] = -sum / diagonal[i];
    }
  }
  solution.inverse_diagonal.resize(p);
  for (std::size_t j = 0; j < p; ++j) {
    double sum = 0;
    for (std::size_t c = j; c < p; ++c) sum += z[j][c] * z[j][c];
    solution.inverse_diagonal[j] = sum / (scale[j] * scale[j]);
  }
  return solution;
}

std::vector<std::size_t> all_columns(std::size_t p) {
  std::vector<std::size_t> columns(p);
  std::iota(columns.begin(), columns.end(), 0);
  return columns;
}

// R², the largest residual, the degrees of freedom and the standard errors of the fit's coefficients.
void finish(LeastSquares& fit, const std::vector<std::vector<double>>& rows, const std::vector<double>& y,
            const std::vector<double>& inverse_diagonal) {
  const std::size_t n = rows.size();
  const std::size_t p = fit.coefficients.size();
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
  fit.degrees_of_freedom = n - p;
  if (fit.degrees_of_freedom == 0) return;
  const double variance = ss_res / static_cast<double>(fit.degrees_of_freedom);
  for (double v : inverse_diagonal) fit.standard_errors.push_back(std::sqrt(variance * v));
}

}  // namespace

std::optional<Interval> LeastSquares::interval(std::size_t j) const {
  if (standard_errors.empty()) return std::nullopt;
  const double half = student_t_975(degrees_of_freedom) * standard_errors[j];
  Interval i{coefficients[j] - half, coefficients[j] + half};
  if (non_negative) i.low = std::max(i.low, 0.0);
  return i;
}

LeastSquares least_squares(const std::vector<std::vector<double>>& rows, const std::vector<double>& y) {
  check_shape(rows, y);
  Solution solution = solve(rows, y, all_columns(rows.front().size()), true);
  LeastSquares fit;
  fit.coefficients = std::move(solution.x);
  finish(fit, rows, y, solution.inverse_diagonal);
  return fit;
}

LeastSquares non_negative_least_squares(const std::vector<std::vector<double>>& rows, const std::vector<double>& y) {
  check_shape(rows, y);
  const std::size_t n = rows.size();
  const std::size_t p = rows.front().size();
  // The unconstrained fit: it refuses dependent columns, it is the answer when it is non-negative (the problem is
  // convex), and its covariance gives the standard errors either way.
  const Solution free = solve(rows, y, all_columns(p), true);
  LeastSquares fit;
  fit.non_negative = true;
  fit.pinned.assign(p, false);
  fit.coefficients = free.x;
  if (std::any_of(free.x.begin(), free.x.end(), [](double x) { return x < 0; })) {
    std::vector<double> scale(p);
    for (std::size_t j = 0; j < p; ++j) scale[j] = column_norm(rows, j);
    double y_norm = 0;
    for (double v : y) y_norm += v * v;
    y_norm = std::sqrt(y_norm);
    // A gradient below this, on unit-norm columns, is rounding: exact data leave one of about 1e-16·|y|.
    const double tolerance = 1e-10 * y_norm;

    // Lawson & Hanson's NNLS: x feasible throughout; a column joins the passive set P (x_j free) while the residual
    // still descends along it, and the unconstrained solution on P replaces x, or, where it leaves the feasible
    // region, x moves towards it as far as it stays feasible and the columns that reach 0 leave P.
    std::vector<double> x(p, 0);
    std::vector<bool> passive(p, false);
    for (std::size_t iteration = 0; iteration < 3 * p + 3; ++iteration) {
      std::vector<double> residual = y;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < p; ++j) residual[i] -= rows[i][j] * x[j];
      std::size_t best = p;
      double steepest = tolerance;
      for (std::size_t j = 0; j < p; ++j) {
        if (passive[j]) continue;
        double gradient = 0;
        for (std::size_t i = 0; i < n; ++i) gradient += rows[i][j] * residual[i];
        gradient /= scale[j];
        if (gradient > steepest) steepest = gradient, best = j;
      }
      if (best == p) break;
      passive[best] = true;
      for (std::size_t inner = 0; inner <= p; ++inner) {
        std::vector<std::size_t> columns;
        for (std::size_t j = 0; j < p; ++j)
          if (passive[j]) columns.push_back(j);
        if (columns.empty()) break;
        const Solution on_passive = solve(rows, y, columns, false);
        std::vector<double> target(p, 0);
        for (std::size_t k = 0; k < columns.size(); ++k) target[columns[k]] = on_passive.x[k];
        // How far towards the target x stays feasible, and the column that reaches 0 first.
        double step = 1;
        std::size_t blocking = p;
        for (std::size_t j : columns) {
          if (target[j] > 0) continue;
          const double reach = x[j] <= 0 ? 0 : x[j] / (x[j] - target[j]);
          if (reach < step) step = reach, blocking = j;
        }
        if (blocking == p) {
          x = target;
          break;
        }
        for (std::size_t j : columns) x[j] += step * (target[j] - x[j]);
        x[blocking] = 0;
        for (std::size_t j : columns)
          if (x[j] <= 0) x[j] = 0, passive[j] = false;
      }
    }
    fit.coefficients = x;
    for (std::size_t j = 0; j < p; ++j)
      fit.pinned[j] = x[j] == 0 && free.x[j] * scale[j] < -1e-9 * y_norm;
  }
  finish(fit, rows, y, free.inverse_diagonal);
  return fit;
}

double student_t_975(std::size_t dof) {
  if (dof == 0) throw std::invalid_argument("Student's t needs at least one degree of freedom");
  static constexpr std::array<double, 30> kFirst = {
      12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157, 2.228139,
      2.200985,  2.178813, 2.160369, 2.144787, 2.131450, 2.119905, 2.109816, 2.100922, 2.093024, 2.085963,
      2.079614,  2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831, 2.048407, 2.045230, 2.042272};
  if (dof <= kFirst.size()) return kFirst[dof - 1];
  // (dof, quantile) beyond the first 30; infinity is the normal's 1.959964, at 1/dof = 0.
  static constexpr std::array<std::pair<double, double>, 4> kLater = {
      {{30, 2.042272}, {40, 2.021075}, {60, 2.000298}, {120, 1.979930}}};
  const double inverse = 1 / static_cast<double>(dof);
  for (std::size_t k = 0; k + 1 < kLater.size(); ++k) {
    const auto [d0, t0] = kLater[k];
    const auto [d1, t1] = kLater[k + 1];
    if (static_cast<double>(dof) <= d1)
      return t0 + (t1 - t0) * (1 / d0 - inverse) / (1 / d0 - 1 / d1);
  }
  const auto [d_last, t_last] = kLater.back();
  constexpr double kNormal = 1.959964;
  return kNormal + (t_last - kNormal) * inverse * d_last;
}

}  // namespace hcemu::cli
