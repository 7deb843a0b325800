// The non-negative least squares of `hcemu fit` (Lawson & Hanson 1974, ch. 23) and the confidence intervals of its
// coefficients, against answers worked by hand.
#include <cmath>
#include <stdexcept>

#include <gtest/gtest.h>

#include "cli/least_squares.hpp"

namespace hcemu::cli {
namespace {

// A line through four points: y = b0 + b1·x at x = 0, 1, 2, 3.
const std::vector<std::vector<double>> kLine = {{1, 0}, {1, 1}, {1, 2}, {1, 3}};

TEST(NonNegativeLeastSquares, EqualsLeastSquaresWhenThatIsNonNegative) {
  // By hand: x̄ = 1.5, ȳ = 2.25, Sxy = 4.5, Sxx = 5: b1 = 0.9, b0 = 2.25 - 1.35 = 0.9.
  const std::vector<double> y = {1, 2, 2, 4};
  LeastSquares fit = non_negative_least_squares(kLine, y);
  EXPECT_NEAR(fit.coefficients[0], 0.9, 1e-12);
  EXPECT_NEAR(fit.coefficients[1], 0.9, 1e-12);
  EXPECT_FALSE(fit.pinned[0]);
  EXPECT_FALSE(fit.pinned[1]);
}

TEST(NonNegativeLeastSquares, PinsAnInterceptThatLeastSquaresMakesNegative) {
  // Unconstrained: y = 1.3x - 0.2. With b0 >= 0 the best line goes through the origin: b1 = Σxy/Σx² = 17/14, and
  // SS_res = Σy² - (Σxy)²/Σx² = 21 - 289/14 = 5/14 against SS_tot = 8.75.
  const std::vector<double> y = {0, 1, 2, 4};
  ASSERT_LT(least_squares(kLine, y).coefficients[0], 0);
  LeastSquares fit = non_negative_least_squares(kLine, y);
  EXPECT_EQ(fit.coefficients[0], 0.0);
  EXPECT_NEAR(fit.coefficients[1], 17.0 / 14.0, 1e-12);
  EXPECT_TRUE(fit.pinned[0]);
  EXPECT_FALSE(fit.pinned[1]);
  EXPECT_NEAR(fit.r_squared, 1 - (5.0 / 14.0) / 8.75, 1e-12);
}

TEST(NonNegativeLeastSquares, PinsANegativeSlope) {
  // Unconstrained: y = 4 - x. With the slope >= 0 the best is the constant mean, 2.
  const std::vector<std::vector<double>> rows = {{1, 1}, {1, 2}, {1, 3}};
  LeastSquares fit = non_negative_least_squares(rows, {3, 2, 1});
  EXPECT_NEAR(fit.coefficients[0], 2.0, 1e-12);
  EXPECT_EQ(fit.coefficients[1], 0.0);
  EXPECT_TRUE(fit.pinned[1]);
}

TEST(NonNegativeLeastSquares, ClipsEachCoordinateOfAnOrthogonalDesign) {
  // With orthonormal columns the problem separates: each coefficient is its own projection, or 0 if that is negative.
  const std::vector<std::vector<double>> rows = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 0}};
  LeastSquares fit = non_negative_least_squares(rows, {1, -2, 3, 0});
  EXPECT_NEAR(fit.coefficients[0], 1.0, 1e-12);
  EXPECT_EQ(fit.coefficients[1], 0.0);
  EXPECT_NEAR(fit.coefficients[2], 3.0, 1e-12);
  EXPECT_TRUE(fit.pinned[1]);
}

TEST(NonNegativeLeastSquares, RecoversExactNonNegativeData) {
  std::vector<std::vector<double>> rows;
  std::vector<double> y;
  for (int i = 0; i < 10; ++i) {
    double x = i * 100.0, z = i % 3;
    rows.push_back({1.0, x, z});
    y.push_back(95.0 + 0.394 * x + 0 * z);  // a true zero stays zero, and is not called pinned
  }
  LeastSquares fit = non_negative_least_squares(rows, y);
  EXPECT_NEAR(fit.coefficients[0], 95.0, 1e-10);
  EXPECT_NEAR(fit.coefficients[1], 0.394, 1e-13);
  EXPECT_NEAR(fit.coefficients[2], 0.0, 1e-10);
  EXPECT_FALSE(fit.pinned[2]);
}

TEST(NonNegativeLeastSquares, DependentColumnsAreRefused) {
  EXPECT_THROW(non_negative_least_squares({{1, 2}, {2, 4}, {3, 6}}, {1, 2, 3}), std::invalid_argument);
}

TEST(ConfidenceInterval, MatchesTheHandComputedStandardErrors) {
  // y = 0.9 + 0.9x on {1, 2, 2, 4}: residuals 0.1, 0.2, -0.7, 0.4, SS_res = 0.7, s² = 0.7 / (4 - 2) = 0.35.
  // XᵀX = [[4, 6], [6, 14]], det 20, (XᵀX)⁻¹ = [[14, -6], [-6, 4]] / 20: var(b0) = 0.35·0.7, var(b1) = 0.35·0.2.
  LeastSquares fit = least_squares(kLine, {1, 2, 2, 4});
  ASSERT_EQ(fit.degrees_of_freedom, 2u);
  EXPECT_NEAR(fit.standard_errors[0], std::sqrt(0.35 * 0.7), 1e-12);
  EXPECT_NEAR(fit.standard_errors[1], std::sqrt(0.35 * 0.2), 1e-12);
  // t(0.975, 2) = 4.302653.
  const double half = 4.302653 * std::sqrt(0.07);
  auto slope = fit.interval(1);
  ASSERT_TRUE(slope);
  EXPECT_NEAR(slope->low, 0.9 - half, 1e-6);
  EXPECT_NEAR(slope->high, 0.9 + half, 1e-6);
  EXPECT_LT(slope->low, 0);
  // The same data, non-negative: the same estimate and width, the interval's lower end at 0.
  auto clipped = non_negative_least_squares(kLine, {1, 2, 2, 4}).interval(1);
  ASSERT_TRUE(clipped);
  EXPECT_EQ(clipped->low, 0.0);
  EXPECT_NEAR(clipped->high, 0.9 + half, 1e-6);
}

TEST(ConfidenceInterval, ExactDataHaveAnIntervalOfZeroWidth) {
  LeastSquares fit = least_squares(kLine, {2, 5, 8, 11});
  auto slope = fit.interval(1);
  ASSERT_TRUE(slope);
  EXPECT_NEAR(slope->low, 3.0, 1e-9);
  EXPECT_NEAR(slope->high, 3.0, 1e-9);
}

TEST(ConfidenceInterval, NoneWithoutResidualDegreesOfFreedom) {
  LeastSquares fit = least_squares({{1, 0}, {1, 1}}, {1, 3});
  EXPECT_EQ(fit.degrees_of_freedom, 0u);
  EXPECT_FALSE(fit.interval(0));
}

TEST(StudentT, TabulatedQuantiles) {
  EXPECT_DOUBLE_EQ(student_t_975(1), 12.706205);
  EXPECT_DOUBLE_EQ(student_t_975(2), 4.302653);
  EXPECT_DOUBLE_EQ(student_t_975(30), 2.042272);
  EXPECT_DOUBLE_EQ(student_t_975(60), 2.000298);
}

TEST(StudentT, InterpolatedQuantilesWithin1e4) {
  // Reference values of the 0.975 quantile.
  EXPECT_NEAR(student_t_975(35), 2.030108, 1e-4);
  EXPECT_NEAR(student_t_975(90), 1.986675, 1e-4);
  EXPECT_NEAR(student_t_975(1000), 1.962339, 1e-4);
  EXPECT_THROW(student_t_975(0), std::invalid_argument);
}

}  // namespace
}  // namespace hcemu::cli
