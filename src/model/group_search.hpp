#pragma once
// The search for the best group count that the pipelined sends and BROADCAST 4 share (Stout & Wagar 1990 §2-§4);
// private to src/model.
#include <algorithm>
#include <cstddef>
#include <limits>

#include "hcemu/time.hpp"

namespace hcemu::model {

// The group count g >= 1 of least time(g), where g enters the time only through the unit ⌈units/g⌉ and, for a
// fixed unit, the time grows with g (each more group is one more packet time at the source): so the best g is the
// least g of one of the O(sqrt(units)) distinct units, and past g = units (a unit of one) more groups only cost.
// Ties go to the fewer groups. This counts hcemu's padding, which the paper's continuous optimum does not.
template <class TimeOfGroups>
int best_groups(std::size_t units, TimeOfGroups time_of) {
  const std::size_t most = std::clamp<std::size_t>(units, 1, static_cast<std::size_t>(std::numeric_limits<int>::max()));
  int best = 1;
  Time best_time = time_of(1);
  for (std::size_t g = 2; g <= most;) {
    const Time t = time_of(static_cast<int>(g));
    if (t < best_time) {
      best = static_cast<int>(g);
      best_time = t;
    }
    const std::size_t unit = (units + g - 1) / g;
    if (unit <= 1) break;
    g = (units + unit - 2) / (unit - 1);  // the least g whose unit is below this one: ⌈units/(unit - 1)⌉
  }
  return best;
}

}  // namespace hcemu::model
