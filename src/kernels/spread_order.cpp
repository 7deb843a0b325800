#include "spread_order.hpp"

#include <bit>
#include <cstddef>
#include <map>
#include <mutex>

#include "hcemu/model/even_spread.hpp"

namespace hcemu::kernels::detail {
namespace {

std::vector<std::uint32_t> compute_final_order(int n) {
  const std::size_t units = model::spread_units(n);
  const std::uint32_t top = (std::uint32_t{1} << n) - 1;
  std::vector<std::vector<std::uint32_t>> holding(std::size_t{1} << n);
  for (std::uint32_t u = 0; u < units; ++u) holding[0].push_back(u);
  // edge[S·n + z]: the units S sends across z.
  std::vector<std::vector<std::uint32_t>> edge((std::size_t{1} << n) * static_cast<std::size_t>(n));
  for (int level = 0; level < n; ++level) {
    for (std::uint32_t s = 0; s <= top; ++s) {
      if (std::popcount(s) != level) continue;
      const std::vector<std::uint32_t>& held = holding[s];
      const std::size_t chunk = held.size() / static_cast<std::size_t>(n - level);
      std::size_t i = 0;
      for (int z = 0; z < n; ++z) {
        if (s >> z & 1u) continue;
        auto& e = edge[s * static_cast<std::size_t>(n) + static_cast<std::size_t>(z)];
        e.assign(held.begin() + static_cast<std::ptrdiff_t>(i * chunk),
                 held.begin() + static_cast<std::ptrdiff_t>((i + 1) * chunk));
        ++i;
      }
    }
    for (std::uint32_t t = 0; t <= top; ++t) {
      if (std::popcount(t) != level + 1) continue;
      for (int b = 0; b < n; ++b) {
        if (!(t >> b & 1u)) continue;
        const auto& e = edge[(t ^ (std::uint32_t{1} << b)) * static_cast<std::size_t>(n) + static_cast<std::size_t>(b)];
        holding[t].insert(holding[t].end(), e.begin(), e.end());
      }
    }
  }
  return holding[top];
}

}  // namespace

std::vector<std::uint32_t> spread_final_order(int n) {
  static std::mutex mutex;
  static std::map<int, std::vector<std::uint32_t>> cache;
  std::lock_guard lock(mutex);
  auto it = cache.find(n);
  if (it == cache.end()) it = cache.emplace(n, compute_final_order(n)).first;
  return it->second;
}

}  // namespace hcemu::kernels::detail
