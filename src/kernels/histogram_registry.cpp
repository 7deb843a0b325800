// The histogram as the registry (hcemu command, harness) sees it: KernelCase::m is the number of bins, and every
// node counts m random 32-bit values (value v in bin v mod m).
#include <string>
#include <vector>

#include "case_data.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/kernels/histogram.hpp"
#include "hcemu/kernels/registry.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/model/collectives.hpp"
#include "kernels/registry_support.hpp"

namespace hcemu::kernels {
namespace {

const std::vector<std::string> kAlgos = {"recursive-halving", "symmetrized"};

void check_algo(const KernelCase& c) {
  if (c.algo != "recursive-halving" && c.algo != "symmetrized")
    throw UsageError("histogram: unknown algo '" + c.algo + "' (recursive-halving, symmetrized)");
}

std::size_t values_per_node(const KernelCase& c) { return c.m; }

std::uint32_t value(std::uint64_t seed, std::uint64_t node, std::size_t k) {
  return static_cast<std::uint32_t>(detail::splitmix64(seed ^ detail::splitmix64((node << 32) ^ k)) >> 32);
}

std::optional<Time> predict(const MachineConfig& config, const KernelCase& c) {
  check_algo(c);
  if (c.algo == "recursive-halving") return model::recursive_halving_histogram_time(config, c.m, values_per_node(c));
  return model::symmetrized_histogram_time(config, c.m, values_per_node(c));
}

KernelResult run(const MachineConfig& config, const EmulatorSettings& settings, const KernelCase& c) {
  check_algo(c);
  KernelResult result;
  result.run_case = c;
  const std::size_t bins = c.m, items = values_per_node(c);

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
    if (c.algo == "recursive-halving")
      recursive_halving_histogram(node, values.span(), bins, owned.span());
    else
      symmetrized_histogram(node, values.span(), bins, owned.span());
    const std::size_t first = static_cast<std::size_t>(self) * model::histogram_block_bins(node.dim(), bins);
    for (std::size_t t = 0; t < owned.size(); ++t) {
      if (owned[t] == global[first + t]) continue;
      failure.report("node " + std::to_string(self) + ": bin " + std::to_string(first + t) + " counts " +
                     std::to_string(owned[t]) + ", expected " + std::to_string(global[first + t]));
      return;
    }
  });
  failure.record_into(result);
  result.predicted = predict(config, c);
  return result;
}

std::vector<KernelCase> expand_all(const MachineConfig& config, const KernelCase& base) {
  return cases_for_each_algo(config, base, kAlgos, {"symmetrized"});
}

}  // namespace

KernelInfo histogram_kernel_info() {
  KernelInfo info;
  info.name = "histogram";
  info.summary =
      "histogram (reduce-scatter) of m 32-bit bins, m values per node: recursive halving and its "
      "symmetrized form (Stout & Wagar 1990 §8)";
  info.algos = kAlgos;
  info.default_algo = "recursive-halving";
  info.expand_all = expand_all;
  info.run = run;
  info.predict = predict;
  return info;
}

}  // namespace hcemu::kernels
