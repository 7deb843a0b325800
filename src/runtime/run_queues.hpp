#pragma once
// The task engine's runnable nodes (runtime/engine_tasks.cpp): a queue per worker, stealing between them, and how an
// idle worker waits for work or for the end of the run.
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <thread>
#include <vector>

#include "runtime/futex.hpp"

namespace hcemu::detail {

// The runnable nodes, a queue per worker. A queue holds each node at most once, so a ring of one slot per node never
// overflows. Its lock is a spin lock: the owner takes it on every push and pop, another worker only to steal, and
// the two rarely meet.
class RunQueues {
 public:
  // `oversubscribed`: more workers than cores, this process's alone or with other processes' (EngineOptions).
  void reset(int workers, int nodes, bool oversubscribed) {
    oversubscribed_ = oversubscribed;
    if (static_cast<int>(queues_.size()) != workers || capacity_ != static_cast<std::size_t>(nodes)) {
      queues_ = std::vector<Queue>(static_cast<std::size_t>(workers));
      capacity_ = static_cast<std::size_t>(nodes);
      for (Queue& q : queues_) {
        q.ring.assign(capacity_, 0);
        q.watch.assign(static_cast<std::size_t>(workers), Queue::Watch{});
      }
    }
    for (Queue& q : queues_) {
      q.head = 0;
      q.size.store(0, std::memory_order_relaxed);
    }
    started_.store(0, std::memory_order_relaxed);
    idle_.store(0, std::memory_order_relaxed);
    sleepers_.store(0, std::memory_order_relaxed);
    stop_.store(false, std::memory_order_relaxed);
  }

  void worker_started() { started_.fetch_add(1, std::memory_order_seq_cst); }

  // How many wait in worker w's queue, as last seen.
  std::size_t queued(int w) const { return queues_[static_cast<std::size_t>(w)].size_hint(); }

  // Returns how many the queue holds now.
  std::size_t push(int w, std::span<const int> nodes) {
    Queue& q = queues_[static_cast<std::size_t>(w)];
    Lock lock(q);
    const std::size_t size = q.size.load(std::memory_order_relaxed);
    for (std::size_t j = 0; j < nodes.size(); ++j) q.ring[(q.head + size + j) % capacity_] = nodes[j];
    q.size.store(size + nodes.size(), std::memory_order_relaxed);
    q.pushes.store(q.pushes.load(std::memory_order_relaxed) + nodes.size(), std::memory_order_relaxed);
    return size + nodes.size();
  }
  std::size_t push(int w, int node) { return push(w, std::span<const int>(&node, 1)); }

  // The oldest of worker w's own queue, or -1; `next` gets the two behind it (-1 where there are fewer).
  int pop(int w, int (&next)[2]) {
    next[0] = next[1] = -1;
    Queue& q = queues_[static_cast<std::size_t>(w)];
    if (q.size_hint() == 0) return -1;
    Lock lock(q);
    const std::size_t size = q.size.load(std::memory_order_relaxed);
    if (size == 0) return -1;
    const int node = q.ring[q.head];
    q.head = (q.head + 1) % capacity_;
    q.size.store(size - 1, std::memory_order_relaxed);
    if (size > 1) next[0] = q.ring[q.head];
    if (size > 2) next[1] = q.ring[(q.head + 1) % capacity_];
    return node;
  }
  int pop(int w) {
    int next[2];
    return pop(w, next);
  }

  // Moves the newer half of another worker's queue that holds at least `least` onto w's, and returns the first of
  // it; -1 if there is none.
  int steal(int w, std::size_t least) {
    const int workers = static_cast<int>(queues_.size());
    for (int k = 1; k < workers; ++k)
      if (const int i = steal_from(w, (w + k) % workers, least); i >= 0) return i;
    return -1;
  }

  static constexpr int kAgain = -1, kStop = -2;
  static constexpr int kPatience = 128;  // turns of a spin

  // Worker w found nothing to run: waits until there may be something. Returns a node to run, kAgain to look
  // again (also as soon as wanted() holds: the placer offers work, Engine::share), or kStop once the run is over
  // (done() holds, or every worker is idle with every queue empty).
  //
  // It first spins, a short while: between the steps of a lockstep kernel a worker waits only while another
  // places. It leaves a queue of one node to its owner, who takes it up as soon as the node it runs waits, which
  // is soon in a kernel that mostly communicates, unless that queue stays as it is for a while: a node that two
  // nodes wake in turn (a ping-pong) then stays on one worker instead of crossing to the other on every message
  // (0.5 µs against 1.5-1.7 µs one way).
  //
  // With more workers than cores it yields its core at each turn instead: a spinning worker would hold a core that a
  // worker with a node to run is waiting for (the d = 10 exchange on 2 cores took 2.1 s with three spinning workers,
  // 4.7 s with eight).
  template <typename Done, typename Wanted>
  int idle(int w, const Done& done, const Wanted& wanted) {
    for (int spin = 0; spin < 2000; ++spin) {
      if (stop_.load(std::memory_order_acquire) || done()) return finish();
      if (wanted()) return kAgain;
      if (const int i = pop(w); i >= 0) return i;
      if (const int i = steal(w, 2); i >= 0) return i;
      if (const int i = steal_lingering(w, spin); i >= 0) return i;
      if (oversubscribed_)
        std::this_thread::yield();
      else
        pause();
    }
    const std::uint32_t seen = signal_.load(std::memory_order_seq_cst);
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    const int idle = idle_.fetch_add(1, std::memory_order_seq_cst) + 1;
    int next = kAgain;
    if (stop_.load(std::memory_order_seq_cst) || done()) {
      next = finish();
    } else if (!any_work() && !wanted()) {  // read after counting itself a sleeper: see wake_sleeping
      // Nothing runs and nothing can be run: a worker decrements idle_ before it takes work, so an idle count of
      // every worker seen after empty queues means none is running a node.
      if (idle == workers_started() && idle_.load(std::memory_order_seq_cst) == workers_started() && !any_work())
        next = finish();
      else
        futex_wait_for(signal_, seen, std::chrono::milliseconds(20));
    }
    idle_.fetch_sub(1, std::memory_order_seq_cst);
    sleepers_.fetch_sub(1, std::memory_order_seq_cst);
    return next;
  }

  // Wakes up to `count` sleeping workers, by one call: for work offered (Engine::share), or for nodes pushed to
  // several queues, after it was published, so that a worker that counts itself a sleeper either sees it or is woken.
  void wake_sleeping(int count) {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (count > 0 && sleepers_.load(std::memory_order_relaxed) > 0) {
      signal_.fetch_add(1, std::memory_order_seq_cst);
      futex_wake(signal_, count);
    }
  }

  void wake_one_if_sleeping() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (sleepers_.load(std::memory_order_relaxed) > 0) {
      signal_.fetch_add(1, std::memory_order_seq_cst);
      futex_wake_one(signal_);
    }
  }

 private:
  struct alignas(64) Queue {
    std::atomic<bool> locked{false};
    std::vector<int> ring;
    std::size_t head = 0;
    std::atomic<std::size_t> size{0};  // written under the lock, read without it as a hint
    std::atomic<std::uint64_t> pushes{0};  // written under the lock
    std::vector<int> taken;                // the owner's, while it steals
    // The owner's, while it spins: when it first saw each other queue as it is now.
    struct Watch {
      std::uint64_t pushes = ~std::uint64_t{0};
      int since = 0;
    };
    std::vector<Watch> watch;
    std::size_t size_hint() const { return size.load(std::memory_order_relaxed); }
  };
  struct Lock {
    Queue& q;
    // The holder may have lost its core (more workers than cores): after a short spin, the waiter gives its own.
    explicit Lock(Queue& queue) : q(queue) {
      for (int spin = 0; q.locked.exchange(true, std::memory_order_acquire);)
        while (q.locked.load(std::memory_order_relaxed))
          if (++spin < 64)
            pause();
          else
            std::this_thread::yield();
    }
    ~Lock() { q.locked.store(false, std::memory_order_release); }
  };
  static void pause() { __builtin_ia32_pause(); }

  bool any_work() const {
    for (const Queue& q : queues_)
      if (q.size_hint() != 0) return true;
    return false;
  }
  int workers_started() const { return started_.load(std::memory_order_seq_cst); }
  int steal_from(int w, int v, std::size_t least) {
    Queue& victim = queues_[static_cast<std::size_t>(v)];
    if (victim.size_hint() < least) return -1;
    std::vector<int>& taken = queues_[static_cast<std::size_t>(w)].taken;
    taken.clear();
    {
      Lock lock(victim);
      const std::size_t size = victim.size.load(std::memory_order_relaxed);
      if (size < least) return -1;
      const std::size_t n = (size + 1) / 2;
      for (std::size_t j = size - n; j < size; ++j) taken.push_back(victim.ring[(victim.head + j) % capacity_]);
      victim.size.store(size - n, std::memory_order_relaxed);
    }
    for (std::size_t j = 1; j < taken.size(); ++j) push(w, taken[j]);
    return taken[0];
  }

  // A queue of one that has not changed for kPatience turns of w's spin: its owner is busy with a node that does
  // not wait soon, and w takes it.
  int steal_lingering(int w, int spin) {
    Queue& own = queues_[static_cast<std::size_t>(w)];
    for (int v = 0; v < static_cast<int>(queues_.size()); ++v) {
      if (v == w) continue;
      const Queue& victim = queues_[static_cast<std::size_t>(v)];
      Queue::Watch& watch = own.watch[static_cast<std::size_t>(v)];
      const std::uint64_t pushes = victim.pushes.load(std::memory_order_relaxed);
      if (victim.size_hint() == 0 || pushes != watch.pushes) {
        watch = {pushes, spin};
      } else if (spin - watch.since >= kPatience) {
        if (const int i = steal_from(w, v, 1); i >= 0) return i;
      }
    }
    return -1;
  }

  int finish() {
    stop_.store(true, std::memory_order_seq_cst);
    signal_.fetch_add(1, std::memory_order_seq_cst);
    futex_wake_all(signal_);
    return kStop;
  }

  std::vector<Queue> queues_;
  std::size_t capacity_ = 0;
  bool oversubscribed_ = false;
  alignas(64) std::atomic<int> started_{0};  // workers that have begun: oneTBB may start fewer than asked for
  std::atomic<int> idle_{0};
  std::atomic<int> sleepers_{0};
  std::atomic<bool> stop_{false};
  std::atomic<std::uint32_t> signal_{0};
};

}  // namespace hcemu::detail
