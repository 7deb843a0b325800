#include "cli/kernel_fit.hpp"

#include <algorithm>

#include "cli/cli_error.hpp"
#include "cli/least_squares.hpp"

namespace hcemu::cli {

namespace {

Time predict(const harness::KernelFamily& kernel, const MachineConfig& config, const harness::KernelCase& c) {
  auto t = kernel.predict(config, c);
  if (!t)
    throw UsageError("kernel '" + std::string(kernel.name) + "' has no closed form for " + case_label(kernel, c) +
                     ", so its effective parameters cannot be fitted");
  return *t;
}

}  // namespace

KernelFitResult fit_kernel(const harness::KernelFamily& kernel, const MachineFamily& family,
                           const KernelFitOptions& options) {
  KernelFitResult result;
  result.repetitions = options.repetitions > 0 ? options.repetitions
                                               : (family.settings.timing == Timing::virtual_time ? 1 : 5);
  const MachineConfig& base = family.config;
  const Sync sync = options.base.sync;
  // Without a fixed partition the kernel runs on cubes of several dimensions, which is what tells a start-up
  // apart from a set-up that grows with d.
  if (options.base.params.parts("partition").empty()) {
    for (int d = 2; d <= std::max(3, std::min(base.d, 6)); ++d) result.dimensions.push_back(d);
  } else {
    result.dimensions.push_back(base.d);
  }
  const bool split = result.dimensions.size() > 1;
  // The reference model: every message pays the same start-up and set-up, the barriers and bytes are as configured.
  const Sync model_sync = sync == Sync::pairwise ? Sync::barrier : sync;

  std::vector<std::vector<double>> rows;
  std::vector<double> y;
  for (int d : result.dimensions) {
    MachineConfig config = family.at_dimension(d);
    MachineConfig free_messages = config;  // λ = λ0 = δ' = 0: what the model says beyond the per-message costs
    free_messages.lambda = 0;
    free_messages.lambda0 = 0;
    free_messages.delta_msg = 0;
    MachineConfig unit_messages = free_messages;  // λ = λ0 = 1 µs: adds 1 µs per message on the critical path
    unit_messages.lambda = 1;
    unit_messages.lambda0 = 1;
    for (std::size_t m : options.sizes) {
      harness::KernelCase c = options.base;
      c.m = m;
      auto measured = kernel.run(config, family.settings, c);
      if (!measured.verified) result.all_verified = false;
      // Real time varies from run to run: the median of the repetitions.
      std::vector<Time> makespans = {measured.report.makespan};
      for (int r = 1; r < result.repetitions; ++r) {
        auto again = kernel.run(config, family.settings, c);
        if (!again.verified) result.all_verified = false;
        makespans.push_back(again.report.makespan);
      }
      std::sort(makespans.begin(), makespans.end());
      const Time makespan = makespans[makespans.size() / 2];
      // As run, with every parameter the algorithm chose (auto's partition), so that the machines with free
      // messages below predict the schedule that ran, not one planned for them.
      harness::KernelCase reference = measured.run_case;
      reference.sync = model_sync;
      const Time rest = predict(kernel, free_messages, reference);
      const double per_message_count = to_us(predict(kernel, unit_messages, reference) - rest);
      const double excess = to_us(makespan - rest);
      if (split)
        rows.push_back({per_message_count, per_message_count * d});
      else
        rows.push_back({per_message_count});
      y.push_back(excess);
    }
  }
  // No effective cost is negative: a cost the measurements do not show is 0.
  LeastSquares fit = non_negative_least_squares(rows, y);

  // What the configured machine says those effective values are: with pairwise synchronisation every transfer is
  // preceded by a zero-byte exchange, one more λ0 + δ' (Nicol & Bokhari §4).
  const double lambda0 = base.lambda0.value_or(base.lambda);
  const double delta_const = family.delta_msg_per_d ? 0.0 : base.delta_msg;
  const double per_d = family.delta_msg_per_d.value_or(0.0);
  const bool pairwise = sync == Sync::pairwise;
  const double lambda_eff = base.lambda + delta_const + (pairwise ? lambda0 + delta_const : 0.0);
  const double delta_eff_per_d = per_d * (pairwise ? 2 : 1);

  const std::string measured_by =
      std::string(kernel.name) + " " + options.base.algo + ", sync " + std::string(to_string(sync));
  if (split) {
    result.rows.push_back(fit_row(fit, 0, "lambda_eff", "µs", measured_by, lambda_eff));
    result.rows.push_back(fit_row(fit, 1, "delta_eff_per_d", "µs/dimension", measured_by, delta_eff_per_d));
  } else {
    result.rows.push_back(fit_row(fit, 0, "lambda_eff+delta_eff", "µs", measured_by, lambda_eff + delta_eff_per_d * base.d));
    result.notes.push_back("a fixed partition runs on one cube only, so the start-up and the set-up are fitted as "
                           "their sum");
  }
  if (pairwise && base.name == "ipsc860")
    result.notes.push_back("Nicol & Bokhari §4 give the effective values lambda = 177.5 us and delta = 10.3*d us "
                           "(their lambda + lambda0 = 180.5 us)");
  return result;
}

}  // namespace hcemu::cli
