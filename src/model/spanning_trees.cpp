#include "hcemu/model/spanning_trees.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <mutex>
#include <utility>

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

int rotated_sbt_last_dim(int k, std::uint32_t r, int n) {
  for (int t = n - 1; t >= 0; --t)
    if ((r >> ((k + t) % n)) & 1u) return (k + t) % n;
  return -1;
}

std::uint32_t rotated_sbt_free_dims(int k, std::uint32_t r, int n) {
  const int last = rotated_sbt_last_dim(k, r, n);
  const int first_free = last < 0 ? 0 : ((last - k) % n + n) % n + 1;  // positions in tree k's order
  std::uint32_t free = 0;
  for (int t = first_free; t < n; ++t) free |= std::uint32_t{1} << ((k + t) % n);
  return free;
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
  auto last_dim = [n](int k, std::uint32_t r) { return rotated_sbt_last_dim(k, r, n); };
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

// ----- Two-rooted complete binary tree (Johnsson & Ho §4.1.6) ------------------------------------------------------

namespace {

// The two-rooted tree of the h-cube (h >= 2) in absolute labels: its roots a and b, a's child a1 and b's child b1,
// and the dimensions i, j, k of the edges a-a1, a-b and b-b1. The tree of the (h + 1)-cube is this one in the half
// with bit h clear and psi of it in the other half, where psi is the cube automorphism with psi(a1) = a, psi(a) = b
// and psi(b) = b1 (a translation and a permutation of the dimensions i, j, k), so that every node's twin across
// dimension h is: a's twin psi(a1), b's twin psi(a) and b1's twin psi(b). The new tree drops the edges b-b1 and
// psi(a)-psi(a1) and joins the halves by the three twin edges: its roots are b and b's twin, their children a and
// b1's twin (docs/kernels/broadcast.md spells the induction out).
struct TwoRooted {
  std::uint32_t a, b, a1, b1;
  int i, j, k;

  static std::uint32_t bit(std::uint32_t x, int at) { return (x >> at) & 1u; }
  // The permutation of dimensions: i -> j, j -> k, and k -> i unless i = k (then i and j swap).
  std::uint32_t permute(std::uint32_t x) const {
    std::uint32_t y = x & ~((1u << i) | (1u << j) | (1u << k));
    y |= bit(x, i) << j;
    y |= bit(x, j) << k;
    if (i != k) y |= bit(x, k) << i;
    return y;
  }
  std::uint32_t unpermute(std::uint32_t y) const {
    std::uint32_t x = y & ~((1u << i) | (1u << j) | (1u << k));
    x |= bit(y, j) << i;
    x |= bit(y, k) << j;
    if (i != k) x |= bit(y, i) << k;
    return x;
  }
  std::uint32_t psi(std::uint32_t x) const { return permute(x ^ a) ^ b; }
  std::uint32_t psi_inverse(std::uint32_t y) const { return unpermute(y ^ b) ^ a; }
};

// The trees of the 2-cube .. n-cube (index h - 2). The 2-cube's is the path a1 - a - b - b1 = 2 - 0 - 1 - 3.
std::vector<TwoRooted> two_rooted_levels(int n) {
  std::vector<TwoRooted> levels{{0, 1, 2, 3, 1, 0, 1}};
  for (int h = 2; h < n; ++h) {
    const TwoRooted& t = levels.back();
    const std::uint32_t top = std::uint32_t{1} << h;
    levels.push_back({t.b, t.b | top, t.a, t.b1 | top, t.j, h, t.k});
  }
  return levels;
}

// x's parent in the h-cube's tree hung from its root a (from_b false) or b (true); x is not that root.
std::uint32_t two_rooted_parent_absolute(const std::vector<TwoRooted>& levels, int h, std::uint32_t x, bool from_b) {
  if (h == 1) return x ^ 1u;
  if (h == 2) return x == 3 ? 1u : x == 2 ? 0u : (from_b ? 1u : 0u);  // edges 0-1, 0-2, 1-3
  const TwoRooted& t = levels[static_cast<std::size_t>(h - 3)];    // the (h - 1)-cube's tree, twice
  const std::uint32_t top = std::uint32_t{1} << (h - 1), low = x & (top - 1);
  if ((x & top) == 0) {                                 // the first half, entered at its root b
    if (low == t.b1) return t.b1 | top;                 // b1 hangs from its twin psi(b)
    if (from_b && low == t.b) return t.b | top;         // hung from b's twin: b hangs from it
    return two_rooted_parent_absolute(levels, h - 1, low, true);
  }
  const std::uint32_t y = t.psi_inverse(low);           // the second half, entered at its root psi(a)
  if (y == t.a1) return t.a;                            // psi(a1) hangs from its twin a
  if (!from_b && y == t.a) return t.b;                  // hung from b: psi(a) hangs from it
  return t.psi(two_rooted_parent_absolute(levels, h - 1, y, false)) | top;
}

// The absolute label of the broadcast root a of the n-cube's tree (relative address 0), and of the other root b.
std::pair<std::uint32_t, std::uint32_t> two_rooted_roots(const std::vector<TwoRooted>& levels, int n) {
  if (n <= 1) return {0, n == 1 ? 1u : 0u};
  return {levels.back().a, levels.back().b};
}

}  // namespace

std::uint32_t two_rooted_parent(std::uint32_t r, int n) {
  const auto levels = two_rooted_levels(n);
  const std::uint32_t a = two_rooted_roots(levels, n).first;
  return two_rooted_parent_absolute(levels, n, r ^ a, false) ^ a;
}

std::uint32_t two_rooted_other_root(int n) {
  const auto levels = two_rooted_levels(n);
  const auto [a, b] = two_rooted_roots(levels, n);
  return a ^ b;
}

std::vector<std::uint32_t> two_rooted_children(std::uint32_t r, int n) {
  std::vector<std::uint32_t> children;
  for (int t = 0; t < n; ++t) {
    const std::uint32_t s = r ^ (std::uint32_t{1} << t);
    if (s != 0 && two_rooted_parent(s, n) == r) children.push_back(s);
  }
  if (r == 0 && n >= 2) {  // the other root first: its side of the tree is one link deeper
    const auto v = std::find(children.begin(), children.end(), two_rooted_other_root(n));
    std::rotate(children.begin(), v, v + 1);
  }
  return children;
}

}  // namespace hcemu::model
