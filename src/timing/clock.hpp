#pragma once
// A node's clock under the three timings of docs/model.md §8.
// - Virtual: the model clock; nothing waits in real time.
// - Wall: the emulated machine gives every node a processor of its own, so a node's clock is its own time: it
//   advances by the real time the node spends running (its host thread's CPU time, divided by time_scale), and jumps
//   to the end of every injected wait, which the emulator really waits out. Time a node spends waiting for a host core
//   while other nodes run is not its own time: with more nodes than cores, counting it would charge each node for
//   its neighbours' work. How late the waits woke is reported (lateness).
// - Native: real time since the start, and no injected delay at all.
// The clock says when to wait; the runtime does the waiting, since only it knows how a node sleeps (an OS thread,
// or a lightweight thread that gives its worker to another node).
#include <algorithm>
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

  // A new run starts at real time `origin`; called on the node's own thread.
  void start(RealClock::time_point origin);

  // The clock now: under wall and native timing, time has moved on while the kernel computed.
  Time now() { return timing_ == Timing::virtual_time ? t_ : read_host(); }
  Time value() const { return t_; }  // without looking at the host's clocks

  // Wall timing: the node stops running (it parks or yields), and runs again, perhaps on another host thread.
  void pause() {
    if (timing_ == Timing::wall) now();
  }
  void resume() {
    if (timing_ == Timing::wall) mark_cpu();
  }

  // The node's operation ends at `target` (model time). Virtual sets the clock and native reads real time; wall
  // returns the real moment to wait until, after which the runtime calls reached(target).
  std::optional<RealClock::time_point> advance_to(Time target) {
    if (timing_ == Timing::virtual_time) {  // every wait of a virtual run: inline
      t_ = std::max(t_, target);
      return std::nullopt;
    }
    return advance_host(target);
  }
  void reached(Time target);

  // Wall timing: how late each injected wait woke, in real microseconds, and how much of the clock is the node's
  // own running time on the host.
  const std::vector<double>& lateness_us() const { return lateness_us_; }
  Time host_time() const { return host_time_; }

 private:
  Time read_host();  // wall and native: brings the clock up to the host's
  std::optional<RealClock::time_point> advance_host(Time target);  // advance_to under wall and native timing
  void mark_cpu();
  Timing timing_;
  double scale_;
  RealClock::time_point origin_{};
  Time t_ = 0;
  long long cpu_mark_ns_ = 0;  // wall: the thread's CPU time when the clock was last brought up to date
  RealClock::time_point deadline_{};
  Time host_time_ = 0;
  std::vector<double> lateness_us_;
};

}  // namespace hcemu::timing
