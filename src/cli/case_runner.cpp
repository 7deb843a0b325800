#include "cli/case_runner.hpp"

#include <algorithm>
#include <numeric>

#include "cli/cli_error.hpp"
#include "cli/config_builder.hpp"
#include "cli/machine_options.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/report_json.hpp"

namespace hcemu::cli {

namespace {
bool has_algo(const kernels::KernelInfo& kernel, const std::string& algo) {
  for (const auto& a : kernel.algos)
    if (a == algo) return true;
  return false;
}

// The algorithms that take KernelCase::partition.
bool takes_partition(const std::string& algo) { return algo == "multiphase" || algo == "rows-multiphase"; }

std::string known_algos(const kernels::KernelInfo& kernel) {
  std::string list;
  for (const auto& a : kernel.algos) list += (list.empty() ? "" : ", ") + a;
  return list + ", all";
}
}  // namespace

const kernels::KernelInfo& find_kernel_or_explain(const std::string& name) {
  std::vector<std::string> names;
  for (const auto& k : kernels::registry()) {
    if (k.name == name) return k;
    names.push_back(k.name);
  }
  std::string hint = nearest_key(name, names), list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  throw UsageError("no kernel named '" + name + "'" + (hint.empty() ? "" : "; did you mean '" + hint + "'?") +
                     " (kernels: " + list + ")");
}

std::vector<kernels::KernelCase> select_cases(const kernels::KernelInfo& kernel, const MachineConfig& config,
                                              const CaseRequest& request) {
  kernels::KernelCase base;
  base.partition = request.partition;
  base.m = request.m;
  base.sync = request.sync;
  base.root = request.root;
  base.seed = request.seed;
  base.pieces = request.pieces;
  std::string algo = request.algo;
  if (algo.empty()) algo = request.partition.empty() ? "all" : (has_algo(kernel, "multiphase") ? "multiphase" : "");
  if (algo.empty()) throw UsageError("kernel '" + kernel.name + "' takes no --partition");
  if (request.root < 0 || request.root >= config.nodes())
    throw UsageError("--root " + std::to_string(request.root) + " is not a node of a cube of " +
                       std::to_string(config.nodes()) + " nodes");
  const std::string pieces_help =
      "--pieces sets the pipelining granularity of broadcast bcast4 (g) and nesbt (chunk bytes) and of transpose "
      "stout-wagar (P)";
  if (algo == "all") {
    if (!request.partition.empty()) throw UsageError("--algo all runs every partition; drop --partition");
    if (request.pieces != 0 &&
        std::none_of(kernel.algos.begin(), kernel.algos.end(), [](const auto& a) { return !pieces_name(a).empty(); }))
      throw UsageError("kernel '" + kernel.name + "' takes no --pieces (" + pieces_help + ")");
    return kernel.expand_all(config, base);
  }
  if (!has_algo(kernel, algo)) {
    std::string hint = nearest_key(algo, kernel.algos);
    throw UsageError("kernel '" + kernel.name + "' has no algorithm '" + algo + "'" +
                       (hint.empty() ? "" : "; did you mean '" + hint + "'?") + " (algorithms: " +
                       known_algos(kernel) + ")");
  }
  if (!request.partition.empty() && !takes_partition(algo))
    throw UsageError("--partition is the multiphase exchange's (exchange multiphase, transpose rows-multiphase); "
                       "algorithm '" + algo + "' takes none" +
                       (pieces_name(algo).empty() ? "" : " (its " + pieces_name(algo) + " is --pieces)"));
  if (request.pieces != 0 && pieces_name(algo).empty())
    throw UsageError("algorithm '" + algo + "' takes no --pieces (" + pieces_help + ")");
  if (!request.partition.empty()) {
    int sum = std::accumulate(request.partition.begin(), request.partition.end(), 0);
    if (sum != config.d)
      throw UsageError("--partition " + partition_label(request.partition) + " sums to " + std::to_string(sum) +
                         " but the cube has d = " + std::to_string(config.d));
  }
  base.algo = algo;
  return {base};
}

CaseOutcome run_case(const kernels::KernelInfo& kernel, const MachineConfig& config, const EmulatorSettings& settings,
                     const kernels::KernelCase& c) {
  CaseOutcome outcome;
  outcome.requested = c;
  try {
    outcome.result = kernel.run(config, settings, c);
  } catch (const UsageError&) {
    throw;  // a case the kernel refuses is bad usage, not a failed run
  } catch (const std::exception& e) {
    outcome.error = e.what();
  }
  return outcome;
}

std::string pieces_name(const std::string& algo) {
  if (algo == "bcast4") return "g";        // Stout & Wagar §2, BROADCAST 4's groups
  if (algo == "nesbt") return "chunk";     // Johnsson & Ho §3.4, bytes per chunk
  if (algo == "stout-wagar") return "P";   // Stout & Wagar §7.2, packets per physical link
  return "";
}

std::string case_label(const kernels::KernelCase& c) {
  std::string label = c.algo;
  if (!c.partition.empty()) label += " " + partition_label(c.partition);
  if (c.pieces != 0 && !pieces_name(c.algo).empty()) label += " " + pieces_name(c.algo) + "=" + std::to_string(c.pieces);
  return label;
}

int optimal_index(const std::vector<CaseOutcome>& outcomes) {
  int best = -1;
  bool by_prediction = true;
  for (const auto& o : outcomes)
    if (!o.result || !o.result->predicted) by_prediction = false;
  Time best_time = kNever;
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const auto& o = outcomes[i];
    if (!o.result) continue;
    Time t = by_prediction ? *o.result->predicted : o.result->report.makespan;
    if (t < best_time) best_time = t, best = static_cast<int>(i);
  }
  return best;
}

nlohmann::json outcome_json(const std::string& kernel, const MachineConfig& config, const EmulatorSettings& settings,
                            const CaseOutcome& outcome, bool with_report) {
  const kernels::KernelCase& c = outcome.result ? outcome.result->run_case : outcome.requested;
  nlohmann::json j;
  j["kernel"] = kernel;
  j["algo"] = c.algo;
  j["partition"] = c.partition;
  // The g / chunk / P that ran (as requested when the run threw); null for the algorithms without one.
  j["pieces"] = pieces_name(c.algo).empty() ? nlohmann::json(nullptr) : nlohmann::json(c.pieces);
  j["d"] = config.d;
  j["m"] = c.m;
  j["sync"] = std::string(to_string(c.sync));
  j["config"] = config.name;
  j["timing"] = std::string(to_string(settings.timing));
  j["seed"] = c.seed;
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
  j["emulated_ps"] = r.report.makespan;
  j["verified"] = r.verified;
  if (!r.verify_message.empty()) j["verify_message"] = r.verify_message;
  j["messages"] = r.report.messages();
  j["bytes"] = r.report.bytes();
  j["contention_events"] = r.report.contention_events();
  j["forced_discards"] = r.report.forced_discards.size();
  j["wall_seconds"] = r.report.wall_seconds;
  if (with_report) j["report"] = to_json(r.report);
  return j;
}

}  // namespace hcemu::cli
