#pragma once
// What the kernel families' registry entries share.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "hcemu/kernels/registry.hpp"

namespace hcemu::kernels {

// The cases `--algo all` runs: one per algorithm, less those written for all-port nodes when the machine has none
// (they still run there on request, without a closed form).
inline std::vector<KernelCase> cases_for_each_algo(const MachineConfig& config, const KernelCase& base,
                                                   const std::vector<std::string>& algos,
                                                   std::initializer_list<std::string_view> all_port_only) {
  std::vector<KernelCase> cases;
  for (const auto& algo : algos) {
    const bool needs_all_port = std::find(all_port_only.begin(), all_port_only.end(), algo) != all_port_only.end();
    if (needs_all_port && config.ports.kind != Ports::Kind::all) continue;
    KernelCase c = base;
    c.algo = algo;
    cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace hcemu::kernels
