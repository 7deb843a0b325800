#pragma once
// A node's inbox: one lock-free queue per input port (a link that ends at the node, and one for messages to
// itself). Anyone delivers; only the node takes messages out.
#include <array>
#include <atomic>
#include <cstdint>

#include "hcemu/config.hpp"
#include "runtime/message.hpp"
#include "runtime/mpsc_queue.hpp"

namespace hcemu::detail {

class Inbox {
 public:
  // The most input ports a node has: d + 1 on the largest cube (hcemu/config.hpp), five on a torus.
  static constexpr int kMaxPorts = kMaxSpreadDimension + 1;
  explicit Inbox(int ports) : ports_(ports) {}

  // Any thread. Returns how many messages have been delivered so far, this one included.
  std::uint64_t push(int port, Message* m) {
    queues_[static_cast<std::size_t>(port)].push(m);
    return pushed_.fetch_add(1, std::memory_order_seq_cst) + 1;
  }
  // How many messages have been delivered so far (any thread).
  std::uint64_t delivered() const { return pushed_.load(std::memory_order_seq_cst); }

  // The consumer only: hands every message that has fully arrived to `take`. Stops at the first port after which
  // everything counted as delivered when it began has been taken (a later delivery waits for the next drain).
  template <class Take>
  void drain(Take&& take) {
    const std::uint64_t delivered = pushed_.load(std::memory_order_acquire);
    for (int p = 0; p < ports_ && popped_ != delivered; ++p) {
      MpscQueue& q = queues_[static_cast<std::size_t>(p)];
      while (QueueHook* h = q.pop()) {
        ++popped_;
        take(static_cast<Message*>(h));
      }
    }
  }

  // The consumer only: how many messages it has taken out.
  std::uint64_t taken() const { return popped_; }
  // The consumer only: whether something was delivered that it has not taken yet (a delivery half done counts).
  bool maybe_nonempty() const { return pushed_.load(std::memory_order_acquire) != popped_; }
  void reset() { pushed_.store(0, std::memory_order_relaxed), popped_ = 0; }

 private:
  // Deliverers touch the count and a queue's head: both in place, next to the node's other shared words.
  std::atomic<std::uint64_t> pushed_{0};
  int ports_;
  std::uint64_t popped_ = 0;  // the consumer's
  std::array<MpscQueue, kMaxPorts> queues_;
};

}  // namespace hcemu::detail
