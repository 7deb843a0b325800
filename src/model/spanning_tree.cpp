#include "hcemu/model/spanning_tree.hpp"

#include <map>
#include <mutex>

namespace hcemu::model {
namespace {

std::uint32_t rotate_right(std::uint32_t i, int n) {
  return ((i >> 1) | ((i & 1u) << (n - 1))) & ((std::uint32_t{1} << n) - 1);
}

}  // namespace

int sbnt_base(std::uint32_t i, int n) {
  int best = 0;
  std::uint32_t least = i, r = i;
  for (int j = 1; j < n; ++j) {
    r = rotate_right(r, n);
    if (r < least) {
      least = r;
      best = j;
    }
  }
  return best;
}

std::uint32_t sbnt_parent(std::uint32_t i, int n) {
  const int j = sbnt_base(i, n);
  for (int step = 1; step <= n; ++step) {  // the first 1-bit cyclically below bit j (bit j itself if it is alone)
    const int k = ((j - step) % n + n) % n;
    if (i >> k & 1u) return i ^ (std::uint32_t{1} << k);
  }
  return 0;
}

const std::vector<std::vector<std::uint32_t>>& sbnt_children(int n) {
  static std::mutex mutex;
  static std::map<int, std::vector<std::vector<std::uint32_t>>> cache;
  std::lock_guard lock(mutex);
  auto it = cache.find(n);
  if (it == cache.end()) {
    std::vector<std::vector<std::uint32_t>> children(std::size_t{1} << n);
    for (std::uint32_t i = 1; i < (std::uint32_t{1} << n); ++i) children[sbnt_parent(i, n)].push_back(i);
    it = cache.emplace(n, std::move(children)).first;
  }
  return it->second;
}

}  // namespace hcemu::model
