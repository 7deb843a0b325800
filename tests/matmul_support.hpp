#pragma once
// Running one matrix multiplication on the emulator for the tests: random small-integer matrices (so that every
// order of summation gives the same exact doubles), every node's blocks laid out by model::matmul_grid, the result
// gathered and compared with kernels::serial_matmul.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "hcemu/hcemu.hpp"
#include "hcemu/kernels/matmul.hpp"
#include "hcemu/model/matmul.hpp"

namespace hcemu::test {

inline std::vector<double> small_integer_matrix(std::size_t count, std::mt19937_64& rng) {
  std::vector<double> m(count);
  for (double& x : m) x = static_cast<double>(static_cast<int>(rng() % 21) - 10);
  return m;
}

struct MatmulRun {
  RunReport report;
  bool correct = false;
};

inline std::string describe(const MachineConfig& config, const model::MatmulShape& shape,
                            const model::MatmulOptions& options) {
  return std::string(model::matmul_algorithm_info(options.algorithm).name) + " d=" + std::to_string(config.d) + " ports=" +
         config.ports.str() + " P=" + std::to_string(shape.P) + " Q=" + std::to_string(shape.Q) + " R=" +
         std::to_string(shape.R) + " grid=" + std::to_string(options.grid.n1) + "," + std::to_string(options.grid.n2) +
         " k=" + std::to_string(options.k);
}

inline MatmulRun run_matmul(const MachineConfig& config, const model::MatmulShape& shape,
                            const model::MatmulOptions& options, std::uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  const auto c = small_integer_matrix(shape.P * shape.Q, rng), d = small_integer_matrix(shape.Q * shape.R, rng),
             e = small_integer_matrix(shape.P * shape.R, rng);
  const model::Grid grid = model::matmul_grid(options, config.d);
  std::vector<double> a(shape.P * shape.R, 0.0);
  std::vector<std::vector<double>> blocks_c, blocks_d, blocks_e, blocks_a;
  for (int x = 0; x < config.nodes(); ++x) {
    blocks_c.push_back(kernels::extract_block(c, shape.P, shape.Q, grid, x));
    blocks_d.push_back(kernels::extract_block(d, shape.Q, shape.R, grid, x));
    blocks_e.push_back(kernels::extract_block(e, shape.P, shape.R, grid, x));
    blocks_a.emplace_back(blocks_e.back().size(), 0.0);
  }
  MatmulRun run;
  run.report = Machine(config).run([&](Node& node) {
    const auto x = static_cast<std::size_t>(node.id());
    kernels::matmul(node, shape, options, {blocks_c[x], blocks_d[x], blocks_e[x], blocks_a[x]});
  });
  for (int x = 0; x < config.nodes(); ++x)
    kernels::place_block(blocks_a[static_cast<std::size_t>(x)], a, shape.P, shape.R, grid, x);
  run.correct = a == kernels::serial_matmul(shape, c, d, e);
  return run;
}

// Runs and checks the product; checks the makespan against model::matmul_time when that gives one (and, if
// `must_predict`, that it does). Returns the run.
inline MatmulRun check_matmul(const MachineConfig& config, const model::MatmulShape& shape,
                              const model::MatmulOptions& options, bool must_predict = true) {
  SCOPED_TRACE(describe(config, shape, options));
  MatmulRun run = run_matmul(config, shape, options);
  EXPECT_TRUE(run.correct) << "the product differs from the serial one";
  const auto predicted = model::matmul_time(config, shape, options);
  if (must_predict) {
    EXPECT_TRUE(predicted.has_value()) << "no closed form";
  }
  if (predicted) {
    EXPECT_EQ(run.report.makespan, predicted->total())
        << "emulated " << run.report.makespan_us() << " us, predicted " << to_us(predicted->total());
  }
  EXPECT_EQ(run.report.contention_events(), 0u);
  return run;
}

}  // namespace hcemu::test
