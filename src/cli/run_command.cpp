// `hcemu run <kernel>`: run one kernel case (or every algorithm) and set the emulated time beside the prediction.
#include <CLI/CLI.hpp>
#include <atomic>
#include <memory>
#include <ostream>

#include "cli/case_runner.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/json_document.hpp"
#include "cli/kernel_options.hpp"
#include "cli/machine_options.hpp"
#include "cli/option_checks.hpp"
#include "cli/output_file.hpp"
#include "cli/progress.hpp"
#include "cli/real_time.hpp"
#include "cli/text_table.hpp"
#include "cli/trace_writer.hpp"
#include "report/report_json_writer.hpp"

namespace hcemu::cli {

namespace {

struct RunOptions {
  MachineOptions machine;
  KernelOptions cases;
  std::string kernel;
  std::size_t m = 64;
  bool json = false;
  bool json_nodes = false;
  bool quiet = false;
  TraceOptions trace;

  std::string algo() const { return cases.algos().empty() ? "" : cases.algos().back(); }
  std::string partition() const { return cases.partitions().empty() ? "" : cases.partitions().back(); }
};

// The case's predicted time for the progress line, 0 where the model has none (or the case is refused: the run says
// why).
Time predicted_or_zero(const harness::KernelFamily& kernel, const MachineConfig& config,
                       const harness::KernelCase& c) {
  try {
    return kernel.predict(config, c).value_or(0);
  } catch (const std::exception&) {
    return 0;
  }
}

void print_machine_line(std::ostream& out, const MachineConfig& c, const EmulatorSettings& s,
                        const harness::KernelFamily& kernel, std::size_t m, Sync sync, bool lambda0_kept) {
  // "m = 64 bytes", or what m is for the kernels whose m counts something else ("m = 64 (the side of ...)").
  const std::string_view m_is = kernel.m_is;
  const std::string unit = m_is.starts_with("bytes") ? " bytes" : " (" + std::string(m_is) + ")";
  out << c.name << ": " << machine_shape(c) << ", " << to_string(c.switching) << ", ports " << c.ports.str() << ", "
      << to_string(c.protocol) << ", " << to_string(s.timing) << " timing; m = " << m << unit << ", sync "
      << to_string(sync) << (process_ranks() > 1 ? "; over " + std::to_string(process_ranks()) + " MPI ranks" : "")
      << "\n";
  // A preset's own λ0 outlives `--set lambda=...`; say so, since a zero-byte message then costs something else.
  if (lambda0_kept && c.lambda0 && *c.lambda0 != c.lambda)
    out << "note: zero-byte messages start up in lambda0 = " << *c.lambda0 << " µs, not lambda = " << c.lambda
        << " µs (set lambda0 too to change it)\n";
}

std::string difference(const CaseOutcome& o) {
  if (!o.result || !o.result->predicted) return "";
  Time diff = o.result->report.makespan - *o.result->predicted;
  if (diff == 0) return "0";
  return (diff > 0 ? "+" : "") + fixed(to_us(diff), 2);
}

// The paper's own table figure for a row (Algorithm::paper_table): blank for a row that has none, n/a where the row
// has one but not for this machine (or native timing measures the host).
std::string table_cell(const harness::KernelFamily& family, const harness::KernelCase& c, const harness::KernelResult& r) {
  if (r.paper_table) return fixed(to_us(*r.paper_table));
  return family.algorithm(c.algo).paper_table ? "n/a" : "";
}

void print_table(std::ostream& out, const harness::KernelFamily& family, const std::vector<CaseOutcome>& outcomes) {
  int best = optimal_index(outcomes);
  bool host = false;  // native timing: the model's columns read n/a and the mark follows the measurement
  for (const auto& o : outcomes) host = host || (o.result && measures_the_host(o.result->report.settings));
  // "table µs" only where some row run prints its paper's table figure beside the prediction.
  bool tables = false;
  for (const auto& o : outcomes) {
    const auto& c = o.result ? o.result->run_case : o.requested;
    tables = tables || static_cast<bool>(family.algorithm(c.algo).paper_table);
  }
  std::vector<std::string> headers = {"", "algorithm", "predicted µs"};
  if (tables) headers.push_back("table µs");
  for (const char* h : {"emulated µs", "emulated-predicted", "lower bound µs", "verified", "messages", "contention",
                        "discards"})
    headers.push_back(h);
  TextTable table(headers, 2);  // the optimal mark and the algorithm name each panel of a narrow terminal
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const auto& o = outcomes[i];
    std::string mark = static_cast<int>(i) == best ? "*" : "";
    const auto& c = o.result ? o.result->run_case : o.requested;
    std::vector<std::string> cells = {mark, case_label(family, c)};
    if (!o.result) {
      // The first line only: a deadlock's full list of blocked nodes follows on stderr.
      cells.resize(tables ? 7 : 6);
      cells.push_back("error: " + o.error.substr(0, o.error.find('\n')));
      table.add_row(std::move(cells));
      continue;
    }
    const auto& r = *o.result;
    cells.push_back(r.predicted ? fixed(to_us(*r.predicted)) : "n/a");
    if (tables) cells.push_back(table_cell(family, c, r));
    for (std::string cell : {fixed(r.report.makespan_us()), host ? "n/a" : difference(o),
                             r.lower_bound ? fixed(to_us(*r.lower_bound)) : host ? "n/a" : "",
                             r.verified ? "yes" : "NO: " + r.verify_message, std::to_string(r.report.messages()),
                             std::to_string(r.report.contention_events()),
                             std::to_string(r.report.forced_discards.size())})
      cells.push_back(std::move(cell));
    table.add_row(std::move(cells));
  }
  table.print(out);
  if (best >= 0 && outcomes.size() > 1)
    out << (host ? "* fastest measured (native timing measures the host, not the configured machine: its model's "
                   "columns read n/a)\n"
                 : "* optimal by the model\n");
  if (tables)
    out << "table µs: the paper's own table figure for the row, where that table idealises the algorithm; "
           "predicted µs is the exact schedule's (docs/cli.md)\n";
}

// Wall timing: a node's clock is its own running time on the host, scaled down by time_scale, plus the waits it
// injects (docs/model.md). When the host's part of the makespan passes 1%, the run says so on stderr, with the
// time_scale that would bring it under 1% (the host's part shrinks as 1/time_scale).
void warn_if_wall_inexact(std::ostream& err, const harness::KernelFamily& kernel, const harness::KernelCase& c,
                          const RunReport& report) {
  if (report.settings.timing != Timing::wall || report.makespan <= 0) return;
  double share = 0;
  for (const NodeStats& n : report.nodes)
    if (n.final_clock > 0)
      share = std::max(share, static_cast<double>(n.host_time) / static_cast<double>(n.final_clock));
  if (share <= 0.01) return;
  const double scale = report.settings.time_scale * share / 0.01;
  double suggested = 1;
  while (suggested < scale) suggested *= 10;
  err << "hcemu: warning: " << case_label(kernel, c) << ": wall timing: the host's own running time is "
      << fixed(100 * share, 1) << "% of a node's clock at time_scale " << report.settings.time_scale;
  // The most time_scale may be (its key in src/common/config_keys.cpp says why).
  constexpr double kMaxTimeScale = 1000;
  if (suggested <= kMaxTimeScale)
    err << "; --set time_scale=" << shortest(suggested) << " would bring it under 1%\n";
  else
    err << "; time_scale goes up to " << shortest(kMaxTimeScale) << ", which would bring it to "
        << fixed(100 * share * report.settings.time_scale / kMaxTimeScale, 1) << "%\n";
}

// One element of `runs`: `summary` (outcome_json) with the run's report, if it ran, under "report" where
// nlohmann::json's sorted keys would put it.
void write_run_json(hcemu::detail::JsonWriter& out, const nlohmann::json& summary, const CaseOutcome& outcome,
                    bool per_node) {
  const RunReport* report = outcome.result ? &outcome.result->report : nullptr;
  const auto write_report = [&] {
    out.key("report");
    hcemu::detail::write_report_json(out, *report, per_node);
    report = nullptr;
  };
  out.begin_object();
  for (const auto& [key, value] : summary.items()) {
    if (report && key > "report") write_report();
    out.key(key).value(value);
  }
  if (report) write_report();
  out.end_object();
}

int run(const RunOptions& options, std::ostream& out, std::ostream& err) {
  const harness::KernelFamily& kernel = harness::find_family(options.kernel);
  MachineFamily family = options.machine.build_family();
  if (auto note = make_forced_safe_in_real_time(family, options.machine.given("protocol")); !note.empty())
    err << "hcemu: note: " << note << '\n';
  if (auto note = placing_early_unused(family.settings); !note.empty()) err << "hcemu: note: " << note << '\n';
  const MachineConfig& config = family.config;
  EmulatorSettings settings = family.settings;
  if (options.trace.wanted()) {
    check_writable(options.trace.path, "--trace");
    check_distinct_outputs({{"--trace", options.trace.path}});
    options.trace.filter(config.nodes());  // a bad list or window fails now, not after the runs
    settings.trace = true;
  }
  const CaseRequest request =
      options.cases.request(options.algo(), options.partition(), options.m, options.machine.parsed_sync());
  auto cases = select_cases(kernel, config, request);

  std::vector<CaseOutcome> outcomes;
  {
    const bool show_progress = !options.quiet && writes_files() && Progress::stderr_is_terminal();
    Progress progress(err, "run " + options.kernel, cases.size(), run_progress_line, show_progress);
    // Inside a case the line says how far the placer is in model time against the case's prediction
    // (EmulatorSettings::model_time_placed), or where the model has none, counts the nodes whose kernels have returned
    // (EmulatorSettings::nodes_done); each only when the line is shown.
    std::atomic<std::uint64_t> nodes_done{0};
    std::atomic<Time> model_time_placed{0};
    EmulatorSettings counted = settings;
    if (show_progress) {
      counted.nodes_done = &nodes_done;
      counted.model_time_placed = &model_time_placed;
    }
    for (const auto& c : cases) {
      nodes_done.store(0, std::memory_order_relaxed);
      model_time_placed.store(0, std::memory_order_relaxed);
      progress.start(case_label(kernel, c), nodes_done, static_cast<std::uint64_t>(config.nodes()), "nodes");
      if (show_progress) progress.model_time(model_time_placed, predicted_or_zero(kernel, config, c));
      outcomes.push_back(run_case(kernel, config, counted, c));
      progress.finish();
    }
    if (options.trace.wanted()) {
      std::vector<LabelledReport> runs;
      for (const auto& o : outcomes) {
        if (o.result) runs.push_back({case_label(kernel, o.result->run_case), &o.result->report});
        // What a deadlocked case did until it stuck, and where each node stuck: often the way to see why.
        if (o.deadlocked) runs.push_back({case_label(kernel, o.requested) + " (deadlock)", o.deadlocked.get()});
      }
      progress.start("writing " + options.trace.path);
      write_chrome_trace(options.trace, runs,
                         [&](const std::string& warning) { progress.message("hcemu: warning: " + warning + "\n"); });
    }
  }  // the progress line is cleared before anything else is printed

  for (const auto& o : outcomes) {
    if (o.result) warn_if_wall_inexact(err, kernel, o.result->run_case, o.result->report);
    if (!o.warning.empty()) err << "hcemu: warning: " << case_label(kernel, o.requested) << ": " << o.warning << '\n';
  }

  bool all_ok = true;
  for (const auto& o : outcomes) all_ok = all_ok && o.ok();
  if (options.json) {
    // Streamed (report/report_json_writer.hpp): the reports' per-node arrays go out as written, never as a tree.
    const int best = optimal_index(outcomes);
    hcemu::detail::JsonRunsDocument document(out, run_context("run", &family));
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
      auto j = outcome_json(kernel, config, settings, outcomes[i], false);
      j["optimal"] = static_cast<int>(i) == best;
      write_run_json(document.writer(), j, outcomes[i], options.json_nodes);
    }
    document.close();
    return all_ok ? kExitOk : kExitRunFailed;
  }

  print_machine_line(out, config, settings, kernel, request.m, request.sync,
                     options.machine.lambda_changed_but_not_lambda0());
  out << kernel.name << ": " << kernel.summary << "\n\n";
  print_table(out, kernel, outcomes);
  if (options.algo() == "all" || (options.algo().empty() && options.partition().empty()))
    for (const auto& [why, names] : left_out_of_all(kernel, config, cases))
      out << "--algo all left out " << names << ": " << why << '\n';
  if (outcomes.size() == 1 && outcomes.front().result) {
    out << '\n';
    outcomes.front().result->report.print(out);
  } else if (outcomes.size() > 1) {
    out << "(run one algorithm, e.g. --algo " << outcomes.front().requested.algo << ", for its full report)\n";
    for (const auto& o : outcomes)
      if (o.result && o.result->report.engine_stats) {
        out << '\n' << case_label(kernel, o.result->run_case) << ":\n";
        o.result->report.engine_stats->print(out);
      }
  }
  for (const auto& o : outcomes)
    if (!o.error.empty()) err << "hcemu: " << case_label(kernel, o.requested) << ": " << o.error << '\n';
  if (options.trace.wanted()) out << "trace written to " << options.trace.path << '\n';
  return all_ok ? kExitOk : kExitRunFailed;
}

}  // namespace

Action add_run_command(CLI::App& app) {
  auto options = std::make_shared<RunOptions>();
  auto* sub = app.add_subcommand("run", "Run a kernel: emulated time beside the model's prediction, and the report");
  sub->add_option("kernel", options->kernel, kernel_names())->required();
  add_size_option(*sub, options->m);
  options->cases.add_to(*sub, false);
  options->machine.add_to(*sub);
  sub->add_flag("--json", options->json,
                "Print JSON: schema_version, context, and runs, one object per algorithm (docs/cli.md)");
  sub->add_flag("--json-nodes", options->json_nodes,
                "With --json: each run's report has its per-node and per-link statistics (nodes, links)")
      ->needs("--json");
  options->trace.add_to(*sub);
  sub->add_flag("-q,--quiet", options->quiet, "No progress line on stderr (shown after 2 s when stderr is a terminal)");
  return [options](std::ostream& out, std::ostream& err) { return run(*options, out, err); };
}

}  // namespace hcemu::cli
