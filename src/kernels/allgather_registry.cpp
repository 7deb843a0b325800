// The all-to-all broadcast as the registry (hcemu command, harness) sees it.
#include <string>

#include "case_data.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/kernels/allgather.hpp"
#include "hcemu/kernels/registry.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/model/collectives.hpp"
#include "kernels/registry_support.hpp"

namespace hcemu::kernels {
namespace {

const std::vector<std::string> kAlgos = {"recursive-doubling", "completed"};

void check_algo(const KernelCase& c) {
  if (c.algo != "recursive-doubling" && c.algo != "completed")
    throw UsageError("allgather: unknown algo '" + c.algo + "' (recursive-doubling, completed)");
}

std::optional<Time> predict(const MachineConfig& config, const KernelCase& c) {
  check_algo(c);
  if (c.algo == "recursive-doubling") return model::recursive_doubling_allgather_time(config, c.m);
  return model::completed_allgather_time(config, c.m);
}

KernelResult run(const MachineConfig& config, const EmulatorSettings& settings, const KernelCase& c) {
  check_algo(c);
  KernelResult result;
  result.run_case = c;
  const std::size_t m = c.m;

  FirstFailure failure;
  Machine machine(config, settings);
  result.report = machine.run([&](Node& node) {
    const auto n = static_cast<std::size_t>(node.size());
    const auto self = static_cast<std::size_t>(node.id());
    Buffer<std::byte> all = node.allocate<std::byte>(n * m);
    detail::fill(all.span().subspan(self * m, m), c.seed, self, 0);
    if (c.algo == "recursive-doubling")
      recursive_doubling_allgather(node, all.span(), m);
    else
      completed_allgather(node, all.span(), m);
    for (std::size_t s = 0; s < n; ++s) {
      const std::size_t k = detail::first_mismatch(all.span().subspan(s * m, m), c.seed, s, 0);
      if (k == m) continue;
      failure.report("node " + std::to_string(self) + ": the message of node " + std::to_string(s) +
                     " differs at byte " + std::to_string(k));
      return;
    }
  });
  failure.record_into(result);
  result.predicted = predict(config, c);
  return result;
}

std::vector<KernelCase> expand_all(const MachineConfig& config, const KernelCase& base) {
  return cases_for_each_algo(config, base, kAlgos, {"completed"});
}

}  // namespace

KernelInfo allgather_kernel_info() {
  KernelInfo info;
  info.name = "allgather";
  info.summary =
      "all-to-all broadcast: recursive doubling (Johnsson & Ho 1987 §4.2), COMPLETE BROADCAST "
      "(Stout & Wagar 1990 §6)";
  info.algos = kAlgos;
  info.default_algo = "recursive-doubling";
  info.expand_all = expand_all;
  info.run = run;
  info.predict = predict;
  return info;
}

}  // namespace hcemu::kernels
