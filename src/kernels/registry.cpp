#include "hcemu/kernels/registry.hpp"

#include <string>

#include "hcemu/errors.hpp"

namespace hcemu::kernels {

const std::vector<KernelInfo>& registry() {
  static const std::vector<KernelInfo> kernels = {exchange_kernel_info(), transpose_kernel_info(),
                                                  broadcast_kernel_info(), allgather_kernel_info(),
                                                  histogram_kernel_info()};
  return kernels;
}

const KernelInfo& find_kernel(std::string_view name) {
  std::string known;
  for (const KernelInfo& k : registry()) {
    if (k.name == name) return k;
    known += (known.empty() ? "" : ", ") + k.name;
  }
  throw UsageError("unknown kernel '" + std::string(name) + "'; known kernels: " + known);
}

}  // namespace hcemu::kernels
