#include "timing/clock.hpp"

#include <time.h>

namespace hcemu::timing {

namespace {
long long thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<long long>(ts.tv_sec) * 1'000'000'000LL + ts.tv_nsec;
}
}  // namespace

void NodeClock::start(RealClock::time_point origin) {
  origin_ = origin;
  t_ = 0;
  host_time_ = 0;
  lateness_us_.clear();
  resume();
}

void NodeClock::mark_cpu() { cpu_mark_ns_ = thread_cpu_ns(); }

Time NodeClock::read_host() {
  switch (timing_) {
    case Timing::virtual_time:
      break;
    case Timing::native: {
      const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(RealClock::now() - origin_).count();
      t_ = std::max(t_, static_cast<Time>(ns) * 1000);
      break;
    }
    case Timing::wall: {
      const long long cpu = thread_cpu_ns();
      const auto ran = static_cast<Time>(static_cast<double>(cpu - cpu_mark_ns_) * 1000.0 / scale_);
      cpu_mark_ns_ = cpu;
      t_ += ran;
      host_time_ += ran;
      break;
    }
  }
  return t_;
}

std::optional<NodeClock::RealClock::time_point> NodeClock::advance_host(Time target) {
  const Time current = now();
  if (timing_ != Timing::wall || target <= current) return std::nullopt;
  deadline_ = RealClock::now() +
              std::chrono::nanoseconds(static_cast<long long>(static_cast<double>(target - current) * scale_ / 1000.0));
  return deadline_;
}

void NodeClock::reached(Time target) {
  lateness_us_.push_back(std::chrono::duration<double, std::micro>(RealClock::now() - deadline_).count());
  t_ = target;
  cpu_mark_ns_ = thread_cpu_ns();
}

}  // namespace hcemu::timing
