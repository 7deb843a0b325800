#include "hcemu/model/spanning_trees.hpp"

#include <bit>
#include <map>
#include <mutex>

#include "model/shared.hpp"

namespace hcemu::model {
namespace {

// R^j(i): i rotated right by j of n bits.
std::uint32_t rotate_right(std::uint32_t i, int j, int n) {
  j %= n;
  return j == 0 ? i : (((i >> j) | (i << (n - j))) & low_bits(n));
}

// The port (dimension) of the edge between two neighbours.
int edge_dim(std::uint32_t a, std::uint32_t b) { return std::countr_zero(a ^ b); }

std::size_t subtree_size(std::uint32_t i, int n, std::vector<std::size_t>& sizes) {
  std::size_t total = 1;
  for (std::uint32_t c : sbnt_children(i, n)) total += subtree_size(c, n, sizes);
  return sizes[i] = total;
}

}  // namespace

std::uint32_t inverse_gray(std::uint32_t g) {
  std::uint32_t i = 0;
  for (; g != 0; g >>= 1) i ^= g;
  return i;
}

int gray_transition(std::uint32_t i, int n) {
  const int j = std::countr_one(i);
  return j >= n ? n - 1 : j;
}

int sbnt_base(std::uint32_t i, int n) {
  int best = 0;
  std::uint32_t least = i;
  for (int j = 1; j < n; ++j) {
    const std::uint32_t r = rotate_right(i, j, n);
    if (r < least) {
      least = r;
      best = j;
    }
  }
  return best;
}

std::uint32_t sbnt_parent(std::uint32_t i, int n) {
  const int j = sbnt_base(i, n);
  for (int step = 1; step <= n; ++step) {
    const int k = ((j - step) % n + n) % n;
    if ((i >> k) & 1u) return i ^ (std::uint32_t{1} << k);
  }
  return 0;  // unreachable for i != 0
}

std::vector<std::uint32_t> sbnt_children(std::uint32_t i, int n) {
  std::vector<std::uint32_t> out;
  if (i == 0) {
    for (int m = 0; m < n; ++m) out.push_back(std::uint32_t{1} << m);
    return out;
  }
  const int j = sbnt_base(i, n);
  for (int step = 1; step < n; ++step) {
    const int m = ((j - step) % n + n) % n;
    if ((i >> m) & 1u) break;  // M(i, j) ends at the first 1-bit below j
    const std::uint32_t q = i ^ (std::uint32_t{1} << m);
    if (sbnt_base(q, n) == j) out.push_back(q);
  }
  return out;
}

namespace {
// The children lists of the tree `parent` defines on n dimensions, built once per n and kept for the process.
template <std::uint32_t (*parent)(std::uint32_t, int)>
const std::vector<std::vector<std::uint32_t>>& cached_children(int n) {
  static std::mutex mutex;
  static std::map<int, std::vector<std::vector<std::uint32_t>>> cache;
  std::lock_guard lock(mutex);
  auto it = cache.find(n);
  if (it == cache.end()) {
    std::vector<std::vector<std::uint32_t>> children(std::size_t{1} << n);
    for (std::uint32_t i = 1; i < (std::uint32_t{1} << n); ++i) children[parent(i, n)].push_back(i);
    it = cache.emplace(n, std::move(children)).first;
  }
  return it->second;
}
}  // namespace

const std::vector<std::vector<std::uint32_t>>& sbnt_children(int n) { return cached_children<sbnt_parent>(n); }

std::uint32_t sbt_parent(std::uint32_t i, int) { return i ^ std::bit_floor(i); }

const std::vector<std::vector<std::uint32_t>>& sbt_children(int n) { return cached_children<sbt_parent>(n); }

std::vector<std::size_t> sbnt_subtree_sizes(int n) {
  std::vector<std::size_t> sizes(std::size_t{1} << n, 0);
  subtree_size(0, n, sizes);
  return sizes;
}

std::vector<std::vector<std::size_t>> sbnt_broadcast_loads(int n) {
  std::vector<std::vector<std::size_t>> loads(static_cast<std::size_t>(n), std::vector<std::size_t>(static_cast<std::size_t>(n), 0));
  for (std::uint32_t r = 1; r < (std::uint32_t{1} << n); ++r)
    ++loads[static_cast<std::size_t>(std::popcount(r) - 1)][static_cast<std::size_t>(edge_dim(r, sbnt_parent(r, n)))];
  return loads;
}

std::vector<std::vector<std::size_t>> sbnt_personalized_loads(int n) {
  const std::vector<std::size_t> sizes = sbnt_subtree_sizes(n);
  std::vector<std::vector<std::size_t>> loads(static_cast<std::size_t>(n), std::vector<std::size_t>(static_cast<std::size_t>(n), 0));
  for (std::uint32_t r = 1; r < (std::uint32_t{1} << n); ++r)
    loads[static_cast<std::size_t>(std::popcount(r) - 1)][static_cast<std::size_t>(edge_dim(r, sbnt_parent(r, n)))] += sizes[r];
  return loads;
}

namespace {

// The step of the edge across e in a two-sweep one-port schedule whose paths start at dimension `first`.
int sweep_step(int e, int first, int n) { return e >= first ? e : n + e; }

int one_port_steps(int n) { return n == 0 ? 0 : 2 * n - 1; }

}  // namespace

TreeSchedule sbnt_all_port_schedule(int n) {
  return {n, 1, n, [n](int, std::uint32_t r) { return sbnt_parent(r, n); },
          [](int, std::uint32_t r) { return std::popcount(r) - 1; }};
}

TreeSchedule sbt_all_port_schedule(int n) {
  return {n, 1, n, [n](int, std::uint32_t r) { return sbt_parent(r, n); },
          [](int, std::uint32_t r) { return std::popcount(r) - 1; }};
}

TreeSchedule sbnt_one_port_schedule(int n) {
  return {n, 1, one_port_steps(n), [n](int, std::uint32_t r) { return sbnt_parent(r, n); },
          [n](int, std::uint32_t r) { return sweep_step(edge_dim(r, sbnt_parent(r, n)), sbnt_base(r, n), n); }};
}

TreeSchedule nrsbt_one_port_schedule(int n) {
  // Tree k's dimension order is k, k + 1, ..., k - 1 (mod n): r's parent drops the 1-bit latest in that order.
  auto last_dim = [n](int k, std::uint32_t r) {
    for (int t = n - 1; t >= 0; --t)
      if ((r >> ((k + t) % n)) & 1u) return (k + t) % n;
    return -1;
  };
  return {n, n, one_port_steps(n), [last_dim](int k, std::uint32_t r) { return r ^ (std::uint32_t{1} << last_dim(k, r)); },
          [last_dim, n](int k, std::uint32_t r) { return sweep_step(last_dim(k, r), k, n); }};
}

std::vector<std::vector<std::vector<std::size_t>>> tree_schedule_loads(const TreeSchedule& schedule) {
  const auto n = static_cast<std::size_t>(schedule.n);
  const auto trees = static_cast<std::size_t>(schedule.trees);
  std::vector<std::vector<std::vector<std::size_t>>> loads(
      static_cast<std::size_t>(schedule.steps), std::vector<std::vector<std::size_t>>(n, std::vector<std::size_t>(trees, 0)));
  for (int k = 0; k < schedule.trees; ++k)
    for (std::uint32_t r = 1; r < (std::uint32_t{1} << schedule.n); ++r)
      ++loads[static_cast<std::size_t>(schedule.step(k, r))][static_cast<std::size_t>(edge_dim(r, schedule.parent(k, r)))]
             [static_cast<std::size_t>(k)];
  return loads;
}

}  // namespace hcemu::model
