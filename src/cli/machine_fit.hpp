#pragma once
// `hcemu fit`: measure the machine as the papers measured theirs — ping-pong at every distance and a range of
// sizes, pairwise exchange, barrier, permutation, compute — on cubes of several dimensions, and fit the model's
// parameters (docs/model.md §2) by non-negative least squares.
#include <optional>
#include <string>
#include <vector>

#include "cli/config_builder.hpp"
#include "cli/fit_row.hpp"
#include "hcemu/config.hpp"

namespace hcemu::cli {

struct MachineFitResult {
  std::vector<FitRow> rows;
  std::vector<int> dimensions;  // the cubes measured
  std::vector<std::string> notes;
  int repetitions = 1;  // per point, the median taken
};

struct MachineFitOptions {
  int repetitions = 0;  // per point; 0: 1 under virtual timing, 5 otherwise (the median is used)
  int max_dimension = 6;  // the cubes measured are d = 1 .. min(max(config d, 2), max_dimension)
  int only_dimension = 0;  // > 0: the one cube measured (spread over MPI ranks, one node per rank)
};

// Throws UsageError when the machine cannot be measured (d = 0 has no messages). Run errors propagate.
MachineFitResult fit_machine(const MachineFamily& family, const MachineFitOptions& options = {});

}  // namespace hcemu::cli
