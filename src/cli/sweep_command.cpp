// `hcemu sweep <kernel>`: emulated and predicted time against the block size m, one curve per algorithm or
// partition, as a table, CSV, JSON and a gnuplot figure in the manner of Nicol & Bokhari (1994) Figures 2 and 3.
#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <ostream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/case_runner.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/machine_options.hpp"
#include "cli/plot.hpp"
#include "cli/progress.hpp"
#include "cli/size_range.hpp"
#include "cli/text_table.hpp"

namespace hcemu::cli {

namespace {

struct SweepOptions {
  MachineOptions machine;
  std::string kernel;
  std::vector<std::string> algos;
  std::vector<std::string> partitions;
  std::string sizes{"0:400:16"};
  int root = 0;
  std::uint64_t seed = 1;
  std::size_t pieces = 0;
  std::string csv, plot;
  bool json = false;
  bool progress = true;
};

struct Point {
  std::size_t m;
  CaseOutcome outcome;
};

// The cases of one m: every requested algorithm, then every requested partition.
std::vector<kernels::KernelCase> cases_at(const kernels::KernelInfo& kernel, const MachineConfig& config,
                                          const SweepOptions& options, std::size_t m) {
  std::vector<kernels::KernelCase> cases;
  CaseRequest request;
  request.m = m;
  request.sync = options.machine.parsed_sync();
  request.root = options.root;
  request.seed = options.seed;
  std::vector<std::string> algos = options.algos;
  if (algos.empty() && options.partitions.empty()) algos = {"all"};
  // --pieces goes to the listed algorithms that have pieces (all of them with `all`); it is an error only when none
  // of the curves has any.
  const auto gets_pieces = [&](const std::string& algo) { return algo == "all" || !pieces_name(algo).empty(); };
  if (options.pieces != 0 && std::none_of(algos.begin(), algos.end(), gets_pieces))
    throw UsageError("--pieces: none of the requested curves takes it (it sets the pipelining granularity of "
                       "broadcast bcast4 (g) and nesbt (chunk bytes) and of transpose stout-wagar (P))");
  for (const auto& algo : algos) {
    request.algo = algo;
    request.partition.clear();
    request.pieces = gets_pieces(algo) ? options.pieces : 0;
    for (auto& c : select_cases(kernel, config, request)) cases.push_back(std::move(c));
  }
  for (const auto& p : options.partitions) {
    request.algo.clear();
    request.pieces = 0;
    request.partition = parse_partition(p);
    for (auto& c : select_cases(kernel, config, request)) cases.push_back(std::move(c));
  }
  return cases;
}

// A curve's label: the case as run, but with the pieces as requested, so that an optimum g / chunk / P that changes
// with m stays one curve (the value used at each point is in the CSV and the JSON).
std::string curve_label(const CaseOutcome& outcome) {
  kernels::KernelCase c = outcome.result ? outcome.result->run_case : outcome.requested;
  c.pieces = outcome.requested.pieces;
  return case_label(c);
}

void write_csv(const std::string& path, const std::string& kernel, const std::vector<Point>& points) {
  std::ofstream csv(path);
  if (!csv) throw UsageError("--csv " + path + ": cannot open the file for writing");
  csv << "kernel,algo,partition,pieces,m,predicted_us,emulated_us,verified\n";
  for (const auto& p : points) {
    const auto& c = p.outcome.result ? p.outcome.result->run_case : p.outcome.requested;
    std::string partition;
    for (std::size_t i = 0; i < c.partition.size(); ++i) partition += (i ? "-" : "") + std::to_string(c.partition[i]);
    const std::string pieces = pieces_name(c.algo).empty() ? "" : std::to_string(c.pieces);
    csv << kernel << ',' << c.algo << ',' << partition << ',' << pieces << ',' << p.m << ',';
    if (p.outcome.result && p.outcome.result->predicted) csv << shortest(to_us(*p.outcome.result->predicted));
    csv << ',';
    if (p.outcome.result) csv << shortest(p.outcome.result->report.makespan_us());
    csv << ',' << (p.outcome.ok() ? "true" : "false") << '\n';
  }
  if (!csv) throw UsageError("--csv " + path + ": writing the file failed");
}

PlotSpec plot_spec(const kernels::KernelInfo& kernel, const MachineConfig& config, Sync sync,
                   const std::vector<Point>& points) {
  PlotSpec spec;
  spec.title = kernel.name + " on " + config.name + ", d = " + std::to_string(config.d) + " (" +
               std::to_string(config.nodes()) + " nodes), sync " + std::string(to_string(sync)) +
               ": emulated solid, predicted dashed";
  std::map<std::string, std::size_t> index;
  for (const auto& p : points) {
    std::string label = curve_label(p.outcome);
    auto [it, fresh] = index.try_emplace(label, spec.curves.size());
    if (fresh) spec.curves.push_back({label, {}});
    PlotPoint point;
    point.m = static_cast<double>(p.m);
    if (p.outcome.result) {
      point.emulated_us = p.outcome.result->report.makespan_us();
      if (p.outcome.result->predicted) point.predicted_us = to_us(*p.outcome.result->predicted);
    }
    spec.curves[it->second].points.push_back(point);
  }
  return spec;
}

void print_table(std::ostream& out, const std::vector<Point>& points) {
  // One row per m, a pair of columns (emulated, predicted) per curve.
  std::vector<std::string> labels;
  std::map<std::size_t, std::map<std::string, const CaseOutcome*>> rows;
  for (const auto& p : points) {
    std::string label = curve_label(p.outcome);
    if (std::find(labels.begin(), labels.end(), label) == labels.end()) labels.push_back(label);
    rows[p.m][label] = &p.outcome;
  }
  std::vector<std::string> headers = {"m"};
  for (const auto& l : labels) {
    headers.push_back(l + " emulated µs");
    headers.push_back("predicted");
  }
  TextTable table(headers);
  for (const auto& [m, by_label] : rows) {
    std::vector<std::string> cells = {std::to_string(m)};
    for (const auto& l : labels) {
      auto it = by_label.find(l);
      const CaseOutcome* o = it == by_label.end() ? nullptr : it->second;
      if (!o || !o->result) {
        cells.push_back(o ? "error" : "");
        cells.push_back("");
        continue;
      }
      cells.push_back(fixed(o->result->report.makespan_us()) + (o->result->verified ? "" : " (NOT VERIFIED)"));
      cells.push_back(o->result->predicted ? fixed(to_us(*o->result->predicted)) : "n/a");
    }
    table.add_row(cells);
  }
  table.print(out);
}

int sweep(const SweepOptions& options, std::ostream& out, std::ostream& err) {
  const kernels::KernelInfo* kernel = &find_kernel_or_explain(options.kernel);
  const MachineFamily family = options.machine.build_family();
  const MachineConfig& config = family.config;
  const EmulatorSettings& settings = family.settings;
  const Sync sync = options.machine.parsed_sync();
  const auto sizes = parse_size_range(options.sizes);
  if (!options.plot.empty()) {
    auto ext = options.plot.substr(options.plot.find_last_of('.') == std::string::npos
                                       ? options.plot.size()
                                       : options.plot.find_last_of('.'));
    if (ext != ".png" && ext != ".svg")
      throw UsageError("--plot " + options.plot + ": the file must end in .png or .svg");
  }
  // Every case is checked before the first run, so that a bad --algo fails at once, not after minutes.
  std::vector<std::pair<std::size_t, kernels::KernelCase>> work;
  for (std::size_t m : sizes)
    for (auto& c : cases_at(*kernel, config, options, m)) work.emplace_back(m, std::move(c));

  std::vector<Point> points;
  {
    ProgressBar bar(err, work.size(), options.progress && !options.json && ProgressBar::stderr_is_terminal());
    for (const auto& [m, c] : work) {
      points.push_back({m, run_case(*kernel, config, settings, c)});
      bar.step(case_label(c) + " m=" + std::to_string(m));
    }
  }
  bool all_ok = true;
  for (const auto& p : points) all_ok = all_ok && p.outcome.ok();

  if (!options.csv.empty()) write_csv(options.csv, kernel->name, points);
  if (!options.plot.empty()) draw_plot(plot_spec(*kernel, config, sync, points), options.plot);
  if (options.json) {
    nlohmann::json array = nlohmann::json::array();
    for (const auto& p : points) array.push_back(outcome_json(kernel->name, config, settings, p.outcome, false));
    out << array.dump(2) << '\n';
  } else {
    out << kernel->name << " on " << config.name << ", d = " << config.d << ", sync " << to_string(sync) << ", "
        << to_string(settings.timing) << " timing\n\n";
    print_table(out, points);
    if (!options.csv.empty()) out << "CSV written to " << options.csv << '\n';
    if (!options.plot.empty()) out << "plot written to " << options.plot << '\n';
  }
  for (const auto& p : points)
    if (!p.outcome.error.empty())
      err << "hcemu: " << case_label(p.outcome.requested) << " at m = " << p.m << ": " << p.outcome.error << '\n';
  return all_ok ? kExitOk : kExitRunFailed;
}

}  // namespace

Action add_sweep_command(CLI::App& app) {
  auto options = std::make_shared<SweepOptions>();
  auto* sub = app.add_subcommand("sweep", "Emulated and predicted time against m, one curve per algorithm or "
                                          "partition; CSV, JSON and a gnuplot figure");
  sub->add_option("kernel", options->kernel, "exchange, transpose, broadcast, allgather or histogram")->required();
  sub->add_option("--algo", options->algos, "Algorithms, comma-separated, or all (the default)")->delimiter(',');
  sub->add_option("--partition", options->partitions, "A multiphase partition, e.g. 2,3 (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub->add_option("--m", options->sizes, "Block sizes FROM:TO:STEP (or A,B,C) in bytes")->capture_default_str();
  sub->add_option("--root", options->root, "Root node (broadcast)")->capture_default_str();
  sub->add_option("--pieces", options->pieces,
                  "Pipelining granularity of the curves that have one: broadcast bcast4's groups g, nesbt's chunk "
                  "bytes, transpose stout-wagar's packets per link P (>= d); 0 = the paper's optimum at each m")
      ->type_name("N")
      ->capture_default_str();
  sub->add_option("--seed", options->seed, "Seed of the random data")->capture_default_str();
  options->machine.add_to(*sub);
  sub->add_option("--csv", options->csv, "Write the points to FILE.csv")->type_name("FILE");
  sub->add_flag("--json", options->json, "Print a JSON array, one object per point");
  sub->add_option("--plot", options->plot, "Draw FILE.png or FILE.svg with gnuplot")->type_name("FILE");
  sub->add_flag("!--no-progress", options->progress, "No progress bar");
  return [options](std::ostream& out, std::ostream& err) { return sweep(*options, out, err); };
}

}  // namespace hcemu::cli
