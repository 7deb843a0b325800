#pragma once
// The order in which contending transfers are served (docs/model.md §7): by ready time in model time, ties by lower
// source id, then by issue order at that source. `step` orders the hops and packets of one store-and-forward message
// among themselves.
#include <compare>
#include <cstdint>
#include <limits>

#include "hcemu/time.hpp"

namespace hcemu::timing {

struct OrderKey {
  Time ready = 0;
  int source = 0;
  std::uint64_t seq = 0;
  std::uint32_t step = 0;

  friend auto operator<=>(const OrderKey&, const OrderKey&) = default;

  // Before every transfer that `node` can issue from model time `t` on: what a node whose clock is `t` bounds.
  static OrderKey floor_of(Time t, int node) { return {t, node, 0, 0}; }
  // After every transfer that is ready at or before `t`, whoever issued it.
  static OrderKey after(Time t) { return {t, std::numeric_limits<int>::max(), 0, 0}; }
  static OrderKey infinity() { return {kNever, std::numeric_limits<int>::max(), 0, 0}; }
};

}  // namespace hcemu::timing
