#pragma once
// What the kernel families' registry entries share.
#include <algorithm>
#include <mutex>
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

// The first verification failure that any node reports; the node threads report concurrently.
class FirstFailure {
 public:
  void report(std::string message) {
    std::lock_guard lock(mutex_);
    if (message_.empty()) message_ = std::move(message);
  }
  void record_into(KernelResult& result) const {
    result.verified = message_.empty();
    result.verify_message = message_;
  }

 private:
  std::mutex mutex_;
  std::string message_;
};

}  // namespace hcemu::kernels
