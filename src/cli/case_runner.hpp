#pragma once
// Running kernel cases for `run`, `sweep` and `fit`: which cases a request selects (read off the algorithms' rows,
// src/harness/algorithm.hpp), running each, and the label and JSON object of one outcome.
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "harness/algorithm.hpp"

namespace hcemu::cli {

// A node parameter (--dst) that was not given: any other value, negative ones too, was.
inline constexpr std::int64_t kNodeNotGiven = std::numeric_limits<std::int64_t>::min();

struct CaseRequest {
  std::string algo;  // empty: every algorithm without a partition, else the one algorithm that takes one
  std::vector<int> partition;
  std::size_t m = 64;
  Sync sync = Sync::none;
  int root = 0;
  bool root_given = false;  // --root: only a rooted kernel takes one
  std::uint64_t seed = 1;
  std::map<std::string, std::uint64_t, std::less<>> numbers;  // algorithm parameters given by name (--groups 5)
  std::map<std::string, std::string, std::less<>> texts;      // words given by name (--perm shuffle); empty: not given
  std::map<std::string, std::int64_t, std::less<>> nodes;     // nodes given by name (--dst 0), or kNodeNotGiven
  std::map<std::string, std::vector<int>, std::less<>> lists;  // list parameters given by name (--grid 1,2)
  std::uint64_t pieces = 0;  // the older --pieces: each algorithm's granularity parameter; 0 = not given
  // Several algorithms were asked for at once (sweep's --algo A,B): a parameter goes to those that take it, and is
  // an error only when none does.
  bool among_several = false;
};

// The cases to run. Throws UsageError for an unknown algorithm (with the nearest one), a partition that does not
// sum to d, or a parameter that the algorithm (with --algo all: every algorithm of the kernel) does not take.
std::vector<harness::KernelCase> select_cases(const harness::KernelFamily& family, const MachineConfig& config,
                                              const CaseRequest& request);

// "--pieces sets the pipelining granularity of broadcast bcast4 (g) and nesbt (B), transpose stout-wagar (P)".
std::string granularity_help();

// The algorithms `--algo all` left out of `cases` on this machine, those that share a reason together: (why,
// "bcast2, sbnt"), in the rows' order.
std::vector<std::pair<std::string, std::string>> left_out_of_all(const harness::KernelFamily& family,
                                                                  const MachineConfig& config,
                                                                  const std::vector<harness::KernelCase>& cases);

struct CaseOutcome {
  harness::KernelCase requested;
  std::optional<harness::KernelResult> result;  // empty when the run threw
  std::string error;                            // what it threw
  std::shared_ptr<const RunReport> deadlocked;  // a run that deadlocked: what it did until it stuck (its trace too)
  std::string warning;  // a run that finished but lost FORCED messages under wall or native timing: how to avoid it
  bool ok() const { return result && result->verified && error.empty(); }
};

// Under native timing the result has no prediction and no lower bound (cli/real_time.hpp); under wall or native
// timing a FORCED loss names the options that avoid it, in the error or the warning.
CaseOutcome run_case(const harness::KernelFamily& family, const MachineConfig& config, const EmulatorSettings& settings,
                     const harness::KernelCase& c);

// "multiphase (2,3)", "direct (5)", "bcast4 g=15": the algorithm, its partition, and its other parameters by the
// papers' symbols.
std::string case_label(const harness::KernelFamily& family, const harness::KernelCase& c);

// The index of the case the model says is fastest (smallest prediction; without predictions, as under native timing,
// the smallest emulated time), or -1.
int optimal_index(const std::vector<CaseOutcome>& outcomes);
int optimal_index(const std::vector<const CaseOutcome*>& outcomes);

nlohmann::json outcome_json(const harness::KernelFamily& family, const MachineConfig& config,
                            const EmulatorSettings& settings, const CaseOutcome& outcome, bool with_report = true);

}  // namespace hcemu::cli
