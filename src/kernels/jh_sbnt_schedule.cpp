#include "jh_sbnt_schedule.hpp"

#include <algorithm>
#include <bit>

#include "hcemu/model/spanning_trees.hpp"

namespace hcemu::kernels::detail {
namespace {

std::size_t port_of(std::uint32_t a, std::uint32_t b) { return static_cast<std::size_t>(std::countr_zero(a ^ b)); }

StepPorts empty(int n) {
  return StepPorts(static_cast<std::size_t>(n), std::vector<std::vector<Route>>(static_cast<std::size_t>(n)));
}

void sort_all(StepPorts& ports) {
  for (auto& step : ports)
    for (auto& list : step) std::sort(list.begin(), list.end());
}

// Every relative address's subtree, itself first.
std::vector<std::vector<std::uint32_t>> subtrees(int n) {
  const auto size = std::uint32_t{1} << n;
  std::vector<std::vector<std::uint32_t>> members(size);
  // Deepest first, so that a child's list is complete before its parent takes it over.
  std::vector<std::uint32_t> order(size);
  for (std::uint32_t r = 0; r < size; ++r) order[r] = r;
  std::stable_sort(order.begin(), order.end(),
                   [](std::uint32_t a, std::uint32_t b) { return std::popcount(a) > std::popcount(b); });
  for (std::uint32_t r : order) {
    members[r].insert(members[r].begin(), r);
    if (r != 0) {
      auto& up = members[model::sbnt_parent(r, n)];
      up.insert(up.end(), members[r].begin(), members[r].end());
    }
  }
  return members;
}

}  // namespace

SbntSchedule tree_broadcast_schedule(std::uint32_t x, const model::TreeSchedule& schedule) {
  const int n = schedule.n;
  const StepPorts none(static_cast<std::size_t>(schedule.steps), std::vector<std::vector<Route>>(static_cast<std::size_t>(n)));
  SbntSchedule s{none, none};
  for (std::uint32_t source = 0; source < (std::uint32_t{1} << n); ++source) {
    const std::uint32_t r = x ^ source;
    for (int k = 0; k < schedule.trees; ++k) {
      const Route route{source, source, static_cast<std::uint32_t>(k)};
      if (r != 0)
        s.in[static_cast<std::size_t>(schedule.step(k, r))][port_of(r, schedule.parent(k, r))].push_back(route);
      for (int i = 0; i < n; ++i) {
        const std::uint32_t c = r ^ (std::uint32_t{1} << i);
        if (c != 0 && schedule.parent(k, c) == r)
          s.out[static_cast<std::size_t>(schedule.step(k, c))][static_cast<std::size_t>(i)].push_back(route);
      }
    }
  }
  sort_all(s.out);
  sort_all(s.in);
  return s;
}

SbntSchedule sbnt_personalized_schedule(std::uint32_t x, int n) {
  SbntSchedule s{empty(n), empty(n)};
  const auto members = subtrees(n);
  for (std::uint32_t source = 0; source < (std::uint32_t{1} << n); ++source) {
    const std::uint32_t r = x ^ source;
    if (r != 0) {
      auto& list = s.in[static_cast<std::size_t>(std::popcount(r)) - 1][port_of(r, model::sbnt_parent(r, n))];
      for (std::uint32_t t : members[r]) list.push_back({source, source ^ t});
    }
    for (std::uint32_t c : model::sbnt_children(r, n)) {
      auto& list = s.out[static_cast<std::size_t>(std::popcount(r))][port_of(r, c)];
      for (std::uint32_t t : members[c]) list.push_back({source, source ^ t});
    }
  }
  sort_all(s.out);
  sort_all(s.in);
  return s;
}

SbntSchedule sbnt_reduction_schedule(std::uint32_t x, int n) {
  SbntSchedule s{empty(n), empty(n)};
  for (std::uint32_t destination = 0; destination < (std::uint32_t{1} << n); ++destination) {
    const std::uint32_t r = x ^ destination;
    if (r != 0) {
      const auto step = static_cast<std::size_t>(n + 1 - std::popcount(r));
      s.out[step - 1][port_of(r, model::sbnt_parent(r, n))].push_back({destination, destination});
    }
    for (std::uint32_t c : model::sbnt_children(r, n)) {
      const auto step = static_cast<std::size_t>(n + 1 - std::popcount(c));
      s.in[step - 1][port_of(r, c)].push_back({destination, destination});
    }
  }
  sort_all(s.out);
  sort_all(s.in);
  return s;
}

}  // namespace hcemu::kernels::detail
