#include "runtime/barrier.hpp"

namespace hcemu::detail {

GlobalBarrier::Entry GlobalBarrier::arrive(Time clock) {
  const std::uint32_t generation = generation_.load(std::memory_order_acquire);
  Time seen = latest_.load(std::memory_order_relaxed);
  while (seen < clock && !latest_.compare_exchange_weak(seen, clock, std::memory_order_acq_rel)) {
  }
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 < nodes_) return {generation, false, 0};
  // The last node in: every other node is waiting, so nothing else touches the barrier until the release.
  return {generation, true, latest_.load(std::memory_order_acquire)};
}

void GlobalBarrier::release(Time release) {
  release_time_.store(release, std::memory_order_relaxed);
  latest_.store(0, std::memory_order_relaxed);
  arrived_.store(0, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_acq_rel);
}

void GlobalBarrier::reset() {
  arrived_.store(0, std::memory_order_relaxed);
  latest_.store(0, std::memory_order_relaxed);
  release_time_.store(0, std::memory_order_relaxed);
}

}  // namespace hcemu::detail
