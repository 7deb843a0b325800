// Why the task engine switches its lightweight threads with Boost.Context rather than oneTBB's own resumable tasks
// (src/runtime/fiber.hpp): the same all-to-all of 2^d tasks, each suspending whenever its partner's message has not
// come and resumed by the partner, once with oneapi::tbb::task::suspend/resume (ucontext underneath, a system call
// per switch, and three memory mappings per suspended stack) and once with fcontext switches scheduled as oneTBB
// tasks (the task engine's first way; it now keeps its own run queue per worker). No timing model: only the cost
// of suspending and resuming.
#include <benchmark/benchmark.h>

#include <oneapi/tbb/task.h>
#include <oneapi/tbb/task_group.h>
#include <sys/mman.h>

#include <atomic>
#include <boost/context/detail/fcontext.hpp>
#include <memory>
#include <vector>

namespace {

namespace ctx = boost::context::detail;

struct Inbox {
  explicit Inbox(int n) : got(std::make_unique<std::atomic<unsigned char>[]>(static_cast<std::size_t>(n))) {}
  std::unique_ptr<std::atomic<unsigned char>[]> got;  // got[k]: the message of step k has come
};

// ----- oneTBB's resumable tasks ------------------------------------------------------------------------------------

struct TbbNode : Inbox {
  using Inbox::Inbox;
  std::atomic<int> waiting{-1};
  std::atomic<oneapi::tbb::task::suspend_point> point{nullptr};
};

void tbb_exchange(int n) {
  std::vector<std::unique_ptr<TbbNode>> nodes;
  for (int i = 0; i < n; ++i) nodes.push_back(std::make_unique<TbbNode>(n));
  oneapi::tbb::task_group group;
  for (int i = 0; i < n; ++i)
    group.run([&, i] {
      TbbNode& me = *nodes[static_cast<std::size_t>(i)];
      for (int k = 1; k < n; ++k) {
        TbbNode& partner = *nodes[static_cast<std::size_t>(i ^ k)];
        partner.got[static_cast<std::size_t>(k)].store(1);
        int expected = k;
        if (partner.waiting.compare_exchange_strong(expected, -2)) {
          oneapi::tbb::task::suspend_point p;
          while ((p = partner.point.exchange(nullptr)) == nullptr) {
          }
          oneapi::tbb::task::resume(p);
        }
        if (!me.got[static_cast<std::size_t>(k)].load()) {
          oneapi::tbb::task::suspend([&](oneapi::tbb::task::suspend_point p) {
            me.point.store(p);
            me.waiting.store(k);
            int mine = k;
            if (me.got[static_cast<std::size_t>(k)].load() && me.waiting.compare_exchange_strong(mine, -1)) {
              me.point.store(nullptr);
              oneapi::tbb::task::resume(p);
            }
          });
          me.waiting.store(-1);
        }
      }
    });
  group.wait();
}

// ----- fcontext switches scheduled as oneTBB tasks -----------------------------------------------------------------

constexpr int kRunning = 0, kParking = 1, kSuspended = 2, kNotified = 4;

struct FiberNode : Inbox {
  using Inbox::Inbox;
  std::atomic<int> state{kRunning};
  ctx::fcontext_t self = nullptr, worker = nullptr;
  bool finished = false;
  int id = 0, n = 0;
  std::vector<std::unique_ptr<FiberNode>>* all = nullptr;
  oneapi::tbb::task_group* group = nullptr;
};

void slice(FiberNode* f);
void schedule(FiberNode* f) { f->group->run([f] { slice(f); }); }
void slice(FiberNode* f) {
  f->self = ctx::jump_fcontext(f->self, f).fctx;
  if (f->finished) return;
  for (int s = f->state.load();;) {
    if (s == kParking) {
      if (f->state.compare_exchange_weak(s, kSuspended)) return;
    } else if (f->state.compare_exchange_weak(s, kRunning)) {
      schedule(f);
      return;
    }
  }
}
void unpark(FiberNode* f) {
  for (int s = f->state.load();;) {
    if (s & kNotified) return;
    if (s == kSuspended) {
      if (f->state.compare_exchange_weak(s, kRunning)) return schedule(f);
    } else if (f->state.compare_exchange_weak(s, s | kNotified)) {
      return;
    }
  }
}
void park(FiberNode* f) {
  for (int s = f->state.load();;) {
    if (s & kNotified) {
      if (f->state.compare_exchange_weak(s, kRunning)) return;
    } else if (f->state.compare_exchange_weak(s, kParking)) {
      break;
    }
  }
  f->worker = ctx::jump_fcontext(f->worker, nullptr).fctx;
}
void fiber_body(ctx::transfer_t t) {
  auto* me = static_cast<FiberNode*>(t.data);
  me->worker = t.fctx;
  for (int k = 1; k < me->n; ++k) {
    FiberNode* partner = (*me->all)[static_cast<std::size_t>(me->id ^ k)].get();
    partner->got[static_cast<std::size_t>(k)].store(1);
    unpark(partner);
    while (!me->got[static_cast<std::size_t>(k)].load()) park(me);
  }
  me->finished = true;
  ctx::jump_fcontext(me->worker, nullptr);
}

void fiber_exchange(int n) {
  constexpr std::size_t kStack = 64 << 10;
  auto* stacks = static_cast<std::byte*>(
      mmap(nullptr, kStack * static_cast<std::size_t>(n), PROT_READ | PROT_WRITE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
  std::vector<std::unique_ptr<FiberNode>> nodes;
  oneapi::tbb::task_group group;
  for (int i = 0; i < n; ++i) {
    auto f = std::make_unique<FiberNode>(n);
    f->id = i;
    f->n = n;
    f->all = &nodes;
    f->group = &group;
    f->self = ctx::make_fcontext(stacks + kStack * static_cast<std::size_t>(i + 1), kStack, fiber_body);
    nodes.push_back(std::move(f));
  }
  for (auto& f : nodes) schedule(f.get());
  group.wait();
  munmap(stacks, kStack * static_cast<std::size_t>(n));
}

void report(benchmark::State& state, int n) {
  state.counters["messages_per_second"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * n * (n - 1), benchmark::Counter::kIsRate);
}

void BM_SwitchTbbSuspend(benchmark::State& state) {
  const int n = 1 << state.range(0);
  for (auto _ : state) tbb_exchange(n);
  report(state, n);
}
BENCHMARK(BM_SwitchTbbSuspend)->Arg(8)->Arg(10)->ArgName("d")->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SwitchFcontextOnTbbTasks(benchmark::State& state) {
  const int n = 1 << state.range(0);
  for (auto _ : state) fiber_exchange(n);
  report(state, n);
}
BENCHMARK(BM_SwitchFcontextOnTbbTasks)->Arg(8)->Arg(10)->ArgName("d")->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
