#include "hcemu/model/even_spread.hpp"

#include <numeric>

namespace hcemu::model {

std::uint64_t binomial(int n, int k) {
  if (k < 0 || k > n) return 0;
  std::uint64_t c = 1;
  for (int i = 1; i <= k; ++i) c = c * static_cast<std::uint64_t>(n - k + i) / static_cast<std::uint64_t>(i);
  return c;
}

std::size_t lcm_up_to(int n) {
  std::size_t l = 1;
  for (int i = 2; i <= n; ++i) l = std::lcm(l, static_cast<std::size_t>(i));
  return l;
}

std::size_t spread_unit_bytes(std::size_t m, int n) {
  const std::size_t units = spread_units(n);
  return (m + units - 1) / units;
}

std::size_t spread_edge_units(int n, int k) {
  return spread_units(n) / (static_cast<std::size_t>(n) * static_cast<std::size_t>(binomial(n - 1, k)));
}

double stout_wagar_k(int d) {
  double k = 0;
  for (int i = 0; i <= d; ++i) k += 1.0 / static_cast<double>(binomial(d, i));
  return k;
}

}  // namespace hcemu::model
