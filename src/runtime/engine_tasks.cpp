// Node threads as lightweight threads on oneTBB's worker pool: each node keeps its own stack (runtime/stack_pool.hpp)
// and runs until it must wait; then it suspends (runtime/fiber.hpp) and its worker runs another node, and whoever
// satisfies the wait makes it runnable again. oneTBB provides the workers: one long-running task each, in a task
// arena of the configured size. Under virtual and native timing each worker keeps its own queue of runnable nodes,
// first in, first out, and an idle worker takes half of another's queue at once. Each node has a home worker (the
// nodes in blocks of consecutive ids), and a node made runnable goes on its home's queue, so that what it touches
// stays in one core's cache unless a worker runs out of work; no wake-up writes a line that both workers write, as
// a oneTBB task per resumption would (its allocation, its spawn, the task group's shared reference count; see
// docs/engine.md). Wall timing runs the nodes in order of their wake-up time on the same workers
// (runtime/wall_schedule.hpp).
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <memory>
#include <span>
#include <thread>
#include <vector>

#include "hcemu/errors.hpp"
#include "runtime/engine.hpp"
#include "runtime/fiber.hpp"
#include "runtime/run_queues.hpp"
#include "runtime/shared_work.hpp"
#include "runtime/stack_overflow.hpp"
#include "runtime/stack_pool.hpp"
#include "runtime/wall_schedule.hpp"

namespace hcemu::detail {
namespace {

// Which worker of the task engine this host thread is, or -1. Read only in functions that do not run on a node's
// stack across a switch, so that a compiler cannot keep a stale address of it.
thread_local int current_worker = -1;

// The wake-ups a worker holds back between Engine::begin_batch and end_batch, per home worker: the placer's in a pass
// of placing, and each helper's in its tasks of a shared level. Nested batches hand over at the outermost end.
struct alignas(64) HeldWakeUps {
  int depth = 0;
  std::vector<std::vector<int>> by_home;
};
// The held wake-ups of this host thread, or null.
thread_local HeldWakeUps* held_wake_ups = nullptr;
// Not inlined, like current_worker's readers: a node that wakes another may itself have resumed on another thread.
[[gnu::noinline]] HeldWakeUps* held_wake_ups_of_this_thread() { return held_wake_ups; }
[[gnu::noinline]] void set_held_wake_ups(HeldWakeUps* held) { held_wake_ups = held; }

// A node's state as the scheduler sees it. kNotified marks a permit (an unpark that came while the node ran or was
// on its way to suspend).
constexpr int kRunning = 0, kParking = 1, kSuspended = 2, kNotified = 4;

class TaskEngine final : public Engine {
 public:
  explicit TaskEngine(const EngineOptions& options)
      : options_(options),
        // One per core this process may run on: oneTBB counts the cores of its affinity mask (mpirun binds each rank
        // to its own), where std::thread::hardware_concurrency counts the host's. Never more than the nodes: the
        // others would only spin and be waited for.
        workers_(std::min(options.workers > 0 ? options.workers : cores_of_this_process(),
                          options.nodes > 0 ? options.nodes : std::numeric_limits<int>::max())),
        // oneTBB starts no more threads than cores unless told: asked for more workers, it would run the extra
        // workers' loops only after others ended, and say so on stderr. Raised for as long as this engine lives (the
        // lowest of the limits alive at once applies, so a limit set elsewhere in the program still holds).
        parallelism_(workers_ > cores_of_this_process()
                         ? std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                                 static_cast<std::size_t>(workers_))
                         : nullptr),
        arena_(workers_),
        stacks_(options.memory_guard) {}
  // tbb::task_group may throw from its destructor when tasks are left; none are once run() has returned.
  ~TaskEngine() noexcept override {}

  void run(int nodes, const std::function<void(int)>& body, const std::function<void()>& started) override {
    stacks_.reserve(nodes, options_.stack_bytes);
    if (static_cast<int>(fibers_.size()) != nodes) fibers_ = std::vector<NodeFiber>(static_cast<std::size_t>(nodes));
    for (int i = 0; i < nodes; ++i) {
      NodeFiber& f = fibers_[static_cast<std::size_t>(i)];
      f.engine = this;
      f.id = i;
      f.home = home_of(i, nodes);
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
      wall_.start(nodes);
    } else {
      queues_.reset(workers_, nodes, parallelism_ != nullptr || options_.cores_shared);
      if (held_.size() != static_cast<std::size_t>(workers_))
        held_ = std::vector<HeldWakeUps>(static_cast<std::size_t>(workers_));
      // In blocks of consecutive nodes: neighbours in the low dimensions start on one worker.
      for (int i = 0; i < nodes; ++i) queues_.push(fibers_[static_cast<std::size_t>(i)].home, i);
    }
    arena_.execute([&] {
      tbb::task_group workers;
      for (int w = 0; w < workers_; ++w) workers.run(Worker{this, w});
      workers.wait();
    });
    for (const NodeFiber& f : fibers_) take_up(&f);
    stacks_.count_touched();
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
    wall_.sleep(node, deadline);
    while (RealClock::now() < deadline && interrupted_.load(std::memory_order_acquire) == 0) park(node);
  }

  void interrupt() override {
    interrupted_.store(1, std::memory_order_release);
    if (!options_.wall) return;
    for (int node : wall_.take_sleepers()) unpark(node);
  }

  int workers() const override { return workers_; }
  int running_worker(bool& more_queued) const override {
    const int w = task_worker_of_this_thread();
    more_queued = w >= 0 && !options_.wall && queues_.queued(w) > 0;
    return w;
  }
  int home(int node) const override { return home_of(node, static_cast<int>(fibers_.size())); }

  void record_stats(bool on) override {
    stats_on_ = on;
    stats_.assign(on ? static_cast<std::size_t>(workers_) : 0, PaddedStats{});
  }
  void share(int tasks, SharedTask task) override {
    if (tasks <= 1 || workers_ == 1 || options_.wall) return Engine::share(tasks, task);
    shared_.run(tasks, task, [&](int n) { queues_.wake_sleeping(n); }, task_worker_of_this_thread());
  }

  void charge_placing(double seconds) override {
    // Placing outside a slice (dry) is timed by the worker itself.
    if (const int w = task_worker_of_this_thread(); w >= 0 && static_cast<std::size_t>(w) < stats_.size())
      if (PaddedStats& mine = stats_[static_cast<std::size_t>(w)]; mine.in_slice) mine.s.placing_seconds += seconds;
  }
  std::vector<WorkerStats> worker_stats() const override {
    std::vector<WorkerStats> out;
    for (const PaddedStats& p : stats_) {
      WorkerStats s = p.s;
      s.running_seconds = std::max(0.0, s.running_seconds - s.placing_seconds);  // placing ran inside slices
      s.placing_seconds += p.helped_seconds;  // and the worker's share of it outside them (share)
      out.push_back(s);
    }
    return out;
  }

 private:
  // Each worker writes only its own, on a line of its own.
  struct alignas(64) PaddedStats {
    WorkerStats s;
    double helped_seconds = 0;  // placing outside any slice: shared by the placer (share), or after a dry queue
    bool in_slice = false;
  };

  struct NodeFiber : Fiber {
    TaskEngine* engine = nullptr;
    int id = 0;
    int home = 0;  // the worker whose queue it goes on when made runnable (virtual and native timing)
    std::atomic<int> state{kRunning};
    bool finished = false;  // written by the fiber before its last switch, read by its worker after it
    bool yielding = false;
  };
  static void entry(Fiber& fiber) {
    auto& f = static_cast<NodeFiber&>(fiber);
    (*f.engine->body_)(f.id);
    f.finished = true;
  }

  // On a worker: runs node i until it suspends, yields or finishes, then completes the move it asked for.
  void slice(int i) {
    NodeFiber& f = fibers_[static_cast<std::size_t>(i)];
    take_up(&f);
    stack_overflow::running(options_.first_node + i, stacks_.bottom(i), stacks_.size());
    f.resume();
    stack_overflow::running(-1, nullptr, 0);
    hand_off(&f);
    if (f.finished) {
      finished_.fetch_add(1, std::memory_order_acq_rel);
      if (options_.wall) wall_.signal();
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

  // The task oneTBB runs, one per worker. oneTBB copies it into its own task object after hand_off (inside run()), so
  // ThreadSanitizer would see that copy race with the worker's first read of it, a hand-off it cannot see either way;
  // the two fields are read uninstrumented, and everything the worker does after take_up is instrumented as usual.
  struct Worker {
    TaskEngine* engine;
    int index;
    __attribute__((no_sanitize("thread"))) void operator()() const {
      TaskEngine* const e = engine;
      const int w = index;
      take_up(e);
      if (e->options_.wall)
        e->wall_worker();
      else
        e->worker(w);
    }
  };

  // Virtual and native timing: runs the nodes of its own queue, then half of another's, until every node has
  // finished or no node can run again (all suspended, none runnable, no worker running one: the caller finds out).
  void worker(int w) {
    current_worker = w;
    queues_.worker_started();
    const int nodes = static_cast<int>(fibers_.size());
    PaddedStats* const mine = stats_on_ ? &stats_[static_cast<std::size_t>(w)] : nullptr;
    WorkerStats* const stats = mine != nullptr ? &mine->s : nullptr;
    // The clock is read where the worker's own queue has run empty and around its placing outside slices, not at
    // every slice: its running time is what is left of its life (a lone worker is never idle).
    const auto began = stats ? RealClock::now() : RealClock::time_point{};
    std::uint64_t joined = 0;  // the latest job of shared placing this worker joined
    int warmed = -1;           // the node whose first lines it started loading last
    for (;;) {
      if (shared_.offered(joined)) place_outside_slice(mine, [&] { return shared_.join(joined, w); });
      int next[2];
      int i = queues_.pop(w, next);
      if (i >= 0) warm(next, warmed);
      if (i < 0 && dry_ != nullptr) place_outside_slice(mine, [&] {
        dry_(dry_context_, w);
        return true;
      });
      if (i < 0) {  // idle: looking for a node elsewhere, spinning, asleep
        const auto idle_from = stats ? RealClock::now() : RealClock::time_point{};
        i = queues_.steal(w, 2);
        if (i < 0)
          i = queues_.idle(
              w, [&] { return finished_.load(std::memory_order_acquire) == nodes; },
              [&] { return shared_.offered(joined); });
        if (stats) stats->idle_seconds += std::chrono::duration<double>(RealClock::now() - idle_from).count();
      }
      if (i == RunQueues::kStop) break;
      if (i < 0) continue;
      if (stats == nullptr) {
        slice(i);
        continue;
      }
      mine->in_slice = true;
      slice(i);
      mine->in_slice = false;
      ++stats->slices;
    }
    if (stats) {
      const double life = std::chrono::duration<double>(RealClock::now() - began).count();
      stats->running_seconds = life - stats->idle_seconds - mine->helped_seconds;  // less placing: worker_stats
    }
    current_worker = -1;
  }

  // Placing between slices: joining the placer's shared work (share), or counting the parks put off once the
  // worker's own queue has run dry, which may start a pass (set_dry). `place()` says whether it did any; its time is
  // placing, not idleness.
  template <typename Place>
  void place_outside_slice(PaddedStats* mine, const Place& place) {
    if (mine == nullptr) {
      place();
      return;
    }
    const auto start = RealClock::now();
    if (!place()) return;
    mine->helped_seconds += std::chrono::duration<double>(RealClock::now() - start).count();
  }

  // The nodes to run after the next one: a node's state is cold by the time it runs again (every other node has run
  // since), so the one two places ahead starts loading its first lines and the one next its stack and what those
  // lines point to, while this worker runs the node before them. A node that was not two places ahead the time
  // before (it was queued since, or came from elsewhere) has its first lines loaded now. `warmed`: the node whose
  // first lines the worker loaded last.
  void warm(const int (&next)[2], int& warmed) {
    if (next[0] >= 0) {
      if (next[0] != warmed && warm_ != nullptr) warm_(warm_context_, next[0], 0);
      fibers_[static_cast<std::size_t>(next[0])].prefetch_stack();
      if (warm_ != nullptr) warm_(warm_context_, next[0], 1);
    }
    warmed = next[1];
    if (next[1] >= 0) {
      __builtin_prefetch(&fibers_[static_cast<std::size_t>(next[1])], 1);
      if (warm_ != nullptr) warm_(warm_context_, next[1], 0);
    }
  }

  int home_of(int node, int nodes) const { return home_block(node, nodes, workers_); }

  // The coordinator wakes most of a pass's nodes in one run of placing, where each push to another worker's queue
  // took that queue's line from its owner: they are handed over eight at a time instead. So are those that the
  // workers helping it wake (share): each worker holds its own.
  void begin_batch() override {
    if (options_.wall) return;
    const int w = task_worker_of_this_thread();
    if (w < 0) return;
    HeldWakeUps& held = held_[static_cast<std::size_t>(w)];
    if (held.depth++ > 0) return;
    held.by_home.resize(static_cast<std::size_t>(workers_));
    set_held_wake_ups(&held);
  }
  void end_batch() override {
    HeldWakeUps* const held = held_here();
    if (held == nullptr || --held->depth > 0) return;
    set_held_wake_ups(nullptr);
    if (holding_.load(std::memory_order_relaxed)) return;  // hold_wake_ups(false) hands them over
    int wakes = 0;
    for (int home = 0; home < workers_; ++home) wakes += hand_over(*held, home) ? 1 : 0;
    queues_.wake_sleeping(wakes);
  }
  // The helpers' tasks of a level end before share() returns to the placer, and a worker holds wake-ups only inside
  // a task or as the placer: the placer alone touches the lists here. Each home gets every worker's wake-ups for it
  // in one push, and the sleeping workers are woken by one call, rather than by a push and a wake per worker and
  // home (W^2 of each, on the placer's serial path).
  void hold_wake_ups(bool on) override {
    if (options_.wall) return;
    holding_.store(on, std::memory_order_relaxed);
    if (on) return;
    int wakes = 0;
    for (int home = 0; home < workers_; ++home) {
      gathered_.clear();
      for (HeldWakeUps& held : held_) {
        if (held.by_home.size() != static_cast<std::size_t>(workers_)) continue;
        std::vector<int>& ids = held.by_home[static_cast<std::size_t>(home)];
        gathered_.insert(gathered_.end(), ids.begin(), ids.end());
        ids.clear();
      }
      if (!gathered_.empty() && push_woken(home, gathered_)) ++wakes;
    }
    queues_.wake_sleeping(wakes);
  }

  __attribute__((noinline)) void schedule(int i) {
    if (!options_.wall) {
      const int home = fibers_[static_cast<std::size_t>(i)].home;
      if (HeldWakeUps* const held = held_here()) {
        std::vector<int>& ids = held->by_home[static_cast<std::size_t>(home)];
        ids.push_back(i);
        if (ids.size() >= kHeldWakeUps && !holding_.load(std::memory_order_relaxed) && hand_over(*held, home))
          queues_.wake_one_if_sleeping();
        return;
      }
      // A sleeping worker is woken only for a second node in the queue: the worker that queued this one takes it up
      // itself once its own node waits (a ping-pong stays on one worker, RunQueues::idle).
      const bool local = current_worker == home;
      if (queues_.push(home, i) >= 2 || !local) queues_.wake_one_if_sleeping();
      return;
    }
    wall_.runnable(i);
  }

  // This thread's held wake-ups, where it holds them for this engine; else null.
  HeldWakeUps* held_here() const {
    HeldWakeUps* const held = held_wake_ups_of_this_thread();
    return held != nullptr && held >= held_.data() && held < held_.data() + held_.size() ? held : nullptr;
  }

  // Hands the held wake-ups for `home` to its queue; whether a sleeping worker should be woken for them (the caller
  // wakes them, all at once where it hands over to several homes).
  bool hand_over(HeldWakeUps& held, int home) {
    std::vector<int>& ids = held.by_home[static_cast<std::size_t>(home)];
    if (ids.empty()) return false;
    const bool wake = push_woken(home, ids);
    ids.clear();
    return wake;
  }
  // Nodes woken here, onto their home's queue: whether a sleeping worker should be woken for them, as for one node in
  // schedule (a second in the queue, or a queue not this thread's).
  bool push_woken(int home, std::span<const int> ids) {
    return queues_.push(home, ids) >= 2 || task_worker_of_this_thread() != home;
  }

  // Wall timing: the workers run the nodes in the order WallSchedule keeps.
  void wall_worker() {
    const int nodes = static_cast<int>(fibers_.size());
    wall_.work([&](int node) { slice(node); }, [&](int node) { unpark(node); },
               [&] { return finished_.load(std::memory_order_acquire) == nodes; });
  }

  EngineOptions options_;
  int workers_;
  std::unique_ptr<tbb::global_control> parallelism_;  // set when there are more workers than cores
  tbb::task_arena arena_;
  RunQueues queues_;  // virtual and native timing
  SharedWork shared_;  // what the placer shares with idle workers (virtual timing)
  std::vector<HeldWakeUps> held_;  // per worker
  std::atomic<bool> holding_{false};  // hold_wake_ups; written by the placer, read inside its batch
  std::vector<int> gathered_;  // hold_wake_ups(false): the placer's
  static constexpr std::size_t kHeldWakeUps = 8;
  StackPool stacks_;
  std::vector<NodeFiber> fibers_;
  bool stats_on_ = false;
  std::vector<PaddedStats> stats_;  // per worker, when stats_on_
  const std::function<void(int)>* body_ = nullptr;
  std::atomic<int> finished_{0};
  std::atomic<std::uint32_t> interrupted_{0};
  WallSchedule wall_;  // wall timing
};

}  // namespace

int cores_of_this_process() { return std::max(1, tbb::info::default_concurrency()); }

int task_worker_of_this_thread() { return current_worker; }

std::unique_ptr<Engine> make_task_engine(const EngineOptions& options) {
  return std::make_unique<TaskEngine>(options);
}

}  // namespace hcemu::detail
