// Node threads as lightweight threads on oneTBB's worker pool: each node keeps its own stack (runtime/stack_pool.hpp)
// and runs until it must wait; then it suspends (runtime/fiber.hpp) and its worker runs another node, and whoever
// satisfies the wait makes it runnable again. Virtual and native timing let oneTBB's scheduler run the runnable
// nodes (one task per resumption, work-stealing across workers). Wall timing runs them in order of their wake-up
// time on the same workers, which spin through the last stretch before a wake-up instead of leaving it to the
// operating system's timer slack: that is what keeps an emulated wall-clock run close to the model.
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

#include "hcemu/errors.hpp"
#include "runtime/engine.hpp"
#include "runtime/fiber.hpp"
#include "runtime/futex.hpp"
#include "runtime/stack_pool.hpp"

#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#endif

namespace hcemu::detail {
namespace {

// oneTBB (Debian's build, not instrumented) hands a task from the thread that spawns it to the one that runs it with
// synchronisation ThreadSanitizer cannot see. A node's thread of control moves between workers that way, so each
// hand-off is announced to it: released where a task is spawned or a node let go, acquired where a task starts
// (before it reads what it captured) or a node is taken up.
char spawned;  // stands for oneTBB's task queues
inline void hand_off(const void* what) {
#if defined(__SANITIZE_THREAD__)
  __tsan_release(const_cast<void*>(what));
#else
  (void)what;
#endif
}
inline void take_up(const void* what) {
#if defined(__SANITIZE_THREAD__)
  __tsan_acquire(const_cast<void*>(what));
#else
  (void)what;
#endif
}

// A node's state as the scheduler sees it. kNotified marks a permit (an unpark that came while the node ran or was
// on its way to suspend).
constexpr int kRunning = 0, kParking = 1, kSuspended = 2, kNotified = 4;

class TaskEngine final : public Engine {
 public:
  explicit TaskEngine(const EngineOptions& options)
      : options_(options),
        // One per core this process may run on: oneTBB counts the cores of its affinity mask (mpirun binds each rank
        // to its own), where std::thread::hardware_concurrency counts the host's.
        workers_(options.workers > 0 ? options.workers : std::max(1, tbb::info::default_concurrency())),
        arena_(workers_) {}
  // tbb::task_group may throw from its destructor when tasks are left; none are once run() has returned.
  ~TaskEngine() noexcept override {}

  void run(int nodes, const std::function<void(int)>& body, const std::function<void()>& started) override {
    stacks_.reserve(nodes, options_.stack_bytes);
    if (static_cast<int>(fibers_.size()) != nodes) fibers_ = std::vector<NodeFiber>(static_cast<std::size_t>(nodes));
    for (int i = 0; i < nodes; ++i) {
      NodeFiber& f = fibers_[static_cast<std::size_t>(i)];
      f.engine = this;
      f.id = i;
      f.state.store(kRunning, std::memory_order_relaxed);
      f.finished = f.yielding = false;
      f.prepare(stacks_.bottom(i), stacks_.size(), &entry);
    }
    body_ = &body;
    finished_.store(0, std::memory_order_relaxed);
    interrupted_.store(0, std::memory_order_relaxed);
    started();
    hand_off(this);
    for (const NodeFiber& f : fibers_) hand_off(&f);
    if (options_.wall) {
      for (int i = 0; i < nodes; ++i) runnable_.push_back(i);
      arena_.execute([&] {
        tbb::task_group workers;
        for (int w = 0; w < workers_; ++w) workers.run([this] { wall_worker(); });
        workers.wait();
      });
    } else {
      arena_.execute([&] {
        for (int i = 0; i < nodes; ++i) spawn(i);
        group_.wait();
      });
    }
    for (const NodeFiber& f : fibers_) take_up(&f);
    if (finished_.load(std::memory_order_acquire) != nodes)
      throw Error("internal error: the task engine stopped with " + std::to_string(nodes - finished_.load()) +
                  " node(s) suspended and nothing to resume them");
  }

  void park(int node) override {
    NodeFiber& f = fibers_[static_cast<std::size_t>(node)];
    for (int s = f.state.load(std::memory_order_acquire);;) {
      if (s & kNotified) {  // a permit: take it and go on
        if (f.state.compare_exchange_weak(s, kRunning, std::memory_order_acq_rel)) return;
      } else if (f.state.compare_exchange_weak(s, kParking, std::memory_order_acq_rel)) {
        break;
      }
    }
    f.suspend();  // the worker completes the move to kSuspended, unless a permit comes first
  }

  void unpark(int node) override {
    NodeFiber& f = fibers_[static_cast<std::size_t>(node)];
    for (int s = f.state.load(std::memory_order_acquire);;) {
      if (s & kNotified) return;
      if (s == kSuspended) {
        if (f.state.compare_exchange_weak(s, kRunning, std::memory_order_acq_rel)) {
          schedule(node);
          return;
        }
      } else if (f.state.compare_exchange_weak(s, s | kNotified, std::memory_order_acq_rel)) {
        return;
      }
    }
  }

  void yield(int node) override {
    NodeFiber& f = fibers_[static_cast<std::size_t>(node)];
    f.yielding = true;
    f.suspend();
  }

  void sleep_until(int node, RealClock::time_point deadline) override {
    if (!options_.wall) throw Error("internal error: sleep_until without wall timing");
    {
      std::lock_guard lock(mutex_);
      timers_.push(Timer{deadline, node});
    }
    signal_workers();
    while (RealClock::now() < deadline && interrupted_.load(std::memory_order_acquire) == 0) park(node);
  }

  void interrupt() override {
    interrupted_.store(1, std::memory_order_release);
    if (!options_.wall) return;
    std::vector<int> sleepers;
    {
      std::lock_guard lock(mutex_);
      while (!timers_.empty()) {
        sleepers.push_back(timers_.top().node);
        timers_.pop();
      }
    }
    for (int node : sleepers) unpark(node);
  }

  int workers() const override { return workers_; }

 private:
  struct NodeFiber : Fiber {
    TaskEngine* engine = nullptr;
    int id = 0;
    std::atomic<int> state{kRunning};
    bool finished = false;  // written by the fiber before its last switch, read by its worker after it
    bool yielding = false;
  };
  struct Timer {
    RealClock::time_point deadline;
    int node;
    bool operator>(const Timer& other) const {
      return deadline != other.deadline ? deadline > other.deadline : node > other.node;
    }
  };

  static void entry(Fiber& fiber) {
    auto& f = static_cast<NodeFiber&>(fiber);
    (*f.engine->body_)(f.id);
    f.finished = true;
  }

  // On a worker: runs node i until it suspends, yields or finishes, then completes the move it asked for.
  void slice(int i) {
    take_up(this);
    NodeFiber& f = fibers_[static_cast<std::size_t>(i)];
    take_up(&f);
    f.resume();
    hand_off(&f);
    if (f.finished) {
      finished_.fetch_add(1, std::memory_order_acq_rel);
      if (options_.wall) signal_workers();
      return;
    }
    if (f.yielding) {
      f.yielding = false;
      schedule(i);
      return;
    }
    for (int s = f.state.load(std::memory_order_acquire);;) {
      if (s == kParking) {
        if (f.state.compare_exchange_weak(s, kSuspended, std::memory_order_acq_rel)) return;
      } else {  // kParking | kNotified: the wake-up came while it was on its way out
        if (f.state.compare_exchange_weak(s, kRunning, std::memory_order_acq_rel)) {
          schedule(i);
          return;
        }
      }
    }
  }

  // The task oneTBB runs: which node, on which engine. oneTBB copies it into its own task object after hand_off
  // (inside run()), so ThreadSanitizer would see that copy race with the worker's first read of it, a hand-off it
  // cannot see either way; the two fields are read uninstrumented, and everything the node does after take_up is
  // instrumented as usual.
  struct Slice {
    TaskEngine* engine;
    int node;
    __attribute__((no_sanitize("thread"))) void operator()() const {
      TaskEngine* const e = engine;
      const int i = node;
      take_up(&spawned);
      e->slice(i);
    }
  };

  void spawn(int i) {
    hand_off(&spawned);
    group_.run(Slice{this, i});
  }

  void schedule(int i) {
    if (!options_.wall) {
      spawn(i);
      return;
    }
    {
      std::lock_guard lock(mutex_);
      runnable_.push_back(i);
    }
    signal_workers();
  }

  void signal_workers() {
    signal_.fetch_add(1, std::memory_order_acq_rel);
    futex_wake_all(signal_);
  }

  // Wall timing: every worker runs the runnable nodes first come, first served, and otherwise waits for the earliest
  // wake-up: asleep while it is far, spinning through the last stretch.
  void wall_worker() {
    constexpr auto spin = std::chrono::microseconds(200);
    const int nodes = static_cast<int>(fibers_.size());
    while (finished_.load(std::memory_order_acquire) < nodes) {
      const std::uint32_t seen = signal_.load(std::memory_order_acquire);
      int next = -1;
      RealClock::time_point wake = RealClock::time_point::max();
      std::vector<int> due;
      {
        std::lock_guard lock(mutex_);
        const auto now = RealClock::now();
        while (!timers_.empty() && timers_.top().deadline <= now) {
          due.push_back(timers_.top().node);
          timers_.pop();
        }
        if (!runnable_.empty()) {
          next = runnable_.front();
          runnable_.pop_front();
        } else if (!timers_.empty()) {
          wake = timers_.top().deadline;
        }
      }
      for (int node : due) unpark(node);  // in order of their deadlines
      if (next >= 0) {
        slice(next);
        continue;
      }
      if (!due.empty()) continue;
      const auto now = RealClock::now();
      if (wake == RealClock::time_point::max()) {
        futex_wait_for(signal_, seen, std::chrono::milliseconds(50));
      } else if (wake - now > spin) {
        futex_wait_for(signal_, seen, wake - now - spin);
      }
      // else: spin, looking again at once
    }
  }

  EngineOptions options_;
  int workers_;
  tbb::task_arena arena_;
  tbb::task_group group_;
  StackPool stacks_;
  std::vector<NodeFiber> fibers_;
  const std::function<void(int)>* body_ = nullptr;
  std::atomic<int> finished_{0};
  std::atomic<std::uint32_t> interrupted_{0};

  // Wall timing only.
  std::mutex mutex_;
  std::deque<int> runnable_;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> timers_;
  std::atomic<std::uint32_t> signal_{0};
};

}  // namespace

std::unique_ptr<Engine> make_task_engine(const EngineOptions& options) {
  return std::make_unique<TaskEngine>(options);
}

}  // namespace hcemu::detail
