// `hcemu fit` under virtual timing recovers the configured parameters exactly, and the least-squares solver under
// it recovers exact data.
#include <cmath>

#include <gtest/gtest.h>

#include "cli/config_builder.hpp"
#include "cli/config_loader.hpp"
#include "cli/kernel_fit.hpp"
#include "cli/least_squares.hpp"
#include "cli/machine_fit.hpp"

namespace hcemu::cli {
namespace {

MachineFamily family_of(const char* preset) {
  ConfigBuilder builder;
  apply_config(builder, preset);
  return builder.family();
}

const FitRow& row(const std::vector<FitRow>& rows, const std::string& key) {
  for (const auto& r : rows)
    if (r.key == key) return r;
  throw std::runtime_error("no fitted row " + key);
}

void expect_recovered(const FitRow& r) {
  EXPECT_NEAR(r.fitted, r.configured, 1e-9 * std::max(1.0, std::abs(r.configured))) << r.key;
  EXPECT_NEAR(r.r_squared, 1.0, 1e-12) << r.key;
  EXPECT_LT(r.max_residual_us, 1e-6) << r.key;
}

TEST(LeastSquares, RecoversExactCoefficients) {
  std::vector<std::vector<double>> rows;
  std::vector<double> y;
  for (int i = 0; i < 10; ++i) {
    double x = i * 100.0, z = i % 3;
    rows.push_back({1.0, x, z});
    y.push_back(95.0 + 0.394 * x + 5.15 * z);
  }
  LeastSquares fit = least_squares(rows, y);
  EXPECT_NEAR(fit.coefficients[0], 95.0, 1e-10);
  EXPECT_NEAR(fit.coefficients[1], 0.394, 1e-13);
  EXPECT_NEAR(fit.coefficients[2], 5.15, 1e-10);
  EXPECT_NEAR(fit.r_squared, 1.0, 1e-14);
}

TEST(LeastSquares, ReportsTheLargestResidual) {
  std::vector<std::vector<double>> rows = {{1, 0}, {1, 1}, {1, 2}, {1, 3}};
  // By hand: the best line is y = 1.3x - 0.2, residuals 0.2, -0.1, -0.4, 0.3; SS_res = 0.3, SS_tot = 8.75.
  std::vector<double> y = {0, 1, 2, 4};
  LeastSquares fit = least_squares(rows, y);
  EXPECT_NEAR(fit.coefficients[0], -0.2, 1e-12);
  EXPECT_NEAR(fit.coefficients[1], 1.3, 1e-12);
  EXPECT_EQ(fit.max_residual_row, 2u);
  EXPECT_NEAR(fit.max_residual, 0.4, 1e-12);
  EXPECT_NEAR(fit.r_squared, 1 - 0.3 / 8.75, 1e-12);
}

TEST(LeastSquares, DependentColumnsAreRefused) {
  std::vector<std::vector<double>> rows = {{1, 2}, {2, 4}, {3, 6}};
  EXPECT_THROW(least_squares(rows, {1, 2, 3}), std::invalid_argument);
}

TEST(MachineFit, VirtualIpsc860RecoversNicolAndBokhariParameters) {
  auto result = fit_machine(family_of("ipsc860"));
  for (const char* key : {"lambda", "lambda0", "tau", "delta_msg_per_d", "delta_hop", "rho", "barrier_a",
                          "barrier_b", "exchange_startup", "exchange_per_byte"})
    expect_recovered(row(result.rows, key));
  EXPECT_NEAR(row(result.rows, "lambda").fitted, 95.0, 1e-9 * 95);
  EXPECT_NEAR(row(result.rows, "lambda0").fitted, 85.5, 1e-9 * 85.5);
  EXPECT_NEAR(row(result.rows, "tau").fitted, 0.394, 1e-9);
  EXPECT_NEAR(row(result.rows, "delta_msg_per_d").fitted, 5.15, 1e-9 * 5.15);
  EXPECT_NEAR(row(result.rows, "rho").fitted, 0.54, 1e-9);
  EXPECT_NEAR(row(result.rows, "barrier_b").fitted, 150.0, 1e-9 * 150);
}

TEST(MachineFit, VirtualIpscYaleRecoversItsStartUpAndFlopRate) {
  auto result = fit_machine(family_of("ipsc-yale"));
  for (const char* key : {"lambda", "lambda0", "tau", "flop", "exchange_startup", "exchange_per_byte"})
    expect_recovered(row(result.rows, key));
  EXPECT_NEAR(row(result.rows, "lambda").fitted, 1500.0, 1e-9 * 1500);
}

TEST(MachineFit, VirtualLinkboundRecoversBetaAndTau) {
  auto result = fit_machine(family_of("linkbound"));
  for (const char* key : {"lambda", "tau", "exchange_startup", "exchange_per_byte"})
    expect_recovered(row(result.rows, key));
}

TEST(MachineFit, ConstantDeltaMsgIsFittedTogetherWithLambda) {
  ConfigBuilder builder;
  apply_config(builder, "ipsc860");
  apply_assignment(builder, "delta_msg=7");
  apply_assignment(builder, "delta_hop=2");
  auto result = fit_machine(builder.family());
  expect_recovered(row(result.rows, "lambda+delta_msg"));
  EXPECT_NEAR(row(result.rows, "lambda+delta_msg").configured, 95.0 + 7.0, 1e-12);
  expect_recovered(row(result.rows, "delta_hop"));
  EXPECT_NEAR(row(result.rows, "delta_hop").fitted, 2.0, 1e-9);
}

TEST(KernelFit, PairwiseSyncAddsAZeroByteStartUpAndDoublesDelta) {
  // Nicol & Bokhari §4: with pairwise synchronisation every transfer is preceded by a zero-byte exchange, so the
  // effective start-up is λ + λ0 = 180.5 µs and the effective set-up 2 × 5.15·d µs.
  KernelFitOptions options;
  options.base.algo = "direct";
  options.base.sync = Sync::pairwise;
  options.sizes = {32, 128, 256};
  auto result = fit_kernel(harness::find_family("exchange"), family_of("ipsc860"), options);
  EXPECT_TRUE(result.all_verified);
  EXPECT_NEAR(row(result.rows, "lambda_eff").fitted, 95.0 + 85.5, 1e-9 * 180.5);
  EXPECT_NEAR(row(result.rows, "delta_eff_per_d").fitted, 2 * 5.15, 1e-9 * 10.3);
}

TEST(KernelFit, BarrierSyncLeavesTheMachineParameters) {
  KernelFitOptions options;
  options.base.algo = "standard";
  options.base.sync = Sync::barrier;
  options.sizes = {32, 256};
  auto result = fit_kernel(harness::find_family("exchange"), family_of("ipsc860"), options);
  EXPECT_NEAR(row(result.rows, "lambda_eff").fitted, 95.0, 1e-9 * 95);
  EXPECT_NEAR(row(result.rows, "delta_eff_per_d").fitted, 5.15, 1e-9 * 5.15);
}

}  // namespace
}  // namespace hcemu::cli
