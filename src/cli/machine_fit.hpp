#pragma once
// `hcemu fit`: measure the machine as the papers measured theirs — ping-pong at every distance and a range of
// sizes, pairwise exchange, barrier, permutation, compute — on cubes of several dimensions, and fit the model's
// parameters (docs/model.md §2) by least squares.
#include <optional>
#include <string>
#include <vector>

#include "cli/config_builder.hpp"
#include "hcemu/config.hpp"

namespace hcemu::cli {

// One fitted parameter beside its configured value.
struct FitRow {
  std::string key;          // "lambda", "tau", "barrier_b", ... ("lambda+delta_msg" where they cannot be split)
  std::string measured_by;  // "ping-pong", "exchange", "barrier", "permute", "compute"
  double fitted = 0;
  double configured = 0;
  double r_squared = 0;        // of the regression the parameter came from
  double max_residual_us = 0;  // of that regression
  std::size_t samples = 0;
  std::string note;
};

struct MachineFitResult {
  std::vector<FitRow> rows;
  std::vector<int> dimensions;  // the cubes measured
  std::vector<std::string> notes;
};

struct MachineFitOptions {
  int repetitions = 0;  // per point; 0: 1 under virtual timing, 5 otherwise (the median is used)
  int max_dimension = 6;  // the cubes measured are d = 1 .. min(max(config d, 2), max_dimension)
  int only_dimension = 0;  // > 0: the one cube measured (spread over MPI ranks, one node per rank)
};

// Throws UsageError when the machine cannot be measured (d = 0 has no messages). Run errors propagate.
MachineFitResult fit_machine(const MachineFamily& family, const MachineFitOptions& options = {});

}  // namespace hcemu::cli
