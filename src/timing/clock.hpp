#pragma once
// A node's clock under the three timings of MODEL.md section 8. Virtual: the model clock, nothing waits in real
// time. Wall: real time since the start divided by time_scale, and advancing means really waiting until then.
// Native: real time, and no injected delay at all.
#include <chrono>
#include <vector>

#include "hcemu/config.hpp"
#include "hcemu/time.hpp"

namespace hcemu::timing {

class NodeClock {
 public:
  using RealClock = std::chrono::steady_clock;
  NodeClock(Timing timing, double time_scale, RealClock::time_point origin)
      : timing_(timing), scale_(time_scale), origin_(origin) {}

  // The clock now. Under wall and native timing, real time has moved on while the kernel computed.
  Time now() {
    if (timing_ != Timing::virtual_time) t_ = std::max(t_, real_now());
    return t_;
  }
  Time value() const { return t_; }  // without looking at real time

  // The node's operation ends at `target` (model time): virtual sets the clock, wall waits for it in real time,
  // native does not wait.
  void advance_to(Time target);

  // Wall timing: how late each injected wait woke, in real microseconds.
  const std::vector<double>& lateness_us() const { return lateness_us_; }

 private:
  Time real_now() const;
  Timing timing_;
  double scale_;
  RealClock::time_point origin_;
  Time t_ = 0;
  std::vector<double> lateness_us_;
};

}  // namespace hcemu::timing
