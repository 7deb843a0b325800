#pragma once
// The global barrier of MODEL.md section 6: every node leaves at max(entry clocks) + Q(d).
#include <atomic>
#include <cstdint>

#include "hcemu/time.hpp"
#include "runtime/futex.hpp"

namespace hcemu::detail {

class GlobalBarrier {
 public:
  GlobalBarrier(int nodes, Time cost) : nodes_(nodes), cost_(cost) {}

  // Called on entry; returns the generation to wait on, or, for the last node in, completes the barrier.
  struct Entry {
    std::uint32_t generation;
    bool last;
  };
  Entry arrive(Time clock);
  bool released(std::uint32_t generation) const { return generation_.load(std::memory_order_acquire) != generation; }
  void wait(std::uint32_t generation) const { futex_wait(generation_, generation); }
  Time release_time() const { return release_time_; }  // valid once released
  std::uint32_t generation() const { return generation_.load(std::memory_order_acquire); }
  // Wakes every waiter without completing anything (the run is being aborted).
  void wake_all() {
    generation_.fetch_add(1, std::memory_order_acq_rel);
    futex_wake_all(generation_);
  }

 private:
  int nodes_;
  Time cost_;
  std::atomic<int> arrived_{0};
  std::atomic<Time> max_entry_{0};
  Time release_time_ = 0;
  std::atomic<std::uint32_t> generation_{0};
};

}  // namespace hcemu::detail
