#include "hcemu/model/partitions.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "hcemu/errors.hpp"

namespace hcemu::model {

namespace {
// Non-decreasing sequences summing to `remaining` whose parts are >= `smallest`, in lexicographic order.
void extend(int remaining, int smallest, Partition& prefix, std::vector<Partition>& out) {
  if (remaining == 0) {
    out.push_back(prefix);
    return;
  }
  for (int part = smallest; part <= remaining; ++part) {
    if (part != remaining && remaining - part < part) continue;  // the rest could not stay >= part
    prefix.push_back(part);
    extend(remaining - part, part, prefix, out);
    prefix.pop_back();
  }
}
}  // namespace

std::vector<Partition> partitions(int d) {
  if (d < 0) throw UsageError("partitions: d must be >= 0, got " + std::to_string(d));
  std::vector<Partition> out;
  Partition prefix;
  extend(d, 1, prefix, out);
  std::stable_sort(out.begin(), out.end(), [](const Partition& a, const Partition& b) { return a.size() < b.size(); });
  return out;
}

Partition equipartition(int d, int n) {
  if (n < 1 || n > d) {
    throw UsageError("equipartition: need 1 <= n <= d, got d = " + std::to_string(d) + ", n = " + std::to_string(n));
  }
  // Bokhari 1993 eq. 3: n - d mod n parts of floor(d/n), then d mod n parts of ceil(d/n).
  Partition parts(static_cast<std::size_t>(n - d % n), d / n);
  parts.insert(parts.end(), static_cast<std::size_t>(d % n), d / n + 1);
  return parts;
}

bool is_equipartition(const Partition& partition) {
  if (partition.empty()) return true;
  const auto [lo, hi] = std::minmax_element(partition.begin(), partition.end());
  return *hi - *lo <= 1;
}

double power_sum(const Partition& partition) {
  double sum = 0;
  for (int part : partition) sum += std::ldexp(1.0, part);
  return sum;
}

double inverse_power_sum(const Partition& partition) {
  double sum = 0;
  for (int part : partition) sum += std::ldexp(1.0, -part);
  return sum;
}

bool preferred(const Partition& a, const Partition& b) {
  if (a.size() != b.size()) return a.size() < b.size();
  Partition sa = a, sb = b;
  std::sort(sa.begin(), sa.end());
  std::sort(sb.begin(), sb.end());
  return sb < sa;
}

}  // namespace hcemu::model
