#include "timing/clock.hpp"

#include <thread>

namespace hcemu::timing {

Time NodeClock::real_now() const {
  const auto real = std::chrono::duration_cast<std::chrono::nanoseconds>(RealClock::now() - origin_).count();
  return static_cast<Time>(static_cast<double>(real) * 1000.0 / scale_);
}

void NodeClock::advance_to(Time target) {
  switch (timing_) {
    case Timing::virtual_time:
      t_ = std::max(t_, target);
      return;
    case Timing::native:
      t_ = std::max(t_, real_now());
      return;
    case Timing::wall: {
      if (target <= t_) return;
      // Sleep most of the way, then spin until the deadline: the scheduler's wake-up slack is what limits
      // accuracy, so the last stretch is not left to it.
      const auto deadline = origin_ + std::chrono::nanoseconds(static_cast<long long>(
                                          static_cast<double>(target) * scale_ / 1000.0));
      const auto slack = std::chrono::microseconds(150);
      if (RealClock::now() + slack < deadline) std::this_thread::sleep_until(deadline - slack);
      while (RealClock::now() < deadline) {
      }
      const auto late = std::chrono::duration<double, std::micro>(RealClock::now() - deadline).count();
      lateness_us_.push_back(late);
      t_ = std::max(target, real_now());
      return;
    }
  }
}

}  // namespace hcemu::timing
