#pragma once
// Work the placer shares with the task engine's workers (Engine::share): one job at a time, whose tasks are taken one
// by one by the placer and by whichever workers join it for want of a node to run. Where the tasks come in groups,
// one per worker (SharedTask::first), each worker takes its own group's first, where what they touch is likeliest
// to be in its core's cache already, and then the others'.
//
// Joining is a handshake on two words. A worker counts itself in (joined_), then reads the job; the placer, done
// with its own share, takes the job down, then waits until nobody is counted in. Both sequentially consistent: of a
// worker that counts itself in and a placer that takes the job down, at least one sees the other, so a worker either
// sees the job while the placer waits for it, or sees no job and touches nothing.
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "runtime/engine.hpp"

namespace hcemu::detail {

class SharedWork {
 public:
  // From the placer, worker `self` (or -1): runs every task, with whoever joins, and returns once each has returned.
  // `wake(n)` may wake up to n sleeping workers.
  template <typename Wake>
  void run(int tasks, SharedTask task, const Wake& wake, int self) {
    const std::uint64_t generation = generation_.load(std::memory_order_relaxed) + 1;
    const int groups = task.first == nullptr ? 1 : task.groups;
    if (static_cast<int>(cursors_.size()) < groups) cursors_ = std::vector<Cursor>(static_cast<std::size_t>(groups));
    for (int g = 0; g < groups; ++g) cursors_[static_cast<std::size_t>(g)].next.store(0, std::memory_order_relaxed);
    Job job{task, tasks, groups, cursors_.data(), generation};
    generation_.store(generation, std::memory_order_relaxed);
    job_.store(&job, std::memory_order_seq_cst);
    wake(tasks - 1);
    take(job, self);
    job_.store(nullptr, std::memory_order_seq_cst);
    for (int spins = 0; joined_.load(std::memory_order_seq_cst) != 0;)
      if (++spins > 256) std::this_thread::yield();  // a joined worker may have lost its core
  }

  // From a worker: whether a job may be under way that it has not joined yet (`seen`: the last it joined). Plain
  // reads of a line that the placer writes twice a job: a worker that has taken its share of a job, and found none
  // left, does not come back to it, where its coming back wrote the counts the placer's own share takes from.
  bool offered(std::uint64_t seen) const {
    return job_.load(std::memory_order_relaxed) != nullptr && generation_.load(std::memory_order_relaxed) != seen;
  }
  // From worker `self`: takes tasks of the job under way until none is left; whether there was one.
  bool join(std::uint64_t& seen, int self) {
    joined_.fetch_add(1, std::memory_order_seq_cst);
    Job* job = job_.load(std::memory_order_seq_cst);
    if (job != nullptr) {
      seen = job->generation;
      take(*job, self);
    }
    joined_.fetch_sub(1, std::memory_order_seq_cst);
    return job != nullptr;
  }

 private:
  struct alignas(64) Cursor {
    std::atomic<int> next{0};  // tasks of its group taken so far
  };
  struct Job {
    SharedTask task;
    int tasks;
    int groups;  // 1, or SharedTask::groups
    Cursor* cursors;  // per group
    std::uint64_t generation;
  };
  // Worker `self` takes its own group's tasks first, then helps with the others', from the next group on.
  static void take(Job& job, int self) {
    const int start = self < 0 ? 0 : self % job.groups;
    for (int k = 0; k < job.groups; ++k) {
      const int g = (start + k) % job.groups;
      const int first = job.task.first == nullptr ? 0 : job.task.first[g];
      const int count = job.task.first == nullptr ? job.tasks : job.task.first[g + 1] - first;
      std::atomic<int>& next = job.cursors[g].next;
      if (next.load(std::memory_order_relaxed) >= count) continue;  // no write to a group already done
      for (int i; (i = next.fetch_add(1, std::memory_order_relaxed)) < count;)
        job.task.run(job.task.context, first + i);
    }
  }

  alignas(64) std::atomic<Job*> job_{nullptr};
  std::atomic<std::uint64_t> generation_{0};  // of the latest job; written by the placer only
  std::vector<Cursor> cursors_;  // the placer's: resized only while no job is under way
  alignas(64) std::atomic<int> joined_{0};
};

}  // namespace hcemu::detail
