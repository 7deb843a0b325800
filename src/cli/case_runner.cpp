#include "cli/case_runner.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include "cli/cli_error.hpp"
#include "cli/machine_options.hpp"
#include "cli/real_time.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/report_json.hpp"

namespace hcemu::cli {

namespace {

using harness::Algorithm;
using harness::KernelCase;
using harness::KernelFamily;
using harness::ParamSpec;

// Whether the algorithm takes the parameter as an input (not one it chooses itself).
bool takes(const Algorithm& row, std::string_view param) {
  const ParamSpec* p = row.param(param);
  return p && !p->chosen;
}

bool some_row_takes(const KernelFamily& family, std::string_view param) {
  for (const Algorithm& row : family.algorithms)
    if (takes(row, param)) return true;
  return false;
}

// "exchange multiphase, transpose rows-multiphase": every algorithm of every kernel that takes the parameter.
// A kernel all of whose algorithms take it (long-send's --src) is named alone.
std::string takers_of(std::string_view param) {
  std::string list;
  for (const KernelFamily& family : harness::families()) {
    std::string rows;
    std::size_t count = 0;
    for (const Algorithm& row : family.algorithms)
      if (takes(row, param)) {
        rows += (rows.empty() ? "" : ", ") + std::string(family.name) + " " + std::string(row.name);
        ++count;
      }
    if (count == 0) continue;
    list +=
        (list.empty() ? "" : ", ") +
        (count == family.algorithms.size() && count > 1 ? "every " + std::string(family.name) + " algorithm" : rows);
  }
  return list;
}

// " (its g is --pieces or --groups)": how the algorithm's own parameters are given.
std::string its_parameters(const Algorithm& row) {
  std::string text;
  for (const ParamSpec& p : row.params) {
    if (p.chosen) continue;
    const std::string name(p.symbol.empty() ? p.name : p.symbol);
    const std::string flag = "--" + std::string(p.name);
    text +=
        std::string(text.empty() ? "" : "; ") + "its " + name + " is " + (p.granularity ? "--pieces or " + flag : flag);
  }
  return text.empty() ? "" : " (" + text + ")";
}

[[noreturn]] void takes_no(const std::string& who, std::string_view flag) {
  const std::string help =
      flag == "pieces" ? granularity_help() : "--" + std::string(flag) + " is a parameter of " + takers_of(flag);
  throw UsageError(who + " takes no --" + std::string(flag) + " (" + help + ")");
}

// The words and nodes of the request, by name: those given.
std::vector<std::string> given_words_and_nodes(const CaseRequest& request) {
  std::vector<std::string> names;
  for (const auto& [name, parts] : request.lists) names.push_back(name);
  for (const auto& [name, value] : request.texts)
    if (!value.empty()) names.push_back(name);
  for (const auto& [name, value] : request.nodes) {
    if (value == kNodeNotGiven) continue;
    if (value < 0) throw UsageError("--" + name + " " + std::to_string(value) + " is not a node (nodes are 0, 1, ...)");
    names.push_back(name);
  }
  return names;
}

// The words and nodes of the request that `row` takes (every one when `row` is null), into `c`.
void give_words_and_nodes(const Algorithm* row, const CaseRequest& request, KernelCase& c) {
  for (const auto& [name, value] : request.texts)
    if (!value.empty() && (!row || takes(*row, name))) c.params.set(name, value);
  for (const auto& [name, value] : request.nodes)
    if (value >= 0 && value != kNodeNotGiven && (!row || takes(*row, name)))
      c.params.set(name, static_cast<std::uint64_t>(value));
}

// The parameters of the request that `row` takes, into `c`.
void give(const Algorithm& row, const CaseRequest& request, KernelCase& c) {
  for (const auto& [name, value] : request.numbers)
    if (value != 0 && takes(row, name)) c.params.set(name, value);
  give_words_and_nodes(&row, request, c);
  if (const ParamSpec* g = row.granularity(); g && request.pieces != 0 && !c.params.has(g->name))
    c.params.set(std::string(g->name), request.pieces);
  if (!request.partition.empty() && takes(row, "partition")) c.params.set("partition", request.partition);
  for (const auto& [name, parts] : request.lists)
    if (takes(row, name)) c.params.set(name, parts);
}

}  // namespace

std::string granularity_help() {
  std::string list;
  for (const KernelFamily& family : harness::families()) {
    std::string rows;
    for (const Algorithm& row : family.algorithms)
      if (const ParamSpec* g = row.granularity())
        rows += (rows.empty() ? "" : " and ") + std::string(row.name) + " (" + std::string(g->symbol) + ", --" +
                std::string(g->name) + ")";
    if (!rows.empty()) list += (list.empty() ? "" : ", ") + std::string(family.name) + " " + rows;
  }
  return "--pieces sets the pipelining granularity of " + list;
}

std::vector<std::pair<std::string, std::string>> left_out_of_all(const harness::KernelFamily& family,
                                                                  const MachineConfig& config,
                                                                  const std::vector<harness::KernelCase>& cases) {
  std::vector<std::pair<std::string, std::string>> left_out;  // reason, algorithms
  for (const Algorithm& row : family.algorithms) {
    if (std::any_of(cases.begin(), cases.end(), [&](const KernelCase& c) { return c.algo == row.name; })) continue;
    std::string why = row.cannot_run ? row.cannot_run(config) : "";
    if (why.empty() && !row.suits(config.ports)) {
      std::string ports;
      for (const Ports::Kind kind : row.ports)
        ports += (ports.empty() ? "" : " or ") + (kind == Ports::Kind::k ? std::string("k:N") : Ports{kind, 1}.str());
      why = "made for ports " + ports + ", and this machine has ports " + config.ports.str() + " (--ports " +
            ports.substr(0, ports.find(' ')) + " runs them with their closed forms; --algo NAME runs one here, " +
            "without)";
    }
    // A row that runs here but has no case among these (auto, whose case is the planner's optimum, already in the
    // list; inversion without --perm inversion) is left out by design: named only when nothing runs.
    if (why.empty() && !cases.empty()) continue;
    if (why.empty()) why = "no case of it fits these options";
    auto same = std::find_if(left_out.begin(), left_out.end(), [&](const auto& l) { return l.first == why; });
    if (same == left_out.end()) left_out.emplace_back(why, std::string(row.name));
    else same->second += ", " + std::string(row.name);
  }
  return left_out;
}


std::vector<KernelCase> select_cases(const KernelFamily& family, const MachineConfig& config,
                                     const CaseRequest& request) {
  KernelCase base;
  base.m = request.m;
  base.sync = request.sync;
  base.root = request.root;
  base.seed = request.seed;
  const std::string kernel = "kernel '" + std::string(family.name) + "'";
  std::string algo = request.algo;
  if (algo.empty()) {
    if (request.partition.empty()) {
      algo = "all";
    } else if (const Algorithm* taker = family.only_taker_of("partition")) {
      algo = std::string(taker->name);
    } else {
      throw UsageError(kernel + " takes no --partition");
    }
  }
  if (request.root_given && !family.rooted) {
    std::string rooted;
    for (const KernelFamily& f : harness::families())
      if (f.rooted) rooted += (rooted.empty() ? "" : ", ") + std::string(f.name);
    throw UsageError(kernel + " takes no --root (" + rooted + " take one)");
  }
  if (request.root < 0 || request.root >= config.nodes())
    throw UsageError("--root " + std::to_string(request.root) + " is not a node of a cube of " +
                     std::to_string(config.nodes()) + " nodes");

  if (algo == "all") {
    if (!request.partition.empty()) throw UsageError("--algo all runs every partition; drop --partition");
    for (const auto& [name, value] : request.numbers)
      if (value != 0 && !some_row_takes(family, name)) takes_no(kernel, name);
    for (const std::string& name : given_words_and_nodes(request))
      if (!some_row_takes(family, name)) takes_no(kernel, name);
    bool granular = false;
    for (const Algorithm& row : family.algorithms) granular = granular || row.granularity();
    if (request.pieces != 0 && !granular) takes_no(kernel, "pieces");
    // A machine none of the kernel's algorithms can run (a torus for a kernel made for the cube): refused up front,
    // with the reason, as one algorithm asked for by name is.
    std::string reason;
    for (const Algorithm& row : family.algorithms) {
      reason = row.cannot_run ? row.cannot_run(config) : "";
      if (reason.empty()) break;
    }
    if (!reason.empty()) throw UsageError(std::string(family.name) + ": no algorithm runs on this machine: " + reason);
    // The rows that choose their cases (all_cases) see the permutation and the pair they will run with.
    give_words_and_nodes(nullptr, request, base);
    auto cases = family.expand_all(config, base);
    if (cases.empty()) {
      // Nothing to run, rather than an empty table: why each algorithm was left out, the algorithms that share a
      // reason together.
      const auto left_out = left_out_of_all(family, config, cases);
      std::string why;
      for (const auto& [because, names] : left_out) why += (why.empty() ? "" : "; ") + names + ": " + because;
      throw UsageError(std::string(family.name) + ": --algo all leaves out every algorithm on this machine: " + why);
    }
    for (KernelCase& c : cases) give(family.algorithm(c.algo), request, c);
    return cases;
  }

  const Algorithm& row = family.algorithm(algo);
  const std::string who = "algorithm '" + algo + "'";
  if (!request.among_several) {
    if (!request.partition.empty() && !takes(row, "partition"))
      throw UsageError("--partition is a parameter of " + takers_of("partition") + "; " + who + " takes none" +
                       its_parameters(row));
    if (request.pieces != 0 && !row.granularity()) takes_no(who, "pieces");
    for (const auto& [name, value] : request.numbers)
      if (value != 0 && !takes(row, name)) takes_no(who, name);
    for (const std::string& name : given_words_and_nodes(request))
      if (!takes(row, name)) takes_no(who, name);
  }
  if (!request.partition.empty() && takes(row, "partition")) {
    const int sum = std::accumulate(request.partition.begin(), request.partition.end(), 0);
    if (sum != config.d)
      throw UsageError("--partition " + partition_label(request.partition) + " sums to " + std::to_string(sum) +
                       " but the cube has d = " + std::to_string(config.d));
  }
  base.algo = algo;
  give(row, request, base);
  return {base};
}

CaseOutcome run_case(const KernelFamily& family, const MachineConfig& config, const EmulatorSettings& settings,
                     const KernelCase& c) {
  CaseOutcome outcome;
  outcome.requested = c;
  try {
    outcome.result = family.run(config, settings, c);
  } catch (const UsageError&) {
    throw;  // a case the kernel refuses is bad usage, not a failed run
  } catch (const DeadlockError& e) {
    outcome.error = e.what();
    outcome.deadlocked = e.report;
  } catch (const std::exception& e) {
    outcome.error = e.what();
  }
  const std::string fix = real_time_forced_fix(config, settings);
  const bool lost = outcome.deadlocked ? !outcome.deadlocked->forced_discards.empty()
                                       : outcome.result && !outcome.result->report.forced_discards.empty();
  if (!fix.empty() && lost) {
    if (!outcome.error.empty()) outcome.error += "\n  " + fix;
    else outcome.warning = std::to_string(outcome.result->report.forced_discards.size()) + " message(s) lost: " + fix;
  }
  if (outcome.result && measures_the_host(settings)) {
    outcome.result->predicted.reset();
    outcome.result->lower_bound.reset();
    outcome.result->paper_table.reset();
  }
  return outcome;
}

std::string case_label(const KernelFamily& family, const KernelCase& c) {
  std::string label = c.algo;
  const auto& partition = c.params.parts("partition");
  if (!partition.empty()) label += " " + partition_label(partition);
  for (const harness::Algorithm& row : family.algorithms) {
    if (row.name != c.algo) continue;
    for (const ParamSpec& p : row.params) {
      const std::string symbol(p.symbol.empty() ? p.name : p.symbol);
      if (p.kind == harness::ParamKind::text) {
        if (!c.params.text(p.name).empty()) label += " " + symbol + "=" + c.params.text(p.name);
        continue;
      }
      if (p.kind == harness::ParamKind::node) {
        if (c.params.has(p.name)) label += " " + symbol + "=" + std::to_string(c.params.number(p.name));
        continue;
      }
      if (p.kind == harness::ParamKind::partition) {
        if (p.name != "partition" && !c.params.parts(p.name).empty())
          label += " " + std::string(p.name) + "=" + partition_label(c.params.parts(p.name));
        continue;
      }
      if (c.params.number(p.name) == 0) continue;
      label += " " + symbol + "=" + std::to_string(c.params.number(p.name));
    }
  }
  return label;
}

int optimal_index(const std::vector<const CaseOutcome*>& outcomes) {
  int best = -1;
  bool by_prediction = true;
  for (const CaseOutcome* o : outcomes)
    if (!o->result || !o->result->predicted) by_prediction = false;
  Time best_time = kNever;
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const CaseOutcome& o = *outcomes[i];
    if (!o.result) continue;
    Time t = by_prediction ? *o.result->predicted : o.result->report.makespan;
    if (t < best_time) best_time = t, best = static_cast<int>(i);
  }
  return best;
}

int optimal_index(const std::vector<CaseOutcome>& outcomes) {
  std::vector<const CaseOutcome*> pointers;
  for (const CaseOutcome& o : outcomes) pointers.push_back(&o);
  return optimal_index(pointers);
}

nlohmann::json outcome_json(const KernelFamily& family, const MachineConfig& config, const EmulatorSettings& settings,
                            const CaseOutcome& outcome, bool with_report) {
  const KernelCase& c = outcome.result ? outcome.result->run_case : outcome.requested;
  nlohmann::json j;
  j["kernel"] = family.name;
  j["algo"] = c.algo;
  j["partition"] = c.params.parts("partition");
  j["params"] = nlohmann::json::object();
  for (const auto& [name, value] : c.params.values()) std::visit([&](const auto& v) { j["params"][name] = v; }, value);
  // The older key for the granularity parameter's value (groups, chunk or packets); null for the algorithms
  // without one.
  const ParamSpec* granularity = nullptr;
  for (const Algorithm& row : family.algorithms)
    if (row.name == c.algo) granularity = row.granularity();
  j["pieces"] = granularity ? nlohmann::json(c.params.number(granularity->name)) : nlohmann::json(nullptr);
  j["d"] = config.d;
  j["topology"] = topology_name(config);
  j["m"] = c.m;
  j["sync"] = std::string(to_string(c.sync));
  j["config"] = config.name;
  j["timing"] = std::string(to_string(settings.timing));
  j["seed"] = c.seed;
  if (measures_the_host(settings)) j["model_not_applicable"] = kNoModelUnderNativeTiming;
  if (!outcome.result) {
    j["predicted_us"] = nullptr;
    j["emulated_us"] = nullptr;
    j["verified"] = false;
    j["error"] = outcome.error;
    return j;
  }
  const auto& r = *outcome.result;
  j["predicted_us"] = r.predicted ? nlohmann::json(to_us(*r.predicted)) : nlohmann::json(nullptr);
  j["emulated_us"] = r.report.makespan_us();
  j["predicted_ps"] = r.predicted ? nlohmann::json(*r.predicted) : nlohmann::json(nullptr);
  j["lower_bound_us"] = r.lower_bound ? nlohmann::json(to_us(*r.lower_bound)) : nlohmann::json(nullptr);
  j["lower_bound_ps"] = r.lower_bound ? nlohmann::json(*r.lower_bound) : nlohmann::json(nullptr);
  if (r.paper_table) {
    j["paper_table_us"] = to_us(*r.paper_table);
    j["paper_table_ps"] = *r.paper_table;
  }
  j["emulated_ps"] = r.report.makespan;
  if (r.report.engine_stats) j["stats"] = *r.report.engine_stats;
  j["verified"] = r.verified;
  if (!r.verify_message.empty()) j["verify_message"] = r.verify_message;
  j["messages"] = r.report.messages();
  j["bytes"] = r.report.bytes();
  j["contention_events"] = r.report.contention_events();
  j["forced_discards"] = r.report.forced_discards.size();
  j["ranks"] = r.report.ranks;
  j["wall_seconds"] = r.report.wall_seconds;
  if (with_report) j["report"] = to_json(r.report);
  return j;
}

}  // namespace hcemu::cli
