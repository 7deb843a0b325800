#pragma once
// An intrusive multi-producer single-consumer lock-free queue (Dmitry Vyukov's, as in many runtimes): a push is one
// atomic exchange and never waits for the consumer, a pop touches no producer's cache line. Items carry their own
// link (derive from QueueHook), so a queue costs three pointers rather than a preallocated pool: a node has one per
// incoming link, and a 16-cube has a million links. (Boost.Lockfree's queue, which the runtime used before,
// allocates a pool of a few hundred bytes per queue and pays a compare-and-swap loop on both ends.)
#include <atomic>

namespace hcemu::detail {

struct QueueHook {
  std::atomic<QueueHook*> queue_next{nullptr};
};

class MpscQueue {
 public:
  MpscQueue() : head_(&stub_), tail_(&stub_) {}
  MpscQueue(const MpscQueue&) = delete;
  MpscQueue& operator=(const MpscQueue&) = delete;

  // Any thread.
  void push(QueueHook* item) {
    item->queue_next.store(nullptr, std::memory_order_relaxed);
    QueueHook* previous = head_.exchange(item, std::memory_order_acq_rel);
    previous->queue_next.store(item, std::memory_order_release);
  }

  // The consumer only. Returns nullptr when empty, or when a push is half done (its item shows up on a later pop).
  QueueHook* pop() {
    QueueHook* tail = tail_;
    QueueHook* next = tail->queue_next.load(std::memory_order_acquire);
    if (tail == &stub_) {
      if (next == nullptr) return nullptr;
      tail_ = next;
      tail = next;
      next = next->queue_next.load(std::memory_order_acquire);
    }
    if (next != nullptr) {
      tail_ = next;
      return tail;
    }
    if (tail != head_.load(std::memory_order_acquire)) return nullptr;  // a producer is between its two steps
    push(&stub_);
    next = tail->queue_next.load(std::memory_order_acquire);
    if (next != nullptr) {
      tail_ = next;
      return tail;
    }
    return nullptr;
  }

 private:
  std::atomic<QueueHook*> head_;  // producers
  QueueHook* tail_;               // consumer
  QueueHook stub_;
};

}  // namespace hcemu::detail
