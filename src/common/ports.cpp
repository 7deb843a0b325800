#include "common/ports.hpp"

#include <algorithm>

#include "common/cost_table.hpp"

namespace hcemu::timing {

PortState::PortState(const Ports& ports, int input_ports, std::int64_t overlap) : kind_(ports.kind), overlap_(overlap) {
  switch (kind_) {
    case Ports::Kind::one:
      out_free_.assign(1, 0);
      in_free_.assign(1, 0);
      break;
    case Ports::Kind::half:
      out_free_.assign(1, 0);  // one resource for both directions
      break;
    case Ports::Kind::k:
      out_free_.assign(static_cast<std::size_t>(ports.n), 0);
      in_free_.assign(static_cast<std::size_t>(ports.n), 0);
      break;
    case Ports::Kind::all:
      in_free_.assign(static_cast<std::size_t>(input_ports), 0);  // one per incoming link, the last for oneself
      break;
  }
}

void PortState::reset() {
  std::fill(out_free_.begin(), out_free_.end(), 0);
  std::fill(in_free_.begin(), in_free_.end(), 0);
}

PortState::Slot PortState::output_slot() const {
  if (out_free_.empty()) return {-1, 0};
  auto it = std::min_element(out_free_.begin(), out_free_.end());
  return {static_cast<int>(it - out_free_.begin()), *it};
}

void PortState::take_output(int channel, Time start, Time until) {
  if (channel >= 0) out_free_[static_cast<std::size_t>(channel)] = until - CostTable::overlap_of(until - start, overlap_);
}

int PortState::input_index(int in_port, Time arrival, Time hold) const {
  switch (kind_) {
    case Ports::Kind::one:
      return 0;
    case Ports::Kind::half:
      return -1;
    case Ports::Kind::all:
      return in_port;
    case Ports::Kind::k: {
      // The channel that completes it first; among equals the lowest.
      int best = 0;
      Time best_done = kNever;
      for (std::size_t i = 0; i < in_free_.size(); ++i) {
        const Time done = std::max(arrival, in_free_[i] + hold);
        if (done < best_done) best_done = done, best = static_cast<int>(i);
      }
      return best;
    }
  }
  return 0;
}

Time PortState::input_completion(Time arrival, Time hold, int in_port) const {
  const int i = input_index(in_port, arrival, hold);
  const Time free = i < 0 ? out_free_[0] : in_free_[static_cast<std::size_t>(i)];
  return std::max(arrival, free + hold);
}

Time PortState::take_input(Time arrival, Time hold, int in_port) {
  const int i = input_index(in_port, arrival, hold);
  Time& free = i < 0 ? out_free_[0] : in_free_[static_cast<std::size_t>(i)];
  const Time completion = std::max(arrival, free + hold);
  free = completion - CostTable::overlap_of(hold, overlap_);
  return completion;
}

}  // namespace hcemu::timing
