// One OS thread per node: the literal form of the design, and the reference the task engine is compared against.
// Every park is a futex sleep and every unpark a futex wake, so each is a kernel context switch.
#include <pthread.h>
#include <sched.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "hcemu/errors.hpp"
#include "runtime/engine.hpp"
#include "runtime/futex.hpp"
#include "runtime/memory_guard.hpp"
#include "runtime/stack_pool.hpp"
#include "runtime/stack_overflow.hpp"

namespace hcemu::detail {
namespace {

class OsThreadEngine final : public Engine {
 public:
  explicit OsThreadEngine(const EngineOptions& options) : options_(options) {}

  void run(int nodes, const std::function<void(int)>& body, const std::function<void()>& started) override {
    // The threads' stacks, counted as the task engine counts its stacks before their first run
    // (runtime/stack_pool.hpp), while the threads live.
    MemoryGuard* const guard = options_.memory_guard;
    const std::size_t stacks = StackPool::first_touch() * static_cast<std::size_t>(nodes);
    if (guard != nullptr && !guard->reserve(stacks)) throw Error(guard->explain());
    struct Release {
      MemoryGuard* guard;
      std::size_t bytes;
      ~Release() {
        if (guard != nullptr) guard->release(bytes);
      }
    } release{guard, stacks};
    permits_ = std::make_unique<Permit[]>(static_cast<std::size_t>(nodes));
    interrupted_.store(0, std::memory_order_relaxed);
    gate_.store(kClosed, std::memory_order_relaxed);
    body_ = &body;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    if (options_.stack_bytes > 0) pthread_attr_setstacksize(&attr, options_.stack_bytes);
    std::vector<Start> starts(static_cast<std::size_t>(nodes));
    std::vector<pthread_t> threads;
    threads.reserve(starts.size());
    int failure = 0;
    for (int i = 0; i < nodes && failure == 0; ++i) {
      starts[static_cast<std::size_t>(i)] = Start{this, i};
      pthread_t t;
      failure = pthread_create(&t, &attr, thread_main, &starts[static_cast<std::size_t>(i)]);
      if (failure == 0) threads.push_back(t);
    }
    pthread_attr_destroy(&attr);
    // Every thread waits at the gate until all exist, so that they start together, or none runs its body.
    if (failure == 0) started();
    gate_.store(failure == 0 ? kOpen : kSkip, std::memory_order_release);
    futex_wake_all(gate_);
    for (pthread_t t : threads) pthread_join(t, nullptr);
    if (failure != 0)
      throw Error("could not start the thread of node " + std::to_string(threads.size()) + " of " +
                  std::to_string(nodes) + ": " + std::strerror(failure) +
                  " (try a smaller stack_bytes or dimension, or engine = tasks)");
  }

  void park(int node) override {
    Permit& p = permits_[static_cast<std::size_t>(node)];
    while (p.word.exchange(0, std::memory_order_acq_rel) == 0) futex_wait(p.word, 0);
  }

  void unpark(int node) override {
    Permit& p = permits_[static_cast<std::size_t>(node)];
    if (p.word.exchange(1, std::memory_order_acq_rel) == 0) futex_wake_one(p.word);
  }

  void yield(int) override { sched_yield(); }

  void sleep_until(int, RealClock::time_point deadline) override {
    // Sleep most of the way, then spin: the scheduler's wake-up slack is what limits accuracy, so the last stretch
    // is not left to it.
    constexpr auto spin = std::chrono::microseconds(150);
    while (interrupted_.load(std::memory_order_acquire) == 0) {
      const auto now = RealClock::now();
      if (now >= deadline) return;
      if (deadline - now > spin) futex_wait_for(interrupted_, 0, deadline - now - spin);
    }
  }

  void interrupt() override {
    interrupted_.store(1, std::memory_order_release);
    futex_wake_all(interrupted_);
  }

  int workers() const override { return -1; }  // as many as the host schedules

 private:
  struct Start {
    OsThreadEngine* engine;
    int node;
  };
  struct alignas(64) Permit {
    std::atomic<std::uint32_t> word{0};
  };
  static void* thread_main(void* arg) {
    const auto* s = static_cast<const Start*>(arg);
    OsThreadEngine& e = *s->engine;
    while (e.gate_.load(std::memory_order_acquire) == kClosed) futex_wait(e.gate_, kClosed);
    if (e.gate_.load(std::memory_order_acquire) == kOpen) {
      stack_overflow::running_on_this_thread(e.options_.first_node + s->node);
      (*e.body_)(s->node);
    }
    return nullptr;
  }
  static constexpr std::uint32_t kClosed = 0, kOpen = 1, kSkip = 2;

  EngineOptions options_;
  std::unique_ptr<Permit[]> permits_;
  std::atomic<std::uint32_t> interrupted_{0};
  std::atomic<std::uint32_t> gate_{kClosed};
  const std::function<void(int)>* body_ = nullptr;
};

}  // namespace

std::unique_ptr<Engine> make_os_thread_engine(const EngineOptions& options) {
  return std::make_unique<OsThreadEngine>(options);
}

}  // namespace hcemu::detail
