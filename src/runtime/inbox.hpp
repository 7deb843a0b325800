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
    marked_.fetch_or(1u << port, std::memory_order_release);
    return pushed_.fetch_add(1, std::memory_order_seq_cst) + 1;
  }
  // How many messages have been delivered so far (any thread).
  std::uint64_t delivered() const { return pushed_.load(std::memory_order_seq_cst); }

  // The consumer only: hands every message that has fully arrived to `take`, port by port, looking only at the ports
  // marked since the last drain (a node with d + 1 ports would otherwise read a cache line per few ports it passes).
  // If `take` throws, the ports not drained yet stay marked, so that a later drain (the one that frees what a failed
  // run left) still finds their messages.
  template <class Take>
  void drain(Take&& take) {
    for (std::uint32_t marked = marked_.exchange(0, std::memory_order_acquire); marked != 0; marked &= marked - 1) {
      MpscQueue& q = queues_[static_cast<std::size_t>(std::countr_zero(marked))];
      try {
        while (QueueHook* h = q.pop()) {
          ++popped_;
          take(static_cast<Message*>(h));
        }
      } catch (...) {
        marked_.fetch_or(marked, std::memory_order_relaxed);
        throw;
      }
    }
  }

  // Starts loading the queues the next drain will look at, those of the ports marked so far (a hint; any thread):
  // mostly one, where loading every port's took the lines of all d + 1.
  void prefetch() const {
    for (std::uint32_t marked = marked_.load(std::memory_order_relaxed); marked != 0; marked &= marked - 1)
      __builtin_prefetch(&queues_[static_cast<std::size_t>(std::countr_zero(marked))], 1);
  }

  // The consumer only: how many messages it has taken out.
  std::uint64_t taken() const { return popped_; }
  // The consumer only: whether something was delivered that it has not taken yet (a delivery half done counts).
  bool maybe_nonempty() const { return pushed_.load(std::memory_order_acquire) != popped_; }
  void reset() {
    pushed_.store(0, std::memory_order_relaxed);
    marked_.store(0, std::memory_order_relaxed);
    popped_ = 0;
  }

 private:
  static_assert(kMaxPorts <= 32, "a port's mark is a bit of marked_");
  // Deliverers touch the count and the marks, in place next to the node's other shared words, and a queue's head.
  // The queues live apart (d + 1 of them, three pointers each): a node touches the line of each port it is
  // delivered to, and the words it touches on every message stay close together.
  std::atomic<std::uint64_t> pushed_{0};
  std::atomic<std::uint32_t> marked_{0};  // the ports pushed to since the last drain
  std::uint64_t popped_ = 0;  // the consumer's
  std::unique_ptr<MpscQueue[]> queues_;
};

}  // namespace hcemu::detail
