#pragma once
// Wall timing's order on the task engine's workers (engine_tasks.cpp): the runnable nodes first come, first served,
// and the sleeping ones (Engine::sleep_until) woken in order of their deadlines. A worker with nothing to run waits
// for the earliest deadline, asleep while it is far and spinning through the last stretch, instead of leaving that
// stretch to the operating system's timer slack: that is what keeps an emulated wall-clock run close to the model.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <mutex>
#include <queue>
#include <vector>

#include "runtime/futex.hpp"

namespace hcemu::detail {

class WallSchedule {
 public:
  using RealClock = std::chrono::steady_clock;

  // A run starts: every node runnable, in the order of their ids.
  void start(int nodes) {
    std::lock_guard lock(mutex_);
    runnable_.clear();
    for (int i = 0; i < nodes; ++i) runnable_.push_back(i);
  }
  void runnable(int node) {
    {
      std::lock_guard lock(mutex_);
      runnable_.push_back(node);
    }
    signal();
  }
  // `node` sleeps until `deadline`; the workers' loop wakes it then.
  void sleep(int node, RealClock::time_point deadline) {
    {
      std::lock_guard lock(mutex_);
      timers_.push(Timer{deadline, node});
    }
    signal();
  }
  // Every sleeping node, the earliest deadline first; none sleeps any more.
  std::vector<int> take_sleepers() {
    std::vector<int> sleepers;
    std::lock_guard lock(mutex_);
    for (; !timers_.empty(); timers_.pop()) sleepers.push_back(timers_.top().node);
    return sleepers;
  }
  // Something for the waiting workers to look at: a node runnable, a deadline sooner, a node finished.
  void signal() {
    signal_.fetch_add(1, std::memory_order_acq_rel);
    futex_wake_all(signal_);
  }

  // One worker's loop, until finished(): runs run(node) for the runnable nodes in turn, wakes the sleepers whose
  // deadlines have come with wake(node), in order of their deadlines, and otherwise waits.
  template <typename Run, typename Wake, typename Finished>
  void work(const Run& run, const Wake& wake, const Finished& finished) {
    constexpr auto spin = std::chrono::microseconds(200);
    while (!finished()) {
      const std::uint32_t seen = signal_.load(std::memory_order_acquire);
      int next = -1;
      RealClock::time_point earliest = RealClock::time_point::max();
      std::vector<int> due;
      {
        std::lock_guard lock(mutex_);
        const auto now = RealClock::now();
        for (; !timers_.empty() && timers_.top().deadline <= now; timers_.pop()) due.push_back(timers_.top().node);
        if (!runnable_.empty()) {
          next = runnable_.front();
          runnable_.pop_front();
        } else if (!timers_.empty()) {
          earliest = timers_.top().deadline;
        }
      }
      for (int node : due) wake(node);
      if (next >= 0) {
        run(next);
        continue;
      }
      if (!due.empty()) continue;
      const auto now = RealClock::now();
      if (earliest == RealClock::time_point::max()) {
        futex_wait_for(signal_, seen, std::chrono::milliseconds(50));
      } else if (earliest - now > spin) {
        futex_wait_for(signal_, seen, earliest - now - spin);
      }
      // else: spin, looking again at once
    }
  }

 private:
  struct Timer {
    RealClock::time_point deadline;
    int node;
    bool operator>(const Timer& other) const {
      return deadline != other.deadline ? deadline > other.deadline : node > other.node;
    }
  };

  std::mutex mutex_;
  std::deque<int> runnable_;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> timers_;
  std::atomic<std::uint32_t> signal_{0};
};

}  // namespace hcemu::detail
