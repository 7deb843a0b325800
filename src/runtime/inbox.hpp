#pragma once
// A node's inbox: one lock-free queue per input port (a link that ends at the node, and one for messages to
// itself). Anyone delivers; only the node takes messages out.
#include <atomic>
#include <bit>
#include <cstdint>
#include <memory>
#include <stdexcept>

#include "hcemu/config.hpp"
#include "runtime/message.hpp"
#include "runtime/mpsc_queue.hpp"

namespace hcemu::detail {

class Inbox {
 public:
  // The most input ports a node has: d + 1 on the largest cube (hcemu/config.hpp), five on a torus.
  static constexpr int kMaxPorts = kMaxSpreadDimension + 1;
  explicit Inbox(int ports) : queues_(new MpscQueue[static_cast<std::size_t>(ports)]) {
    if (ports > kMaxPorts) throw std::logic_error("a node with more input ports than an inbox can mark");
  }

  // Any thread. Returns how many messages have been delivered so far, this one included.
  std::uint64_t push(int port, Message* m) {
    queues_[static_cast<std::size_t>(port)].push(m);
    // After the push: whenever a message becomes reachable (its own push, or an earlier one on the port that was
    // half done), its port's mark is set afterwards, so a drain that clears the mark first misses nothing for good.
    // The mark and the count in one step: one locked instruction per delivery instead of two.
    std::uint64_t old = state_.load(std::memory_order_relaxed);
    while (!state_.compare_exchange_weak(old, (old + kOne) | (std::uint64_t{1} << port), std::memory_order_seq_cst,
                                         std::memory_order_relaxed)) {
    }
    return (old >> kCountShift) + 1;
  }
  // How many messages have been delivered so far (any thread).
  std::uint64_t delivered() const { return state_.load(std::memory_order_seq_cst) >> kCountShift; }

  // The consumer only: hands every message that has fully arrived to `take`, port by port, looking only at the ports
  // marked since the last drain (a node with d + 1 ports would otherwise read a cache line per few ports it passes).
  // If `take` throws, the ports not drained yet stay marked, so that a later drain (the one that frees what a failed
  // run left) still finds their messages.
  template <class Take>
  void drain(Take&& take) {
    for (auto marked = static_cast<std::uint32_t>(state_.fetch_and(~kMarks, std::memory_order_acquire) & kMarks);
         marked != 0; marked &= marked - 1) {
      MpscQueue& q = queues_[static_cast<std::size_t>(std::countr_zero(marked))];
      try {
        while (QueueHook* h = q.pop()) {
          ++popped_;
          take(static_cast<Message*>(h));
        }
      } catch (...) {
        state_.fetch_or(marked, std::memory_order_relaxed);
        throw;
      }
    }
  }

  // Starts loading the queues the next drain will look at, those of the ports marked so far (a hint; any thread):
  // mostly one, where loading every port's took the lines of all d + 1.
  void prefetch() const {
    for (auto marked = static_cast<std::uint32_t>(state_.load(std::memory_order_relaxed) & kMarks); marked != 0;
         marked &= marked - 1)
      __builtin_prefetch(&queues_[static_cast<std::size_t>(std::countr_zero(marked))], 1);
  }

  // The consumer only: how many messages it has taken out.
  std::uint64_t taken() const { return popped_; }
  // The consumer only: whether something was delivered that it has not taken yet (a delivery half done counts).
  bool maybe_nonempty() const { return (state_.load(std::memory_order_acquire) >> kCountShift) != popped_; }
  void reset() {
    state_.store(0, std::memory_order_relaxed);
    popped_ = 0;
  }

 private:
  // Deliverers touch the count and the marks, in place next to the node's other shared words, and a queue's head.
  // The queues live apart (d + 1 of them, three pointers each): a node touches the line of each port it is
  // delivered to, and the words it touches on every message stay close together. One word holds both: the ports
  // pushed to since the last drain in its low bits, the count of deliveries above them (2^40 per run and node).
  static constexpr int kCountShift = 24;
  static_assert(kMaxPorts <= kCountShift, "a port's mark is one of the low bits of state_");
  static constexpr std::uint64_t kOne = std::uint64_t{1} << kCountShift;
  static constexpr std::uint64_t kMarks = kOne - 1;
  std::atomic<std::uint64_t> state_{0};
  std::uint64_t popped_ = 0;  // the consumer's
  std::unique_ptr<MpscQueue[]> queues_;
};

}  // namespace hcemu::detail
