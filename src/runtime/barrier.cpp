#include "runtime/barrier.hpp"

namespace hcemu::detail {

GlobalBarrier::Entry GlobalBarrier::arrive(Time clock) {
  const std::uint32_t generation = generation_.load(std::memory_order_acquire);
  Time seen = max_entry_.load(std::memory_order_relaxed);
  while (seen < clock && !max_entry_.compare_exchange_weak(seen, clock, std::memory_order_acq_rel)) {
  }
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 < nodes_) return {generation, false};
  // The last node in: every other node is waiting, so nothing else touches the barrier until the release.
  release_time_ = max_entry_.load(std::memory_order_acquire) + cost_;
  max_entry_.store(0, std::memory_order_relaxed);
  arrived_.store(0, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  futex_wake_all(generation_);
  return {generation, true};
}

}  // namespace hcemu::detail
