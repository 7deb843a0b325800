#pragma once
// What the two histogram kernels share: the argument checks and the single-node case.
#include <algorithm>
#include <cstdint>
#include <span>
#include <string>

#include "hcemu/errors.hpp"
#include "hcemu/model/collectives.hpp"
#include "hcemu/node.hpp"

namespace hcemu::kernels::detail {

inline void check_histogram(const Node& node, std::span<const std::uint32_t> values, std::size_t bins,
                            std::span<std::uint32_t> owned, const char* kernel) {
  if (bins == 0 && !values.empty())
    throw UsageError(std::string(kernel) + ": values to count but no bins to count them in");
  const std::size_t want = model::histogram_owned_bins(node.dim(), bins, node.id());
  if (owned.size() != want)
    throw UsageError(std::string(kernel) + ": node " + std::to_string(node.id()) + " owns " + std::to_string(want) +
                     " bins, `owned` holds " + std::to_string(owned.size()));
}

// d = 0: the node's own counts are the histogram.
inline void count_alone(Node& node, std::span<const std::uint32_t> values, std::size_t bins,
                        std::span<std::uint32_t> owned) {
  std::fill(owned.begin(), owned.end(), 0u);
  for (std::uint32_t v : values) ++owned[v % bins];
  node.compute(values.size());
}

}  // namespace hcemu::kernels::detail
