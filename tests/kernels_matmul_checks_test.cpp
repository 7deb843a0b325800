// Every matrix multiplication of Johnsson & Ho (1987) §5 as a sweep of hcemu::testing::KernelCheck, each case a test
// of its own (MatmulChecks.EveryAlgorithm/<algorithm>/<shape>/d3_all): every node's block of A against the serial
// product's, and the makespan against model::matmul_time, on one-port and all-port machines with circuit switching,
// packets, ρ and t_a. The matrices hold small integers, so that every order of summation gives the same doubles and
// the blocks compare exactly. (kernels_matmul_test.cpp checks the paper's tables by hand.)
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "hcemu/hcemu.hpp"
#include "hcemu/kernels/matmul.hpp"
#include "hcemu/model/matmul.hpp"
#include "hcemu/testing/gtest.hpp"
#include "kernel_machines.hpp"

namespace hcemu {
namespace {

using model::MatmulAlgorithm;
using model::MatmulShape;
using testing::Case;
using testing::KernelCheck;

struct Matrices {
  std::vector<double> c, d, e;
};

// C, D and E of the case: integers in -10..10, a function of the case's seed only.
Matrices matrices(const MatmulShape& shape, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto random = [&](std::size_t count) {
    std::vector<double> m(count);
    for (double& x : m) x = static_cast<double>(static_cast<int>(rng() % 21) - 10);
    return m;
  };
  Matrices m;
  m.c = random(shape.P * shape.Q);
  m.d = random(shape.Q * shape.R);
  m.e = random(shape.P * shape.R);
  return m;
}

// The algorithm's options on a d-cube: A1 2-D on the grid ⌊d/2⌋ × ⌈d/2⌉, the hybrid with ⌈d/2⌉ SBT steps.
model::MatmulOptions options_for(MatmulAlgorithm a, int d) {
  model::MatmulOptions o;
  o.algorithm = a;
  o.grid = {d / 2, d - d / 2};
  o.k = (d + 1) / 2;
  return o;
}

KernelCheck<double> matmul_check(MatmulAlgorithm a, MatmulShape shape) {
  KernelCheck<double> check;
  check
      // Node x's input: its blocks of C, D and E, one after the other.
      .input([a, shape](const Case& c, int node, std::mt19937_64&) {
        const Matrices m = matrices(shape, c.seed);
        const model::Grid grid = model::matmul_grid(options_for(a, c.d), c.d);
        std::vector<double> in = kernels::extract_block(m.c, shape.P, shape.Q, grid, node);
        for (const auto& block : {kernels::extract_block(m.d, shape.Q, shape.R, grid, node),
                                  kernels::extract_block(m.e, shape.P, shape.R, grid, node)})
          in.insert(in.end(), block.begin(), block.end());
        return in;
      })
      .kernel([a, shape](Node& node, std::span<const double> in, std::vector<double>& out) {
        const model::MatmulOptions o = options_for(a, node.dim());
        const model::Grid grid = model::matmul_grid(o, node.dim());
        const std::size_t c = model::block_shape(shape.P, shape.Q, grid).size(),
                          d = model::block_shape(shape.Q, shape.R, grid).size(),
                          e = model::block_shape(shape.P, shape.R, grid).size();
        out.assign(e, 0.0);
        kernels::matmul(node, shape, o, {in.subspan(0, c), in.subspan(c, d), in.subspan(c + d, e), out});
      })
      .reference([a, shape](const Case& c, const std::vector<std::vector<double>>&) {
        const Matrices m = matrices(shape, c.seed);
        const std::vector<double> product = kernels::serial_matmul(shape, m.c, m.d, m.e);
        const model::Grid grid = model::matmul_grid(options_for(a, c.d), c.d);
        std::vector<std::vector<double>> blocks;
        for (int x = 0; x < c.nodes(); ++x)
          blocks.push_back(kernels::extract_block(product, shape.P, shape.R, grid, x));
        return blocks;
      })
      .predict([a, shape](const MachineConfig& config) -> std::optional<Time> {
        const auto t = model::matmul_time(config, shape, options_for(a, config.d));
        return t ? std::optional<Time>(t->total()) : std::nullopt;
      })
      .tolerance(testing::Tolerance::exact())
      .no_contention();
  return check;
}

// A machine where every term shows: circuit switching with δ and δ', packets of 64 bytes (8 doubles), copies at ρ and
// arithmetic at t_a.
MachineConfig every_term() {
  MachineConfig c = test::circuit_machine();
  c.packet = 64;
  c.rho = 0.002;
  c.flop = 0.05;
  return c;
}

HCEMU_KERNEL_CHECKS(MatmulChecks, EveryAlgorithm) {
  for (const auto& info : model::matmul_algorithms()) {
    const MatmulAlgorithm a = info.algorithm;
    const bool square = info.two_dimensional && a != MatmulAlgorithm::a1_2d && a != MatmulAlgorithm::a1_2d_sbnt;
    for (const MatmulShape& shape : {MatmulShape{8, 8, 8}, MatmulShape{5, 7, 3}}) {
      const std::string label = std::string(info.name) + "/" + std::to_string(shape.P) + "x" + std::to_string(shape.Q) +
                                "x" + std::to_string(shape.R);
      auto check = matmul_check(a, shape);
      check.dims(square ? std::vector<int>{0, 2, 4} : std::vector<int>{0, 1, 2, 3}).base(every_term());
      if (info.ports == "all") {
        // The n-port algorithms have their closed form on all-port machines only; elsewhere they run without one.
        auto elsewhere = check;
        elsewhere.ports({"one"}).check(test::no_closed_form);
        checks.add(label + "/without a closed form", elsewhere);
        check.ports({"all"});
      } else {
        check.ports({"one", "all", "half"});
      }
      checks.add(label, check);
    }
  }
}

}  // namespace
}  // namespace hcemu
