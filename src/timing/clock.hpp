#pragma once
// A node's clock under the three timings of MODEL.md section 8. Virtual: the model clock, nothing waits in real
// time. Wall: real time since the start divided by time_scale, and advancing means really waiting until then.
// Native: real time, and no injected delay at all. The clock says when to wait; the runtime does the waiting, since
// only it knows how a node sleeps (an OS thread, or a lightweight thread that gives its worker to another node).
#include <chrono>
#include <optional>
#include <vector>

#include "hcemu/config.hpp"
#include "hcemu/time.hpp"

namespace hcemu::timing {

class NodeClock {
 public:
  using RealClock = std::chrono::steady_clock;
  NodeClock(Timing timing, double time_scale) : timing_(timing), scale_(time_scale) {}

  // A new run starts at real time `origin`.
  void start(RealClock::time_point origin) {
    origin_ = origin;
    t_ = 0;
    lateness_us_.clear();
  }

  // The clock now. Under wall and native timing, real time has moved on while the kernel computed.
  Time now() {
    if (timing_ != Timing::virtual_time) t_ = std::max(t_, real_now());
    return t_;
  }
  Time value() const { return t_; }  // without looking at real time

  // The node's operation ends at `target` (model time). Virtual sets the clock and native reads real time; wall
  // returns the real moment to wait for, after which the runtime calls reached(target).
  std::optional<RealClock::time_point> advance_to(Time target);
  void reached(Time target);

  // Wall timing: the real moment at which model time `t` falls.
  RealClock::time_point real_time_of(Time t) const {
    return origin_ + std::chrono::nanoseconds(static_cast<long long>(static_cast<double>(t) * scale_ / 1000.0));
  }
  Time model_time_of(RealClock::time_point real) const;

  // Wall timing: how late each injected wait woke, in real microseconds.
  const std::vector<double>& lateness_us() const { return lateness_us_; }

 private:
  Time real_now() const { return model_time_of(RealClock::now()); }
  Timing timing_;
  double scale_;
  RealClock::time_point origin_{};
  Time t_ = 0;
  std::vector<double> lateness_us_;
};

}  // namespace hcemu::timing
