// The reductions over doubles of Johnsson & Ho (1987) §4.5 (include/hcemu/kernels/reduction.hpp), one row each, and
// the harness they run in: every node's random doubles in [-1, 1) are summed. The one-to-all reduction (sbt) sums
// every node's m doubles into the root's; the all-to-all ones (recursive-halving, sbnt) give node j the sum over all
// nodes of their block j, 2^d blocks of m doubles per node.
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "harness/algorithm.hpp"
#include "harness/case_data.hpp"
#include "harness/verification.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/kernels/reduction.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/model/primitives.hpp"

namespace hcemu::harness {
// The family's rows and helpers, in a namespace of its own: the families name theirs alike (sbnt(), problem_bound).
namespace reduce_rows {
namespace {

// Element k of node x's data: a double in [-1, 1), a pure function of the seed.
double value(std::uint64_t seed, std::uint64_t x, std::size_t k) {
  const std::uint64_t word = data::splitmix64(seed ^ data::splitmix64((x << 32) ^ data::splitmix64(k)));
  return static_cast<double>(word >> 11) * 0x1.0p-52 - 1.0;
}

// A sum of N doubles in [-1, 1), in any order, is within N·ε·N of the exact sum; two orders within twice that.
double tolerance(int nodes) { return 2.0 * nodes * nodes * DBL_EPSILON; }

RunFn one_to_all_run() {
  return [](const MachineConfig& config, const EmulatorSettings& settings, const KernelCase& c) {
    KernelResult result;
    const std::size_t m = c.m;
    std::vector<double> want(m, 0.0);
    for (int x = 0; x < config.nodes(); ++x)
      for (std::size_t k = 0; k < m; ++k) want[k] += value(c.seed, static_cast<std::uint64_t>(x), k);
    FirstFailure failure;
    Machine machine(config, settings);
    result.report = machine.run([&](Node& node) {
      Buffer<double> data = node.allocate<double>(m);
      for (std::size_t k = 0; k < m; ++k) data[k] = value(c.seed, static_cast<std::uint64_t>(node.id()), k);
      kernels::sbt_reduce(node, data.span(), c.root);
      if (node.id() != c.root) return;
      for (std::size_t k = 0; k < m; ++k) {
        if (std::abs(data[k] - want[k]) <= tolerance(node.size())) continue;
        failure.report("root " + std::to_string(c.root) + ": element " + std::to_string(k) + " is " +
                       std::to_string(data[k]) + ", the sum is " + std::to_string(want[k]));
        return;
      }
    });
    failure.record_into(result, machine);
    return result;
  };
}

// How an all-to-all reduction runs: its kernel call on one node, with 2^d blocks in and the node's block out.
using ReduceScatterCall = std::function<void(Node&, std::span<double> data, std::size_t block, std::span<double> out)>;

RunFn all_to_all_run(ReduceScatterCall call) {
  return [call](const MachineConfig& config, const EmulatorSettings& settings, const KernelCase& c) {
    KernelResult result;
    const std::size_t m = c.m;
    const auto n = static_cast<std::size_t>(config.nodes());
    FirstFailure failure;
    Machine machine(config, settings);
    result.report = machine.run([&](Node& node) {
      const auto self = static_cast<std::size_t>(node.id());
      Buffer<double> data = node.allocate<double>(n * m);
      Buffer<double> out = node.allocate<double>(m);
      for (std::size_t k = 0; k < n * m; ++k) data[k] = value(c.seed, self, k);
      call(node, data.span(), m, out.span());
      for (std::size_t k = 0; k < m; ++k) {
        double want = 0;
        for (std::size_t x = 0; x < n; ++x) want += value(c.seed, x, self * m + k);
        if (std::abs(out[k] - want) <= tolerance(node.size())) continue;
        failure.report("node " + std::to_string(self) + ": element " + std::to_string(k) + " of its block is " +
                       std::to_string(out[k]) + ", the sum is " + std::to_string(want));
        return;
      }
    });
    failure.record_into(result, machine);
    return result;
  };
}

Algorithm sbt() {
  return {
      .name = "sbt",
      .paper = "Johnsson & Ho (1987) §4.5: one-to-all reduction, the binomial spanning tree's broadcast reversed",
      .ports = {},
      .params = {},
      .resolve = {},
      .cannot_run = {},
      .run = one_to_all_run(),
      .predict = [](const MachineConfig& config, const KernelCase& c) -> std::optional<Time> {
        return model::sbt_reduce_time(config, c.m);
      },
      .lower_bound = {},
      .all_cases = {},
  };
}

Algorithm recursive_halving() {
  return {
      .name = "recursive-halving",
      .paper =
          "Johnsson & Ho (1987) §4.5: all-to-all reduction by recursive halving, SBT-b(1,N) reversed (their "
          "algorithm 4, §5.1)",
      .ports = {},
      .params = {},
      .resolve = {},
      .cannot_run = {},
      .run = all_to_all_run([](Node& node, std::span<double> data, std::size_t block, std::span<double> out) {
        kernels::recursive_halving_reduce_scatter(node, data, block, out);
      }),
      .predict = [](const MachineConfig& config, const KernelCase& c) -> std::optional<Time> {
        return model::recursive_halving_reduce_scatter_time(config, c.m, config.d);
      },
      .lower_bound = {},
      .all_cases = {},
  };
}

Algorithm sbnt() {
  return {
      .name = "sbnt",
      .paper = "Johnsson & Ho (1987) §4.5: all-to-all reduction up N translated spanning balanced n-trees, all ports",
      .ports = {Ports::Kind::all},
      .params = {},
      .resolve = {},
      .cannot_run = {},
      .run = all_to_all_run([](Node& node, std::span<double> data, std::size_t block, std::span<double> out) {
        kernels::sbnt_reduce_scatter(node, data, block, out);
      }),
      .predict = [](const MachineConfig& config,
                    const KernelCase& c) { return model::sbnt_reduce_scatter_time(config, c.m, config.d); },
      .lower_bound = {},
      .all_cases = {},
  };
}

}  // namespace
}  // namespace reduce_rows

KernelFamily reduce_family() {
  using namespace reduce_rows;
  return {
      .name = "reduce",
      .summary =
          "sums of doubles: one-to-all on the binomial tree, all-to-all by recursive halving and on SBnTs (Johnsson "
          "& Ho 1987 §4.5)",
      .m_is = "doubles per node (sbt), or per block of the 2^d a node holds (the all-to-all ones)",
      .default_algo = "recursive-halving",
      .algorithms = {sbt(), recursive_halving(), sbnt()},
      .resolve =
          [](const MachineConfig& config, KernelCase c) {
            if (c.root < 0 || c.root >= config.nodes())
              throw UsageError("reduce: root " + std::to_string(c.root) + " does not exist in a " +
                               std::to_string(config.nodes()) + "-node machine");
            return c;
          },
      .rooted = true,
  };
}

}  // namespace hcemu::harness
