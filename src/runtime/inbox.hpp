#pragma once
// A node's inbox: one lock-free queue per input port (a link that ends at the node, and one for messages to
// itself). Anyone delivers; only the node, or a waker holding the node while it is parked, takes messages out.
#include <atomic>
#include <cstdint>
#include <memory>

#include "runtime/message.hpp"
#include "runtime/mpsc_queue.hpp"

namespace hcemu::detail {

class Inbox {
 public:
  explicit Inbox(int ports) : ports_(ports), queues_(std::make_unique<MpscQueue[]>(static_cast<std::size_t>(ports))) {}

  // Any thread.
  void push(int port, Message* m) {
    queues_[static_cast<std::size_t>(port)].push(m);
    pushed_.fetch_add(1, std::memory_order_seq_cst);
  }

  // The consumer only: hands every message that has fully arrived to `take`.
  template <class Take>
  void drain(Take&& take) {
    for (int p = 0; p < ports_; ++p) {
      MpscQueue& q = queues_[static_cast<std::size_t>(p)];
      while (QueueHook* h = q.pop()) {
        popped_.fetch_add(1, std::memory_order_seq_cst);
        take(static_cast<Message*>(h));
      }
    }
  }

  // Any thread: whether something was delivered that the consumer has not taken yet (exact once deliveries and takes
  // have stopped; a hint that errs on the side of "yes" in between).
  bool maybe_nonempty() const {
    return pushed_.load(std::memory_order_seq_cst) != popped_.load(std::memory_order_seq_cst);
  }

 private:
  int ports_;
  std::unique_ptr<MpscQueue[]> queues_;
  std::atomic<std::uint64_t> pushed_{0};
  std::atomic<std::uint64_t> popped_{0};
};

}  // namespace hcemu::detail
