// `hcemu fit` under virtual timing recovers the configured parameters exactly, and the least-squares solver under
// it recovers exact data; under native timing it measures the host, every parameter non-negative with its interval
// (the host's values are never asserted, only their shape); a poor fit is said in words.
#include <cmath>

#include <gtest/gtest.h>

#include "cli/config_builder.hpp"
#include "cli/config_loader.hpp"
#include "cli/kernel_fit.hpp"
#include "cli/least_squares.hpp"
#include "cli/machine_fit.hpp"
#include "run_hcemu.hpp"

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
  // Exact data: an interval of no width around the value, nothing pinned, nothing to warn of.
  ASSERT_TRUE(r.interval) << r.key;
  EXPECT_NEAR(r.interval->low, r.fitted, 1e-9 * std::max(1.0, std::abs(r.fitted))) << r.key;
  EXPECT_NEAR(r.interval->high, r.fitted, 1e-9 * std::max(1.0, std::abs(r.fitted))) << r.key;
  EXPECT_FALSE(r.pinned) << r.key;
  EXPECT_EQ(regression_warning(r), "") << r.key;
  EXPECT_TRUE(parameter_warnings(r).empty()) << r.key;
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

TEST(MachineFit, EveryParameterHasItsUnit) {
  auto result = fit_machine(family_of("ipsc860"));
  EXPECT_EQ(row(result.rows, "lambda").unit, "µs");
  EXPECT_EQ(row(result.rows, "delta_msg_per_d").unit, "µs/dimension");
  EXPECT_EQ(row(result.rows, "delta_hop").unit, "µs/hop");
  EXPECT_EQ(row(result.rows, "tau").unit, "µs/byte");
  EXPECT_EQ(row(result.rows, "barrier_b").unit, "µs/dimension");
  EXPECT_EQ(row(result.rows, "rho").unit, "µs/byte");
  EXPECT_EQ(row(result.rows, "flop").unit, "µs/flop");
  for (const auto& r : result.rows) EXPECT_FALSE(r.unit.empty()) << r.key;
}

TEST(MachineFit, VirtualTimingTakesOneRunPerPointAndNativeFive) {
  EXPECT_EQ(fit_machine(family_of("ipsc860")).repetitions, 1);
  MachineFamily native = family_of("ipsc860");
  native.settings.timing = Timing::native;
  native.config.d = 2;
  auto result = fit_machine(native);
  EXPECT_EQ(result.repetitions, 5);
  for (const auto& r : result.rows) {
    EXPECT_GE(r.fitted, 0) << r.key;
    EXPECT_NE(r.key, "flop");  // compute() charges nothing under native timing
  }
}

TEST(FitWarnings, PoorRSquaredIsSaidOnceForItsRegression) {
  FitRow r;
  r.key = "lambda";
  r.unit = "µs";
  r.measured_by = "ping-pong";
  r.fitted = 3;
  r.interval = Interval{2.5, 3.5};
  r.r_squared = 0.5;
  r.max_residual_us = 2;
  r.samples = 90;
  EXPECT_NE(regression_warning(r).find("ping-pong regression has R² = 0.500 < 0.9"), std::string::npos)
      << regression_warning(r);
  EXPECT_TRUE(parameter_warnings(r).empty());
  r.r_squared = 0.95;
  EXPECT_EQ(regression_warning(r), "");
}

TEST(FitWarnings, AnIntervalWiderThanTheEstimateIsSaid) {
  FitRow r;
  r.key = "tau";
  r.unit = "µs/byte";
  r.measured_by = "ping-pong";
  r.fitted = 0.001;
  r.interval = Interval{0, 0.0025};
  r.r_squared = 0.99;
  r.max_residual_us = 1;
  auto warnings = parameter_warnings(r);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("wider than the estimate"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("µs/byte"), std::string::npos) << warnings[0];
}

TEST(FitWarnings, APinnedParameterIsSaidOnce) {
  FitRow r;
  r.key = "barrier_a";
  r.unit = "µs";
  r.measured_by = "barrier";
  r.pinned = true;
  r.interval = Interval{0, 9.7};  // wider than 0, but the pin says why
  r.r_squared = 0.94;
  r.max_residual_us = 3;
  auto warnings = parameter_warnings(r);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("held at 0 by the non-negative fit"), std::string::npos) << warnings[0];
}

TEST(FitWarnings, AsManySamplesAsUnknownsLeaveNoInterval) {
  FitRow r;
  r.key = "barrier_b";
  r.unit = "µs/dimension";
  r.measured_by = "barrier";
  r.fitted = 6;
  r.r_squared = 1;
  r.samples = 2;
  auto warnings = parameter_warnings(r);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("no interval"), std::string::npos) << warnings[0];
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

TEST(KernelFit, UnderNativeTimingEveryEffectiveParameterIsNonNegative) {
  MachineFamily family = family_of("ipsc860");
  family.settings.timing = Timing::native;
  family.config.protocol = Protocol::unforced;  // as the command chooses (cli/real_time.hpp)
  KernelFitOptions options;
  options.base.algo = "standard";
  options.sizes = {32, 256};
  options.repetitions = 2;
  auto result = fit_kernel(harness::find_family("exchange"), family, options);
  EXPECT_EQ(result.repetitions, 2);
  EXPECT_TRUE(result.all_verified);
  for (const auto& r : result.rows) {
    EXPECT_GE(r.fitted, 0) << r.key;
    EXPECT_EQ(r.unit.empty(), false) << r.key;
  }
}

// The fit of the host from the command line: its shape, never its values.
TEST(FitCli, NativeTimingPrintsNonNegativeParametersWithIntervals) {
  auto r = test::hcemu("fit --timing native -d 2 --reps 1 --json", 120);
  auto j = test::payload_of(r, "fit");
  ASSERT_FALSE(j["parameters"].empty());
  for (const auto& p : j["parameters"]) {
    SCOPED_TRACE(p.dump());
    EXPECT_FALSE(p["unit"].get<std::string>().empty());
    const double fitted = p["fitted"].get<double>();
    EXPECT_GE(fitted, 0);
    // Compared with nothing: the host is not the configured machine.
    EXPECT_TRUE(p["configured"].is_null());
    EXPECT_TRUE(p["relative_error"].is_null());
    EXPECT_TRUE(p["warnings"].is_array());
    if (p["ci_low"].is_null()) {
      EXPECT_TRUE(p["ci_high"].is_null());
      continue;
    }
    EXPECT_GE(p["ci_low"].get<double>(), 0);
    EXPECT_LE(p["ci_low"].get<double>(), fitted);
    EXPECT_GE(p["ci_high"].get<double>(), fitted);
  }
  EXPECT_EQ(j["repetitions"], 1);
}

TEST(FitCli, NativeTableHasUnitsAndIntervalsAndComparesOnlyWhenAsked) {
  auto plain = test::hcemu("fit --timing native -d 2 --reps 1", 120);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(plain.out.find("95% interval"), std::string::npos) << plain.out;
  EXPECT_NE(plain.out.find("µs/byte"), std::string::npos) << plain.out;
  EXPECT_EQ(plain.out.find("configured"), plain.out.find("configured machine's values")) << plain.out;
  EXPECT_NE(plain.out.find("--compare"), std::string::npos) << plain.out;
  auto compared = test::payload_of(test::hcemu("fit --timing native -d 2 --reps 1 --compare --json", 120), "fit");
  for (const auto& p : compared["parameters"]) EXPECT_TRUE(p["configured"].is_number()) << p.dump();
}

TEST(FitCli, KernelFitUnderNativeTimingRunsUnforcedAndSaysSo) {
  auto r = test::hcemu("fit --kernel exchange --algo direct --timing native -d 2 -m 32,256 --reps 1 --json", 120);
  auto j = test::payload_of(r, "fit");
  EXPECT_NE(r.err.find("hcemu: note: native timing: the machine runs UNFORCED"), std::string::npos) << r.err;
  EXPECT_TRUE(j["verified"].get<bool>());
  for (const auto& p : j["parameters"]) EXPECT_GE(p["fitted"].get<double>(), 0) << p.dump();
}

}  // namespace
}  // namespace hcemu::cli
