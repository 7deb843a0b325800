#pragma once
// The global barrier of docs/model.md §6: every node leaves at the timing model's release time for the latest entry
// clock. The last node in completes it; the others wait, parked, for its generation to change.
#include <atomic>
#include <cstdint>

#include "hcemu/time.hpp"

namespace hcemu::detail {

class GlobalBarrier {
 public:
  explicit GlobalBarrier(int nodes) : nodes_(nodes) {}

  struct Entry {
    std::uint32_t generation;  // to wait on
    bool last;                 // this node completes the barrier
    Time latest_entry;         // for the last node: the latest entry clock
  };
  Entry arrive(Time clock);
  // The last node: releases everyone at `release`.
  void release(Time release);
  bool released(std::uint32_t generation) const { return generation_.load(std::memory_order_acquire) != generation; }
  Time release_time() const { return release_time_.load(std::memory_order_acquire); }  // once released
  void reset();

 private:
  int nodes_;
  std::atomic<int> arrived_{0};
  std::atomic<Time> latest_{0};
  std::atomic<Time> release_time_{0};
  std::atomic<std::uint32_t> generation_{0};
};

}  // namespace hcemu::detail
