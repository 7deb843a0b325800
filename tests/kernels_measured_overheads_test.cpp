// The closed forms with the overheads of docs/model.md §14 on: every matrix multiplication of Johnsson & Ho (1987) §5
// with a closed form, the reductions and the histograms, on machines that charge a fixed time per compute call
// (compute_overhead), a copy of every split message (split_copy) and a 20% port overlap (port_overlap), emulated to
// the picosecond of its prediction.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "hcemu/hcemu.hpp"
#include "hcemu/kernels/histogram.hpp"
#include "hcemu/kernels/reduction.hpp"
#include "hcemu/model/collectives.hpp"
#include "hcemu/model/matmul.hpp"
#include "hcemu/model/primitives.hpp"
#include "kernel_machines.hpp"
#include "matmul_support.hpp"

namespace hcemu {
namespace {

using model::MatmulAlgorithm;

// Circuit switching with δ and δ', packets of 64 bytes, ρ and t_a, and the three overheads.
MachineConfig overheads(int d, const char* ports) {
  MachineConfig c = test::circuit_machine();
  c.d = d;
  c.packet = 64;
  c.rho = 0.002;
  c.flop = 0.05;
  c.compute_overhead = 3.5;
  c.split_copy = 0.125;
  c.port_overlap = 0.2;
  c.ports = Ports::parse(ports);
  return c;
}

TEST(MeasuredOverheadForms, EveryMatrixMultiplicationMeetsItsClosedForm) {
  for (const auto& info : model::matmul_algorithms()) {
    const MatmulAlgorithm a = info.algorithm;
    const bool square = info.two_dimensional && a != MatmulAlgorithm::a1_2d && a != MatmulAlgorithm::a1_2d_sbnt;
    for (int d : square ? std::vector<int>{2, 4} : std::vector<int>{1, 3}) {
      for (const char* ports : info.ports == "all" ? std::vector<const char*>{"all"}
                                                   : std::vector<const char*>{"one", "half", "all"}) {
        model::MatmulOptions o;
        o.algorithm = a;
        o.grid = {d / 2, d - d / 2};
        o.k = (d + 1) / 2;
        // Cannon's, Dekel's and the aligned SBT send C's and D's blocks one after the other through one port: under
        // the overlap they have no closed form (src/model/matmul_cost.cpp), and are only checked for the product.
        // So does the outer product, whose chain runs through its ports' queues.
        const bool aligned = a == MatmulAlgorithm::cannon || a == MatmulAlgorithm::dekel ||
                             a == MatmulAlgorithm::sbt_aligned || a == MatmulAlgorithm::outer_product;
        const bool one_port = std::string(ports) != "all";
        const auto run = test::check_matmul(overheads(d, ports), {16, 16, 16}, o, !(aligned && one_port));
        EXPECT_TRUE(run.correct);
      }
    }
  }
}

// The hybrid's arithmetic is one block product per compute call: 2^(d-k) calls, each paying t_o.
TEST(MeasuredOverheadForms, TheHybridCountsOneCallPerMultiplicationStep) {
  const MachineConfig config = overheads(3, "one");
  model::MatmulOptions o;
  o.algorithm = MatmulAlgorithm::a1_hybrid;
  for (int k = 0; k <= 3; ++k) {
    o.k = k;
    const auto t = model::matmul_time(config, {16, 16, 16}, o);
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(t->compute_calls, std::uint64_t{1} << (3 - k));
    EXPECT_EQ(t->arithmetic, static_cast<Time>(t->flops) * from_us(0.05) + static_cast<Time>(t->compute_calls) * from_us(3.5));
  }
}

TEST(MeasuredOverheadForms, ReductionsMeetTheirClosedForms) {
  constexpr std::size_t block = 12;
  for (const char* ports : {"one", "half", "all"}) {
    const MachineConfig config = overheads(3, ports);
    const std::size_t n = 8;
    RunReport halving = Machine(config).run([&](Node& node) {
      std::vector<double> data(n * block, 1.0), out(block);
      kernels::recursive_halving_reduce_scatter(node, data, block, out);
    });
    EXPECT_EQ(halving.makespan, model::recursive_halving_reduce_scatter_time(config, block, 3)) << ports;
    RunReport tree = Machine(config).run([&](Node& node) {
      std::vector<double> data(block, 1.0);
      kernels::sbt_reduce(node, data, 0);
    });
    EXPECT_EQ(tree.makespan, model::sbt_reduce_time(config, block)) << ports;
    if (config.ports.kind == Ports::Kind::all) {
      RunReport sbnt = Machine(config).run([&](Node& node) {
        std::vector<double> data(n * block, 1.0), out(block);
        kernels::sbnt_reduce_scatter(node, data, block, out);
      });
      EXPECT_EQ(sbnt.makespan, model::sbnt_reduce_scatter_time(config, block, 3).value());
    }
  }
}

TEST(MeasuredOverheadForms, HistogramsMeetTheirClosedForms) {
  constexpr std::size_t bins = 96, items = 50;
  for (const char* ports : {"one", "all"}) {
    const MachineConfig config = overheads(3, ports);
    const auto run = [&](bool symmetrized) {
      return Machine(config).run([&](Node& node) {
        std::vector<std::uint32_t> values(items);
        std::iota(values.begin(), values.end(), static_cast<std::uint32_t>(node.id()));
        std::vector<std::uint32_t> owned(model::histogram_owned_bins(node.dim(), bins, node.id()));
        if (symmetrized)
          kernels::symmetrized_histogram(node, values, bins, owned);
        else
          kernels::recursive_halving_histogram(node, values, bins, owned);
      });
    };
    EXPECT_EQ(run(false).makespan, model::recursive_halving_histogram_time(config, bins, items)) << ports;
    if (config.ports.kind == Ports::Kind::all) {
      EXPECT_EQ(run(true).makespan, model::symmetrized_histogram_time(config, bins, items).value());
    }
  }
}

}  // namespace
}  // namespace hcemu
