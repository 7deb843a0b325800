// The complete exchange as the registry (hcemu command, harness) sees it.
#include <algorithm>
#include <string>

#include "case_data.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/kernels/exchange.hpp"
#include "hcemu/kernels/registry.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/model/all_port_exchange.hpp"
#include "hcemu/model/exchange.hpp"
#include "hcemu/model/planner.hpp"
#include "kernels/registry_support.hpp"

namespace hcemu::kernels {
namespace {

const std::vector<std::string> kAlgos = {"direct", "standard", "multiphase", "auto", "all-port"};

// The partition a case runs, nullopt for all-port.
std::optional<std::vector<int>> case_partition(const MachineConfig& config, const KernelCase& c) {
  if (c.algo == "direct") return model::direct_partition(config.d);
  if (c.algo == "standard") return model::standard_partition(config.d);
  if (c.algo == "multiphase") {
    model::check_partition(config.d, c.partition);
    return c.partition;
  }
  if (c.algo == "auto") return model::optimal_partition(config, c.m, c.sync).partition;
  if (c.algo == "all-port") return std::nullopt;
  throw UsageError("exchange: unknown algo '" + c.algo + "' (direct, standard, multiphase, auto, all-port)");
}

std::optional<Time> predict(const MachineConfig& config, const KernelCase& c) {
  const auto partition = case_partition(config, c);
  if (!partition) return model::all_port_exchange_time(config, c.m);
  return model::multiphase_exchange_time(config, *partition, c.m, c.sync);
}

KernelResult run(const MachineConfig& config, const EmulatorSettings& settings, const KernelCase& c) {
  KernelResult result;
  result.run_case = c;
  const auto partition = case_partition(config, c);
  if (partition) result.run_case.partition = *partition;
  const std::size_t m = c.m;
  const ExchangeOptions options{c.sync};

  FirstFailure failure;
  Machine machine(config, settings);
  result.report = machine.run([&](Node& node) {
    const auto n = static_cast<std::size_t>(node.size());
    const auto self = static_cast<std::uint64_t>(node.id());
    Buffer<std::byte> send = node.allocate<std::byte>(n * m);
    Buffer<std::byte> recv = node.allocate<std::byte>(n * m);
    for (std::size_t t = 0; t < n; ++t) detail::fill(send.span().subspan(t * m, m), c.seed, self, t);
    if (partition) {
      multiphase_exchange(node, send.span(), recv.span(), m, *partition, options);
    } else {
      all_port_exchange(node, send.span(), recv.span(), m, options);
    }
    for (std::size_t s = 0; s < n; ++s) {
      const auto block = recv.span().subspan(s * m, m);
      const std::size_t k = detail::first_mismatch(block, c.seed, s, self);
      if (k != m) {
        failure.report("node " + std::to_string(self) + ": block from node " + std::to_string(s) + " differs at byte " +
                       std::to_string(k));
        return;
      }
    }
  });
  failure.record_into(result);
  result.predicted = predict(
      config, result.run_case.algo == "auto" ? KernelCase{"multiphase", result.run_case.partition, m, c.sync} : c);
  return result;
}

std::vector<KernelCase> expand_all(const MachineConfig& config, const KernelCase& base) {
  std::vector<KernelCase> cases;
  auto add = [&](std::string algo, std::vector<int> partition) {
    KernelCase c = base;
    c.algo = std::move(algo);
    c.partition = std::move(partition);
    cases.push_back(std::move(c));
  };
  add("direct", {});
  if (config.d >= 2) add("standard", {});
  // Every equipartition E(d, n) (Bokhari 1993 eq. 3) strictly between Direct (n = 1) and Standard (n = d).
  for (int n = 2; n < config.d; ++n) add("multiphase", model::equipartition(config.d, n));
  if (config.ports.kind == Ports::Kind::all) add("all-port", {});
  return cases;
}

}  // namespace

KernelInfo exchange_kernel_info() {
  KernelInfo info;
  info.name = "exchange";
  info.summary =
      "complete exchange: Direct, Standard and Multiphase (Bokhari 1993; Nicol & Bokhari 1994), all-port "
      "(Stout & Wagar 1990 §6)";
  info.algos = kAlgos;
  info.default_algo = "auto";
  info.expand_all = expand_all;
  info.run = run;
  info.predict = predict;
  return info;
}

}  // namespace hcemu::kernels
