#include "hcemu/model/matmul_planner.hpp"

#include <algorithm>

#include "hcemu/errors.hpp"

namespace hcemu::model {

std::vector<PlannedMatmul> plan_matmul(const MachineConfig& config, const MatmulShape& shape,
                                       std::span<const MatmulAlgorithm> candidates) {
  std::vector<MatmulAlgorithm> algorithms(candidates.begin(), candidates.end());
  if (algorithms.empty())
    for (const auto& row : matmul_algorithms()) algorithms.push_back(row.algorithm);

  std::vector<MatmulOptions> tries;
  for (MatmulAlgorithm a : algorithms) {
    MatmulOptions o;
    o.algorithm = a;
    o.element_bytes = config.element;
    if (a == MatmulAlgorithm::a1_2d || a == MatmulAlgorithm::a1_2d_sbnt) {
      for (int n1 = 0; n1 <= config.d; ++n1) {
        o.grid = {n1, config.d - n1};
        tries.push_back(o);
      }
    } else if (matmul_takes_rectangular_grid(a)) {
      // Every grid: the square one as it is, the rectangular ones that take the shape (matmul_fits_grid).
      for (int n1 = 0; n1 <= config.d; ++n1) {
        const int n2 = config.d - n1;
        if (!matmul_fits_grid(shape, a, {n1, n2})) continue;
        o.grid = {n1, n2};
        tries.push_back(o);
      }
    } else if (a == MatmulAlgorithm::a1_hybrid) {
      for (int k = 0; k <= config.d; ++k) {
        o.k = k;
        tries.push_back(o);
      }
    } else if (!matmul_algorithm_info(a).two_dimensional || config.d % 2 == 0) {
      tries.push_back(o);
    }
  }

  std::vector<PlannedMatmul> plans;
  for (const MatmulOptions& o : tries)
    if (auto t = matmul_time(config, shape, o)) plans.push_back({o, *t});
  std::stable_sort(plans.begin(), plans.end(),
                   [](const PlannedMatmul& a, const PlannedMatmul& b) { return a.time.total() < b.time.total(); });
  return plans;
}

PlannedMatmul best_matmul(const MachineConfig& config, const MatmulShape& shape,
                          std::span<const MatmulAlgorithm> candidates) {
  const auto plans = plan_matmul(config, shape, candidates);
  if (plans.empty()) throw UsageError("plan matmul: no candidate algorithm has a closed form on this machine");
  return plans.front();
}

}  // namespace hcemu::model
