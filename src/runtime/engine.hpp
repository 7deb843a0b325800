#pragma once
// How node threads run: the one seam between the runtime and the host's threads. Matching, arenas and timing do not
// know which engine runs them. Two engines (one file each): lightweight threads multiplexed on oneTBB's worker pool
// (engine_tasks.cpp), and one OS thread per node (engine_os_threads.cpp), the literal form of the design and a
// reference the tests compare against.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "hcemu/report.hpp"

namespace hcemu::detail {

class MemoryGuard;

// One share of work (Engine::share): run(context, i) does task i. The tasks may come in `groups` groups, one per
// worker (Engine::home): group g is tasks [first[g], first[g + 1]), best run by worker g; first null: one group.
struct SharedTask {
  void (*run)(void* context, int task);
  void* context;
  const int* first = nullptr;
  int groups = 0;
};

class Engine {
 public:
  using RealClock = std::chrono::steady_clock;
  virtual ~Engine() = default;

  // Runs body(i) for every node i in [0, nodes), each as its own thread of control, and returns when every body
  // has returned. `started` runs once every node can start, just before the first body does (wall timing takes its
  // origin there). A body must not throw. Throws hcemu::Error, having run no body, when the threads cannot be made
  // or their stacks would take the process past the memory guard's limit (the guard's explanation).
  virtual void run(int nodes, const std::function<void(int)>& body, const std::function<void()>& started) = 0;

  // What an engine may call, from a worker, shortly before it resumes node i (`stage` 0 two nodes ahead, 1 the node
  // next): the node's runtime starts loading what it will touch first, while the worker runs another node.
  using Warm = void (*)(void* context, int node, int stage);
  void set_warm(Warm warm, void* context) {
    warm_ = warm;
    warm_context_ = context;
  }

  // From node i's own thread: suspends it until unpark(i). A permit, as in java.util.concurrent's LockSupport: an
  // unpark that comes first makes the next park return at once. May return spuriously.
  virtual void park(int node) = 0;
  // From any thread.
  virtual void unpark(int node) = 0;
  // From any thread: the unparks this thread makes until end_batch() may reach the workers in groups rather than
  // one at a time (the coordinator's wake-ups in a pass of placing); end_batch() hands over every one still held.
  virtual void begin_batch() {}
  virtual void end_batch() {}
  // From the placer, inside its batch, around the levels of one batch of placing (coordinator_batch.cpp): while on,
  // every wake-up held by the placer and by the workers that help it (share) stays held, beyond their own
  // end_batch; hold_wake_ups(false) hands them all over. A node woken in one level may have its own transfer placed
  // in a later one, which on a one-port node its next send waits for: run before, it would only park again.
  virtual void hold_wake_ups(bool on) { (void)on; }
  // From the placer, on a node's thread: runs every task in [0, tasks), here and on the workers that have no node to
  // run meanwhile, and returns once each has returned. Tasks must not throw, and may run in any order and at once.
  // An engine without workers of its own runs them here, in order.
  virtual void share(int tasks, SharedTask task) {
    for (int i = 0; i < tasks; ++i) task.run(task.context, i);
  }
  // From node i's own thread: lets other nodes run before it goes on.
  virtual void yield(int node) = 0;
  // From node i's own thread (wall timing): suspends it until the real moment `deadline`, or until interrupt().
  virtual void sleep_until(int node, RealClock::time_point deadline) = 0;
  // Ends every sleep_until at once (the run is being aborted).
  virtual void interrupt() = 0;

  // How many host threads run nodes at once.
  virtual int workers() const = 0;
  // From a node's own thread: the worker it runs on, or -1 (an engine without workers of its own), and whether that
  // worker has another node queued to run after it.
  virtual int running_worker(bool& more_queued) const {
    more_queued = false;
    return -1;
  }
  // What an engine calls on worker w whenever its own queue of nodes has run dry, before it looks elsewhere or waits
  // (the placer then counts the parks it put off, Placer::node_parked).
  using Dry = void (*)(void* context, int worker);
  void set_dry(Dry dry, void* context) {
    dry_ = dry;
    dry_context_ = context;
  }
  // The worker that node i's thread runs on by preference, in [0, workers()), once run() has begun.
  virtual int home(int node) const {
    (void)node;
    return 0;
  }

  // Statistics (EmulatorSettings::engine_stats): switched on or off before run(), read after it; a worker's placing
  // is charged, from inside a node, to the worker running that node. An engine without workers of its own records
  // none.
  virtual void record_stats(bool on) { (void)on; }
  virtual void charge_placing(double seconds) { (void)seconds; }
  virtual std::vector<WorkerStats> worker_stats() const { return {}; }

 protected:
  Warm warm_ = nullptr;
  void* warm_context_ = nullptr;
  Dry dry_ = nullptr;
  void* dry_context_ = nullptr;
};

struct EngineOptions {
  int workers = 0;              // 0: one per core (tasks engine)
  int nodes = 0;                // the most nodes a run has: no more workers than that start (0: no cap)
  std::size_t stack_bytes = 0;  // per node
  bool wall = false;            // wall timing: nodes sleep in real time, run in order of their wake-up time
  int first_node = 0;           // the id of the node the engine numbers 0 (spread over MPI ranks: the rank's first)
  // Other processes' workers share this process's cores (MPI ranks on one host, more workers in all than cores):
  // an idle worker gives its core away at once rather than spin (runtime/run_queues.hpp).
  bool cores_shared = false;
  // Counts what the nodes' stacks hold (runtime/stack_pool.hpp); nullptr: nothing is counted. Used by run() only.
  MemoryGuard* memory_guard = nullptr;
};

std::unique_ptr<Engine> make_task_engine(const EngineOptions& options);
// The tasks engine's default worker count: one per core this process may run on (its affinity mask; mpirun may bind
// a rank to some).
int cores_of_this_process();
// The task engine's worker that this host thread is, or -1 (Engine::running_worker without the virtual call and the
// look at its queue). Not inlined: a node may resume on another thread, and so may the placer, which charges its
// time from a node's stack, so it is read afresh at every call.
[[gnu::noinline]] int task_worker_of_this_thread();
// Where the tasks engine runs node `node` of `nodes` by preference (Engine::home): the nodes in blocks of consecutive
// indices, one block per worker.
inline int home_block(int node, int nodes, int workers) {
  return static_cast<int>(static_cast<std::int64_t>(node) * workers / nodes);
}
// The first index of block `block` (home_block's inverse): ceil(block * nodes / workers).
inline int home_block_first(int block, int nodes, int workers) {
  return static_cast<int>((static_cast<std::int64_t>(block) * nodes + workers - 1) / workers);
}
std::unique_ptr<Engine> make_os_thread_engine(const EngineOptions& options);

}  // namespace hcemu::detail
