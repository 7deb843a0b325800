#pragma once
// `hcemu fit --kernel exchange --algo ... --sync pairwise`: the effective λ and δ of a whole kernel, as Nicol &
// Bokhari (1994) §4 gave them for their iPSC/860 (λ = 177.5 µs and δ = 10.3·d µs with pairwise synchronisation).
#include <string>
#include <vector>

#include "cli/case_runner.hpp"
#include "cli/machine_fit.hpp"

namespace hcemu::cli {

struct KernelFitOptions {
  harness::KernelCase base;        // the algorithm and its parameters; a partition fixes the cube to one dimension
  std::vector<std::size_t> sizes;  // m values
  int repetitions = 0;             // runs per point; 0: 1 under virtual timing, 5 otherwise (the median is used)
};

struct KernelFitResult {
  std::vector<FitRow> rows;
  std::vector<int> dimensions;
  std::vector<std::string> notes;
  bool all_verified = true;
  int repetitions = 1;
};

// Runs the kernel at every m (and at several d unless a partition fixes d), and fits the measured times to the
// kernel's own closed form with sync = none (barrier for pairwise, so that the barriers are not counted as
// start-ups) in which every message pays λ_eff + δ_eff·d in place of λ + δ', by non-negative least squares.
// Throws UsageError when the kernel has no closed form for the case.
KernelFitResult fit_kernel(const harness::KernelFamily& kernel, const MachineFamily& family,
                           const KernelFitOptions& options);

}  // namespace hcemu::cli
