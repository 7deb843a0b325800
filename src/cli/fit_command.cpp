// `hcemu fit`: fit the model's parameters from microbenchmarks (or a kernel's effective λ and δ) and set each
// beside its configured value.
#include <cmath>
#include <memory>
#include <ostream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/kernel_fit.hpp"
#include "cli/machine_fit.hpp"
#include "cli/machine_options.hpp"
#include "cli/size_range.hpp"
#include "cli/text_table.hpp"

namespace hcemu::cli {

namespace {

struct FitOptions {
  MachineOptions machine;
  std::string kernel;
  std::string algo;
  std::string partition;
  std::string sizes{"32:512:96"};
  int repetitions = 0;
  bool json = false;
};

double relative_error(const FitRow& r) {
  if (r.configured == 0) return r.fitted == 0 ? 0.0 : INFINITY;
  return (r.fitted - r.configured) / r.configured;
}

// Six decimals (a picosecond is 1e-6 µs), without a "-0.000000" for a value that rounds to zero.
std::string six_places(double x) { return fixed(std::abs(x) < 5e-7 ? 0.0 : x, 6); }

nlohmann::json row_json(const FitRow& r) {
  double rel = relative_error(r);
  return {{"key", r.key},
          {"measured_by", r.measured_by},
          {"fitted", r.fitted},
          {"configured", r.configured},
          {"relative_error", std::isfinite(rel) ? nlohmann::json(rel) : nlohmann::json(nullptr)},
          {"r_squared", r.r_squared},
          {"max_residual_us", r.max_residual_us},
          {"samples", r.samples}};
}

void print_rows(std::ostream& out, const std::vector<FitRow>& rows) {
  TextTable table({"parameter", "fitted", "configured", "error", "R²", "max residual µs", "samples", "from"});
  for (const auto& r : rows) {
    double rel = relative_error(r);
    // Differences at the level of rounding to whole picoseconds are shown as exact.
    std::string error = std::abs(r.fitted - r.configured) < 1e-9 * std::max(1.0, std::abs(r.configured))
                            ? "0"
                            : (std::isfinite(rel) ? fixed(100 * rel, 3) + "%" : "n/a");
    table.add_row({r.key, six_places(r.fitted), six_places(r.configured), error, fixed(r.r_squared, 9),
                   six_places(r.max_residual_us), std::to_string(r.samples), r.measured_by});
  }
  table.print(out);
}

int fit(const FitOptions& options, std::ostream& out) {
  MachineFamily family = options.machine.build_family();
  const MachineConfig& config = family.config;
  nlohmann::json j = {{"config", config.name}, {"timing", std::string(to_string(family.settings.timing))}, {"d", config.d}};
  std::vector<FitRow> rows;
  std::vector<int> dimensions;
  std::vector<std::string> notes;
  bool verified = true;
  if (options.kernel.empty()) {
    if (!options.algo.empty() || !options.partition.empty())
      throw UsageError("--algo and --partition need --kernel");
    MachineFitOptions fit_options;
    fit_options.repetitions = options.repetitions;
    auto result = fit_machine(family, fit_options);
    rows = result.rows;
    dimensions = result.dimensions;
    notes = result.notes;
  } else {
    const kernels::KernelInfo* kernel = &find_kernel_or_explain(options.kernel);
    KernelFitOptions fit_options;
    CaseRequest request;
    if (!options.partition.empty()) request.partition = parse_partition(options.partition);
    request.algo = options.algo.empty() && request.partition.empty() ? kernel->default_algo : options.algo;
    if (request.algo == "all") throw UsageError("fit --kernel needs one algorithm, not --algo all");
    // Checks the algorithm and the partition, and picks the algorithm a bare --partition means.
    auto chosen = select_cases(*kernel, config, request);
    fit_options.algo = chosen.front().algo;
    fit_options.partition = request.partition;
    fit_options.sync = options.machine.parsed_sync();
    fit_options.sizes = parse_size_range(options.sizes);
    auto result = fit_kernel(*kernel, family, fit_options);
    rows = result.rows;
    dimensions = result.dimensions;
    notes = result.notes;
    verified = result.all_verified;
    j["kernel"] = kernel->name;
    j["algo"] = fit_options.algo;
    j["partition"] = fit_options.partition;
    j["sync"] = std::string(to_string(fit_options.sync));
    j["m"] = fit_options.sizes;
    j["verified"] = verified;
  }
  if (options.json) {
    j["dimensions"] = dimensions;
    j["parameters"] = nlohmann::json::array();
    for (const auto& r : rows) j["parameters"].push_back(row_json(r));
    j["notes"] = notes;
    out << j.dump(2) << '\n';
  } else {
    out << "fit of " << config.name << " (" << to_string(family.settings.timing) << " timing), cubes of d =";
    for (int d : dimensions) out << ' ' << d;
    out << "\n\n";
    print_rows(out, rows);
    for (const auto& note : notes) out << "note: " << note << '\n';
    if (!verified) out << "some kernel runs did not verify\n";
  }
  return verified ? kExitOk : kExitRunFailed;
}

}  // namespace

Action add_fit_command(CLI::App& app) {
  auto options = std::make_shared<FitOptions>();
  auto* sub = app.add_subcommand(
      "fit",
      "Measure the machine (ping-pong at every distance, exchange, barrier, permute) and fit lambda, tau, delta, "
      "rho and the barrier by least squares; with --kernel, a kernel's effective lambda and delta");
  options->machine.add_to(*sub);
  sub->add_option("--kernel", options->kernel, "Fit the effective lambda and delta of this kernel (exchange)");
  sub->add_option("--algo", options->algo, "The kernel's algorithm (default: its default)");
  sub->add_option("--partition", options->partition, "Multiphase partition, e.g. 2,3 (fixes d)");
  sub->add_option("--m", options->sizes, "With --kernel: block sizes FROM:TO:STEP or A,B,C in bytes")
      ->capture_default_str();
  sub->add_option("--reps", options->repetitions, "Repetitions per point (default 1 virtual, 5 wall/native)");
  sub->add_flag("--json", options->json, "Print JSON");
  return [options](std::ostream& out, std::ostream&) { return fit(*options, out); };
}

}  // namespace hcemu::cli
