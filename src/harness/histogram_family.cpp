// The histograms, one row each, and the harness they run in: KernelCase::m is the number of bins, and every node
// counts m random 32-bit values (value v in bin v mod m); node i ends with the global counts of its block of bins.
#include <string>
#include <vector>

#include "harness/algorithm.hpp"
#include "harness/case_data.hpp"
#include "harness/verification.hpp"
#include "hcemu/kernels/histogram.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/model/collectives.hpp"
#include "hcemu/model/lower_bounds.hpp"

namespace hcemu::harness {
// The family's rows and helpers, in a namespace of its own: the families name theirs alike (sbnt(), problem_bound).
namespace histogram_rows {
namespace {

// The least time of the problem on this machine (model/lower_bounds.hpp), whatever the algorithm.
std::optional<Time> problem_bound(const MachineConfig& config, const KernelCase& c) {
  return model::histogram_lower_bound(config, c.m);
}

std::uint32_t value(std::uint64_t seed, std::uint64_t node, std::size_t k) {
  return static_cast<std::uint32_t>(data::splitmix64(seed ^ data::splitmix64((node << 32) ^ k)) >> 32);
}

// How a histogram runs: its kernel call on one node, with its values and its block of the counts.
using HistogramCall =
    std::function<void(Node&, std::span<const std::uint32_t> values, std::size_t bins, std::span<std::uint32_t> owned)>;

RunFn histogram_run(HistogramCall call) {
  return [call](const MachineConfig& config, const EmulatorSettings& settings, const KernelCase& c) {
    KernelResult result;
    const std::size_t bins = c.m, items = c.m;
    // The sequential reference: the global counts.
    std::vector<std::uint64_t> global(bins, 0);
    for (int x = 0; x < config.nodes(); ++x)
      for (std::size_t k = 0; k < items; ++k) ++global[value(c.seed, static_cast<std::uint64_t>(x), k) % bins];

    FirstFailure failure;
    Machine machine(config, settings);
    result.report = machine.run([&](Node& node) {
      const auto self = static_cast<std::uint64_t>(node.id());
      Buffer<std::uint32_t> values = node.allocate<std::uint32_t>(items);
      for (std::size_t k = 0; k < items; ++k) values[k] = value(c.seed, self, k);
      Buffer<std::uint32_t> owned =
          node.allocate<std::uint32_t>(model::histogram_owned_bins(node.dim(), bins, node.id()));
      call(node, values.span(), bins, owned.span());
      const std::size_t first = static_cast<std::size_t>(self) * model::histogram_block_bins(node.dim(), bins);
      for (std::size_t t = 0; t < owned.size(); ++t) {
        if (owned[t] == global[first + t]) continue;
        failure.report("node " + std::to_string(self) + ": bin " + std::to_string(first + t) + " counts " +
                       std::to_string(owned[t]) + ", expected " + std::to_string(global[first + t]));
        return;
      }
    });
    failure.record_into(result, machine);
    return result;
  };
}

Algorithm recursive_halving() {
  return {
      .name = "recursive-halving",
      .paper = "Stout & Wagar (1990) §8, the unsymmetric HISTOGRAM: d stages, each exchanging half the held bins",
      .ports = {},
      .params = {},
      .resolve = {},
      .cannot_run = {},
      .run = histogram_run(kernels::recursive_halving_histogram),
      .predict = [](const MachineConfig& config, const KernelCase& c) -> std::optional<Time> {
        return model::recursive_halving_histogram_time(config, c.m, c.m);
      },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm symmetrized() {
  return {
      .name = "symmetrized",
      .paper = "Stout & Wagar (1990) §8, HISTOGRAM: recursive halving symmetrized over d groups of bins",
      .ports = {Ports::Kind::all},
      .params = {},
      .resolve = {},
      .cannot_run = {},
      .run = histogram_run(kernels::symmetrized_histogram),
      .predict = [](const MachineConfig& config,
                    const KernelCase& c) { return model::symmetrized_histogram_time(config, c.m, c.m); },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

}  // namespace
}  // namespace histogram_rows

KernelFamily histogram_family() {
  using namespace histogram_rows;
  return {
      .name = "histogram",
      .summary =
          "histogram (reduce-scatter) of m 32-bit bins, m values per node: recursive halving and its "
          "symmetrized form (Stout & Wagar 1990 §8)",
      .m_is = "bins (and values per node)",
      .default_algo = "recursive-halving",
      .algorithms = {recursive_halving(), symmetrized()},
      .resolve = {},
  };
}

}  // namespace hcemu::harness
