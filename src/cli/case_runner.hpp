#pragma once
// Running kernel cases for `run` and `sweep`: which cases an --algo selects, running each, and the JSON object of
// one outcome (the keys issue 5 asks `hcemu run --json` for).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hcemu/kernels/registry.hpp"

namespace hcemu::cli {

struct CaseRequest {
  std::string algo;             // empty: every algorithm when no partition is given, else multiphase
  std::vector<int> partition;
  std::size_t m = 64;
  Sync sync = Sync::none;
  int root = 0;
  std::uint64_t seed = 1;
  std::size_t pieces = 0;       // KernelCase::pieces: bcast4's g, nesbt's chunk, stout-wagar's P; 0 = optimum
};

// The kernel of that name. Throws UsageError naming the nearest kernel and all of them.
const kernels::KernelInfo& find_kernel_or_explain(const std::string& name);

// The cases to run. Throws UsageError for an unknown algorithm (with the nearest one), a partition that does
// not sum to d or given to an algorithm other than the multiphase exchange, or pieces given to an algorithm that
// has none (with --algo all: to a kernel none of whose algorithms has them).
std::vector<kernels::KernelCase> select_cases(const kernels::KernelInfo& kernel, const MachineConfig& config,
                                              const CaseRequest& request);

struct CaseOutcome {
  kernels::KernelCase requested;
  std::optional<kernels::KernelResult> result;  // empty when the run threw
  std::string error;                            // what it threw
  bool ok() const { return result && result->verified && error.empty(); }
};

CaseOutcome run_case(const kernels::KernelInfo& kernel, const MachineConfig& config, const EmulatorSettings& settings,
                     const kernels::KernelCase& c);

// What KernelCase::pieces means for the algorithm: "g" (bcast4), "chunk" (nesbt), "P" (stout-wagar), else "".
std::string pieces_name(const std::string& algo);

// "multiphase (2,3)", "direct", "bcast4 g=15" (the pieces shown when the algorithm has them and they are not 0).
std::string case_label(const kernels::KernelCase& c);

// The index of the case the model says is fastest (smallest prediction; without predictions, the smallest emulated
// time), or -1.
int optimal_index(const std::vector<CaseOutcome>& outcomes);

nlohmann::json outcome_json(const std::string& kernel, const MachineConfig& config, const EmulatorSettings& settings,
                            const CaseOutcome& outcome, bool with_report = true);

}  // namespace hcemu::cli
