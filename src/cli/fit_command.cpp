// `hcemu fit`: fit the model's parameters from microbenchmarks (or a kernel's effective λ and δ) and set each
// beside its configured value.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/config_loader.hpp"
#include "cli/json_document.hpp"
#include "cli/kernel_fit.hpp"
#include "cli/kernel_options.hpp"
#include "cli/machine_fit.hpp"
#include "cli/machine_options.hpp"
#include "cli/option_checks.hpp"
#include "cli/presets.hpp"
#include "cli/real_time.hpp"
#include "cli/size_range.hpp"
#include "cli/text_table.hpp"

namespace hcemu::cli {

namespace {

struct FitOptions {
  MachineOptions machine;
  KernelOptions cases;
  std::string kernel;
  std::string sizes{"32:512:96"};
  int repetitions = 0;
  bool compare = false;
  bool json = false;
};

double relative_error(const FitRow& r) {
  if (r.configured == 0) return r.fitted == 0 ? 0.0 : INFINITY;
  return (r.fitted - r.configured) / r.configured;
}

// Six decimals (a picosecond is 1e-6 µs), without a "-0.000000" for a value that rounds to zero.
std::string six_places(double x) { return fixed(std::abs(x) < 5e-7 ? 0.0 : x, 6); }

// Every warning of the row: its regression's and its own.
std::vector<std::string> warnings_of(const FitRow& r) {
  std::vector<std::string> warnings = parameter_warnings(r);
  if (std::string w = regression_warning(r); !w.empty()) warnings.insert(warnings.begin(), std::move(w));
  return warnings;
}

// `compare`: set each value beside the configured machine's (null otherwise).
nlohmann::json row_json(const FitRow& r, bool compare) {
  double rel = relative_error(r);
  const auto no = nlohmann::json(nullptr);
  return {{"key", r.key},
          {"unit", r.unit},
          {"measured_by", r.measured_by},
          {"fitted", r.fitted},
          {"ci_low", r.interval ? nlohmann::json(r.interval->low) : no},
          {"ci_high", r.interval ? nlohmann::json(r.interval->high) : no},
          {"pinned_at_zero", r.pinned},
          {"configured", compare ? nlohmann::json(r.configured) : no},
          {"relative_error", compare && std::isfinite(rel) ? nlohmann::json(rel) : no},
          {"r_squared", r.r_squared},
          {"max_residual_us", r.max_residual_us},
          {"samples", r.samples},
          {"warnings", warnings_of(r)}};
}

void print_rows(std::ostream& out, const std::vector<FitRow>& rows, bool compare) {
  std::vector<std::string> headers = {"parameter", "fitted", "unit", "95% interval"};
  if (compare) headers.insert(headers.end(), {"configured", "error"});
  headers.insert(headers.end(), {"R²", "max residual µs", "samples", "from"});
  TextTable table(headers);
  for (const auto& r : rows) {
    std::vector<std::string> cells = {
        r.key, six_places(r.fitted), r.unit,
        r.interval ? "[" + six_places(r.interval->low) + ", " + six_places(r.interval->high) + "]" : "n/a"};
    if (compare) {
      double rel = relative_error(r);
      // Differences at the level of rounding to whole picoseconds are shown as exact.
      cells.push_back(six_places(r.configured));
      cells.push_back(std::abs(r.fitted - r.configured) < 1e-9 * std::max(1.0, std::abs(r.configured))
                          ? "0"
                          : (std::isfinite(rel) ? fixed(100 * rel, 3) + "%" : "n/a"));
    }
    cells.insert(cells.end(), {fixed(r.r_squared, 9), six_places(r.max_residual_us), std::to_string(r.samples),
                               r.measured_by});
    table.add_row(cells);
  }
  table.print(out);
}

// The poor fits in words: each regression's once, then each parameter's own.
void print_warnings(std::ostream& out, const std::vector<FitRow>& rows) {
  std::vector<std::string> regressions;
  for (const auto& r : rows)
    if (std::string w = regression_warning(r);
        !w.empty() && std::find(regressions.begin(), regressions.end(), w) == regressions.end())
      regressions.push_back(std::move(w));
  for (const auto& w : regressions) out << "warning: " << w << '\n';
  for (const auto& r : rows)
    for (const auto& w : parameter_warnings(r)) out << "warning: " << r.key << ": " << w << '\n';
}

// The largest relative error of the link parameters (λ, λ0, δ', δ, τ, and their sums) among the rows whose
// configured value is not zero.
double worst_link_error(const std::vector<FitRow>& rows) {
  double worst = 0;
  for (const FitRow& r : rows) {
    const bool link = r.key.starts_with("lambda") || r.key.starts_with("delta") || r.key == "tau";
    if (link && r.configured != 0) worst = std::max(worst, std::abs(r.fitted - r.configured) / std::abs(r.configured));
  }
  return worst;
}

int fit(const FitOptions& options, std::ostream& out, std::ostream& err) {
  MachineFamily family = options.machine.build_family();
  const MachineConfig& config = family.config;
  // Both fits measure cubes of several dimensions (every distance of a cube, or d = 2 up): a torus or mesh has no
  // such family, and a square one no odd d.
  if (config.topology.grid()) {
    std::string cubes;
    for (const auto& name : preset_names())
      if (!load_config(name).topology.grid()) cubes += (cubes.empty() ? "" : ", ") + name;
    throw UsageError("fit measures hypercubes of several dimensions, and the config '" + config.name + "' is a " +
                     topology_name(config) + ": fit needs a hypercube (the presets " + cubes +
                     ", a file whose topology is cube, or --topology cube)");
  }
  nlohmann::json j = {{"config", config.name}, {"timing", std::string(to_string(family.settings.timing))}, {"d", config.d}};
  std::vector<FitRow> rows;
  std::vector<int> dimensions;
  std::vector<std::string> notes;
  bool verified = true;
  int repetitions = 1;
  const std::string algo = options.cases.algos().empty() ? "" : options.cases.algos().back();
  const std::string partition = options.cases.partitions().empty() ? "" : options.cases.partitions().back();
  if (options.kernel.empty()) {
    bool numbers = options.cases.pieces != 0;
    for (const auto& [name, value] : options.cases.numbers) numbers = numbers || value != 0;
    for (const auto& [name, value] : options.cases.texts) numbers = numbers || !value.empty();
    for (const auto& [name, value] : options.cases.nodes) numbers = numbers || value != kNodeNotGiven;
    for (const auto& [name, text] : options.cases.lists) numbers = numbers || !text.empty();
    if (!algo.empty() || !partition.empty() || numbers)
      throw UsageError("--algo, --partition and the algorithms' parameters need --kernel");
    MachineFitOptions fit_options;
    fit_options.repetitions = options.repetitions;
    if (process_ranks() > 1) {
      // Under mpirun: one node per rank, so that every message measured crosses between ranks (docs/mpi.md).
      const int ranks = process_ranks();
      if ((ranks & (ranks - 1)) != 0)
        throw UsageError("fit under mpirun places one node per rank: run a power of two of ranks, not " +
                         std::to_string(ranks));
      fit_options.only_dimension = std::countr_zero(static_cast<unsigned>(ranks));
    }
    auto result = fit_machine(family, fit_options);
    repetitions = result.repetitions;
    // Wall timing at the default time_scale: a node's clock includes its own running time on the host, scaled down
    // by time_scale (docs/model.md), so the fit chooses the scale itself: the smallest power of ten, up to 1000,
    // at which λ, τ and δ come within 2% of the configuration.
    if (family.settings.timing == Timing::wall && family.settings.time_scale == 1) {
      while (worst_link_error(result.rows) > 0.02 && family.settings.time_scale < 1000) {
        family.settings.time_scale *= 10;
        result = fit_machine(family, fit_options);
      }
      result.notes.push_back("time_scale " + shortest(family.settings.time_scale) +
                             " chosen: the smallest power of ten at which lambda, tau and delta come within 2% of the "
                             "configured values (worst " + fixed(100 * worst_link_error(result.rows), 2) +
                             "%); set time_scale to choose another");
      j["time_scale"] = family.settings.time_scale;
    }
    rows = result.rows;
    dimensions = result.dimensions;
    notes = result.notes;
    if (process_ranks() > 1) {
      std::string hosts;
      for (std::size_t r = 0; r < process_hosts().size(); ++r)
        hosts += (r ? ", " : "") + std::string("rank ") + std::to_string(r) + " on " + process_hosts()[r];
      notes.push_back("measured over " + std::to_string(process_ranks()) + " MPI ranks, one node each: " + hosts);
      j["ranks"] = process_ranks();
      j["hosts"] = process_hosts();
    }
  } else {
    const harness::KernelFamily& kernel = harness::find_family(options.kernel);
    // The kernel's own receives, unlike the microbenchmarks' (posted before a barrier), may come after their
    // message under wall or native timing.
    if (auto note = make_forced_safe_in_real_time(family, options.machine.given("protocol")); !note.empty())
      err << "hcemu: note: " << note << '\n';
    KernelFitOptions fit_options;
    const std::string chosen_algo = algo.empty() && partition.empty() ? std::string(kernel.default_algo) : algo;
    if (chosen_algo == "all") throw UsageError("fit --kernel needs one algorithm, not --algo all");
    // Checks the algorithm and its parameters, and picks the algorithm a bare --partition means.
    const CaseRequest request = options.cases.request(chosen_algo, partition, 0, options.machine.parsed_sync());
    fit_options.base = select_cases(kernel, config, request).front();
    fit_options.sizes = parse_size_range(options.sizes);
    fit_options.repetitions = options.repetitions;
    auto result = fit_kernel(kernel, family, fit_options);
    repetitions = result.repetitions;
    rows = result.rows;
    dimensions = result.dimensions;
    notes = result.notes;
    verified = result.all_verified;
    j["kernel"] = kernel.name;
    j["algo"] = fit_options.base.algo;
    j["partition"] = fit_options.base.params.parts("partition");
    j["sync"] = std::string(to_string(fit_options.base.sync));
    j["m"] = fit_options.sizes;
    j["verified"] = verified;
  }
  // Virtual and wall timing run the configured machine, so their fit is a check against it; native timing measures
  // the host, which has nothing to do with the configuration unless the user asks to set the two side by side.
  const bool compare = options.compare || family.settings.timing != Timing::native;
  if (!compare)
    notes.push_back("native timing measures the host, so nothing is set beside the configured machine's values "
                    "(--compare does)");
  if (options.json) {
    j["dimensions"] = dimensions;
    j["repetitions"] = repetitions;
    j["parameters"] = nlohmann::json::array();
    for (const auto& r : rows) j["parameters"].push_back(row_json(r, compare));
    j["notes"] = notes;
    out << json_document("fit", &family, "fit", std::move(j)).dump(2) << '\n';
  } else {
    out << "fit of " << config.name << " (" << to_string(family.settings.timing) << " timing), cubes of d =";
    for (int d : dimensions) out << ' ' << d;
    if (repetitions > 1) out << "; each point the median of " << repetitions << " runs";
    out << "\n\n";
    print_rows(out, rows, compare);
    print_warnings(out, rows);
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
      "rho and the barrier by non-negative least squares, with 95% intervals; with --kernel, a kernel's effective "
      "lambda and delta");
  options->machine.add_to(*sub);
  sub->add_option("--kernel", options->kernel,
                  "Fit the effective lambda and delta of this kernel (" + kernel_names() +
                      "; its algorithm: --algo, default the kernel's own; a --partition fixes d)");
  add_sizes_option(*sub, options->sizes);
  options->cases.add_to(*sub, false);
  sub->add_option("--reps", options->repetitions,
                  "Repetitions per point, the median taken (default 1 under virtual timing, 5 under wall and native)")
      ->transform(whole_number(1, 1000000, "a number of repetitions from 1 to 10^6"));
  sub->add_flag("--compare", options->compare,
                "Set each fitted value beside the configured machine's (always under virtual and wall timing, which "
                "run it; under native timing only with this flag)");
  sub->add_flag("--json", options->json, "Print JSON");
  return [options](std::ostream& out, std::ostream& err) { return fit(*options, out, err); };
}

}  // namespace hcemu::cli
