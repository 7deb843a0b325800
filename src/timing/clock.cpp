#include "timing/clock.hpp"

namespace hcemu::timing {

Time NodeClock::model_time_of(RealClock::time_point real) const {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(real - origin_).count();
  return static_cast<Time>(static_cast<double>(ns) * 1000.0 / scale_);
}

std::optional<NodeClock::RealClock::time_point> NodeClock::advance_to(Time target) {
  switch (timing_) {
    case Timing::virtual_time:
      t_ = std::max(t_, target);
      return std::nullopt;
    case Timing::native:
      t_ = std::max(t_, real_now());
      return std::nullopt;
    case Timing::wall:
      if (target <= t_) return std::nullopt;
      return real_time_of(target);
  }
  return std::nullopt;
}

void NodeClock::reached(Time target) {
  const auto late = std::chrono::duration<double, std::micro>(RealClock::now() - real_time_of(target)).count();
  lateness_us_.push_back(late);
  t_ = std::max(target, real_now());
}

}  // namespace hcemu::timing
