// `hcemu sweep <kernel>`: emulated and predicted time against the block size m, one curve per algorithm or
// partition, as a table, CSV, JSON and a gnuplot figure in the manner of Nicol & Bokhari (1994) Figures 2 and 3.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/case_runner.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/json_document.hpp"
#include "cli/kernel_options.hpp"
#include "cli/machine_options.hpp"
#include "cli/option_checks.hpp"
#include "cli/output_file.hpp"
#include "cli/plot.hpp"
#include "cli/progress.hpp"
#include "cli/real_time.hpp"
#include "cli/size_range.hpp"
#include "cli/sweep_csv.hpp"
#include "cli/sweep_points.hpp"
#include "cli/text_table.hpp"
#include "hcemu/model/transfer.hpp"

namespace hcemu::cli {

namespace {

struct SweepOptions {
  MachineOptions machine;
  KernelOptions cases;
  std::string kernel;
  std::string sizes{"0:400:16"};
  std::string csv, plot, plot_script;
  bool json = false;
  bool progress = true;  // --no-progress, the older spelling of --quiet
  bool quiet = false;
  bool predicted_only = false;  // the closed forms only: nothing is emulated
};

// A case's closed form and lower bound without running it (--predicted-only): the result has no report.
CaseOutcome predict_case(const harness::KernelFamily& family, const MachineConfig& config,
                         const harness::KernelCase& c) {
  CaseOutcome outcome{c, std::nullopt, "", nullptr, ""};
  try {
    harness::KernelResult r;
    r.run_case = family.resolved(config, c);
    const harness::Algorithm& row = family.algorithm(c.algo);
    if (model::transfer_forms_apply(config)) {  // none under LogGP
      r.predicted = row.predict(config, r.run_case);
      if (row.lower_bound) r.lower_bound = row.lower_bound(config, r.run_case);
    }
    r.verified = true;  // nothing ran, so nothing can differ
    outcome.result = std::move(r);
  } catch (const std::exception& e) {
    outcome.error = e.what();
  }
  return outcome;
}

// Whether any of the requested curves takes the parameter (`all`: any algorithm of the kernel).
bool some_curve_takes(const harness::KernelFamily& family, const std::vector<std::string>& algos,
                      const std::function<bool(const harness::Algorithm&)>& takes) {
  for (const harness::Algorithm& row : family.algorithms)
    for (const auto& algo : algos)
      if ((algo == "all" || algo == row.name) && takes(row)) return true;
  return false;
}

// The cases of one m: every requested algorithm, then every requested partition. A parameter goes to the requested
// algorithms that take it (all of them with `all`); it is an error only when none of the curves takes it.
std::vector<harness::KernelCase> cases_at(const harness::KernelFamily& family, const MachineConfig& config,
                                          const SweepOptions& options, std::size_t m) {
  const Sync sync = options.machine.parsed_sync();
  std::vector<std::string> algos = options.cases.algos();
  if (algos.empty() && options.cases.partitions().empty()) algos = {"all"};
  for (const auto& algo : algos)
    if (algo != "all") family.algorithm(algo);  // an unknown algorithm, with the nearest, before anything else
  const auto taken = [&](std::string_view param) {
    return some_curve_takes(family, algos, [&](const harness::Algorithm& row) {
      const harness::ParamSpec* p = row.param(param);
      return p && !p->chosen;
    });
  };
  for (const auto& [name, value] : options.cases.numbers)
    if (value != 0 && !taken(name)) throw UsageError("--" + name + ": none of the requested curves takes it");
  for (const auto& [name, value] : options.cases.texts)
    if (!value.empty() && !taken(name)) throw UsageError("--" + name + ": none of the requested curves takes it");
  for (const auto& [name, value] : options.cases.nodes)
    if (value != kNodeNotGiven && !taken(name))
      throw UsageError("--" + name + ": none of the requested curves takes it");
  for (const auto& [name, text] : options.cases.lists)
    if (!text.empty() && !taken(name)) throw UsageError("--" + name + ": none of the requested curves takes it");
  if (options.cases.pieces != 0 &&
      !some_curve_takes(family, algos, [](const harness::Algorithm& row) { return row.granularity() != nullptr; }))
    throw UsageError("--pieces: none of the requested curves takes it (" + granularity_help() + ")");

  std::vector<harness::KernelCase> cases;
  for (const auto& algo : algos) {
    CaseRequest request = options.cases.request(algo, "", m, sync);
    request.among_several = true;
    for (auto& c : select_cases(family, config, request)) cases.push_back(std::move(c));
  }
  for (const auto& p : options.cases.partitions()) {
    CaseRequest request = options.cases.request("", p, m, sync);
    request.among_several = true;
    for (auto& c : select_cases(family, config, request)) cases.push_back(std::move(c));
  }
  return cases;
}

PlotSpec plot_spec(const harness::KernelFamily& kernel, const MachineConfig& config, Sync sync,
                   const std::vector<SweepPoint>& points) {
  PlotSpec spec;
  spec.title = std::string(kernel.name) + " on " + config.name + ", " + machine_shape(config) + ", sync " +
               std::string(to_string(sync)) +
               (points.empty() || points.front().emulated ? ": emulated solid, predicted dashed" : ": predicted");
  spec.predicted_only = !points.empty() && !points.front().emulated;
  std::map<std::string, std::size_t> index;
  for (const auto& p : points) {
    std::string label = curve_label(kernel, p.outcome);
    auto [it, fresh] = index.try_emplace(label, spec.curves.size());
    if (fresh) spec.curves.push_back({label, {}});
    PlotPoint point;
    point.m = static_cast<double>(p.m);
    if (p.outcome.result) {
      if (p.emulated) point.emulated_us = p.outcome.result->report.makespan_us();
      if (p.outcome.result->predicted) point.predicted_us = to_us(*p.outcome.result->predicted);
    }
    spec.curves[it->second].points.push_back(point);
  }
  return spec;
}

void print_table(std::ostream& out, const harness::KernelFamily& kernel, const std::vector<SweepPoint>& points) {
  // One row per m, a pair of columns (emulated, predicted) per curve; only the predicted one with --predicted-only.
  std::vector<std::string> labels;
  std::map<std::size_t, std::map<std::string, const CaseOutcome*>> rows;
  const bool emulated = points.empty() || points.front().emulated;
  for (const auto& p : points) {
    std::string label = curve_label(kernel, p.outcome);
    if (std::find(labels.begin(), labels.end(), label) == labels.end()) labels.push_back(label);
    rows[p.m][label] = &p.outcome;
  }
  std::vector<std::string> headers = {"m"};
  for (const auto& l : labels) {
    if (emulated) {
      headers.push_back(l + " emulated µs");
      headers.push_back("predicted");
    } else {
      headers.push_back(l + " predicted µs");
    }
  }
  TextTable table(headers);
  for (const auto& [m, by_label] : rows) {
    std::vector<std::string> cells = {std::to_string(m)};
    for (const auto& l : labels) {
      auto it = by_label.find(l);
      const CaseOutcome* o = it == by_label.end() ? nullptr : it->second;
      if (!o || !o->result) {
        cells.push_back(o ? "error" : "");
        if (emulated) cells.push_back("");
        continue;
      }
      if (emulated)
        cells.push_back(fixed(o->result->report.makespan_us()) + (o->result->verified ? "" : " (NOT VERIFIED)"));
      cells.push_back(o->result->predicted ? fixed(to_us(*o->result->predicted)) : "n/a");
    }
    table.add_row(cells);
  }
  table.print(out);
}

int sweep(const SweepOptions& options, std::ostream& out, std::ostream& err) {
  const harness::KernelFamily& kernel = harness::find_family(options.kernel);
  MachineFamily family = options.machine.build_family();
  if (!options.predicted_only) {
    if (auto note = make_forced_safe_in_real_time(family, options.machine.given("protocol")); !note.empty())
      err << "hcemu: note: " << note << '\n';
    if (auto note = placing_early_unused(family.settings); !note.empty()) err << "hcemu: note: " << note << '\n';
  }
  const MachineConfig& config = family.config;
  const EmulatorSettings& settings = family.settings;
  const Sync sync = options.machine.parsed_sync();
  const auto sizes = parse_size_range(options.sizes);
  if (!options.csv.empty()) check_writable(options.csv, "--csv");
  if (!options.plot.empty()) {
    check_plot_name(options.plot);
    check_writable(options.plot, "--plot");
  }
  if (!options.plot_script.empty()) {
    if (options.plot.empty()) throw UsageError("--plot-script writes the script of the --plot figure: give --plot too");
    check_writable(options.plot_script, "--plot-script");
  }
  check_distinct_outputs({{"--csv", options.csv}, {"--plot", options.plot}, {"--plot-script", options.plot_script}});
  // Every case is checked before the first run, so that a bad --algo fails at once, not after minutes.
  std::vector<std::pair<std::size_t, harness::KernelCase>> work;
  for (std::size_t m : sizes)
    for (auto& c : cases_at(kernel, config, options, m)) work.emplace_back(m, std::move(c));

  std::vector<SweepPoint> points;
  {
    Progress progress(err, "sweep " + options.kernel, work.size(), sweep_progress_line,
                      options.progress && !options.quiet && writes_files() && Progress::stderr_is_terminal());
    for (const auto& [m, c] : work) {
      progress.start(case_label(kernel, c) + " m=" + std::to_string(m));
      if (options.predicted_only)
        points.push_back({m, predict_case(kernel, config, c), false});
      else
        points.push_back({m, run_case(kernel, config, settings, c)});
      progress.finish();
    }
  }
  bool all_ok = true;
  for (const auto& p : points) all_ok = all_ok && p.outcome.ok();

  if (!options.csv.empty()) write_sweep_csv(options.csv, kernel, config, settings, points);
  if (!options.plot.empty()) draw_plot(plot_spec(kernel, config, sync, points), options.plot, options.plot_script);
  if (options.json) {
    // Each point as run's JSON without its report.
    const std::vector<bool> optimal = optimal_points(points);
    nlohmann::json runs = nlohmann::json::array();
    for (std::size_t i = 0; i < points.size(); ++i) {
      const SweepPoint& p = points[i];
      nlohmann::json j = outcome_json(kernel, config, settings, p.outcome, false);
      if (!p.emulated && p.outcome.result)
        for (const char* key : {"emulated_us", "emulated_ps", "verified", "messages", "bytes", "contention_events",
                                "forced_discards", "wall_seconds"})
          j[key] = nullptr;
      j["optimal"] = optimal[i];
      runs.push_back(std::move(j));
    }
    out << json_document("sweep", &family, "runs", std::move(runs)).dump(2) << '\n';
  } else {
    out << kernel.name << " on " << config.name << ", " << machine_shape(config) << ", sync " << to_string(sync) << ", "
        << to_string(settings.timing) << " timing\n\n";
    print_table(out, kernel, points);
    if (!options.csv.empty()) out << "CSV written to " << options.csv << '\n';
    if (!options.plot.empty()) out << "plot written to " << options.plot << '\n';
    if (!options.plot_script.empty()) out << "gnuplot script written to " << options.plot_script << '\n';
  }
  for (const auto& p : points)
    if (!p.outcome.error.empty() || !p.outcome.warning.empty())
      err << "hcemu: " << (p.outcome.error.empty() ? "warning: " : "") << case_label(kernel, p.outcome.requested)
          << " at m = " << p.m << ": " << (p.outcome.error.empty() ? p.outcome.warning : p.outcome.error) << '\n';
  return all_ok ? kExitOk : kExitRunFailed;
}

}  // namespace

Action add_sweep_command(CLI::App& app) {
  auto options = std::make_shared<SweepOptions>();
  auto* sub = app.add_subcommand("sweep", "Emulated and predicted time against m, one curve per algorithm or "
                                          "partition; CSV, JSON and a gnuplot figure");
  sub->add_option("kernel", options->kernel, kernel_names())->required();
  add_sizes_option(*sub, options->sizes);
  options->cases.add_to(*sub, true);
  options->machine.add_to(*sub);
  sub->add_option("--csv", options->csv,
                  "Write the points to FILE, one row per algorithm and m (docs/cli.md lists the columns)")
      ->type_name("FILE");
  sub->add_flag("--json", options->json,
                "Print JSON: schema_version, context, and runs, one object per algorithm and m (docs/cli.md)");
  sub->add_option("--plot", options->plot, "Draw the curves with gnuplot into FILE (.png, .svg or .pdf)")
      ->type_name("FILE");
  sub->add_option("--plot-script", options->plot_script,
                  "Also write the gnuplot script that draws the --plot figure to FILE, to edit and run again")
      ->type_name("FILE");
  sub->add_flag("-q,--quiet", options->quiet, "No progress line on stderr (shown after 2 s when stderr is a terminal)");
  sub->add_flag("!--no-progress", options->progress, "The same as --quiet");
  sub->add_flag("--predicted-only", options->predicted_only,
                "Evaluate the closed forms only, emulating nothing: instant for any machine size (curves without "
                "a closed form, such as direct on a torus, show n/a)");
  return [options](std::ostream& out, std::ostream& err) { return sweep(*options, out, err); };
}

}  // namespace hcemu::cli
