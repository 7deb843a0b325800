#pragma once
// Choosing a matrix multiplication algorithm by its closed form: Johnsson & Ho (1987) §5.1.1 and §5.2.4 compare
// their algorithms by exactly these formulas (Figures 11-14 for column partitioning, 20-26 for the grid). Pure
// functions of the shape and the machine.
#include <span>
#include <vector>

#include "hcemu/config.hpp"
#include "hcemu/model/matmul.hpp"

namespace hcemu::model {

struct PlannedMatmul {
  MatmulOptions options;  // the algorithm, and the grid or k it is best with
  MatmulTime time;
};

// Every candidate with a closed form on this machine (config.d, its port model), fastest first; ties keep the order
// of the candidates. A1 2-D is tried on every grid n1 + n2 = d, the one-port A2-A5 (A3 version 2 too), Cannon's,
// Dekel's and the aligned SBT on the square grid and on every rectangular one that takes the shape (matmul_fits_grid: §5.2.1, §5.2.2), the hybrid
// with every k = 0..d, and the algorithms that need a square grid only for even d; every one in the machine's
// element (config.element). Empty candidates:
// every algorithm of matmul_algorithms().
std::vector<PlannedMatmul> plan_matmul(const MachineConfig& config, const MatmulShape& shape,
                                       std::span<const MatmulAlgorithm> candidates = {});

// The first of plan_matmul. Throws UsageError if no candidate has a closed form here.
PlannedMatmul best_matmul(const MachineConfig& config, const MatmulShape& shape,
                          std::span<const MatmulAlgorithm> candidates = {});

}  // namespace hcemu::model
