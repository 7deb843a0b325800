#pragma once
// Switching between a worker thread and a node's lightweight thread, with Boost.Context's fcontext (a few dozen
// instructions: registers saved on the stack, the stack pointer swapped). oneTBB's own resumable tasks switch with
// ucontext's swapcontext, which makes a system call (sigprocmask) on every switch: fcontext keeps a switch in user
// space (bench/switch_bench.cpp runs the same all-to-all both ways).
//
// The sanitizers cannot follow a stack switch they are not told of: AddressSanitizer would take the other stack for
// an overflow, ThreadSanitizer would mix the histories of the two threads of control. Sanitizer builds announce each
// switch to them.
#include <boost/context/detail/fcontext.hpp>

#include <atomic>
#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#endif

namespace hcemu::detail {

class Fiber {
 public:
  using Entry = void (*)(Fiber& self);

  // A fiber that will run entry(*this) on the stack [bottom, bottom + size) when first resumed.
  void prepare(void* bottom, std::size_t size, Entry entry) {
    entry_ = entry;
    stack_bottom_ = bottom;
    stack_size_ = size;
    self_ = boost::context::detail::make_fcontext(static_cast<std::byte*>(bottom) + size, size, &start);
#if defined(__SANITIZE_THREAD__)
    if (tsan_ == nullptr) tsan_ = __tsan_create_fiber(0);
#endif
  }

  ~Fiber() {
#if defined(__SANITIZE_THREAD__)
    if (tsan_ != nullptr) __tsan_destroy_fiber(tsan_);
#endif
  }

  // From a worker: runs the fiber until it suspends or finishes.
  void resume() {
#if defined(__SANITIZE_THREAD__)
    worker_tsan_ = __tsan_get_current_fiber();
    __tsan_switch_to_fiber(tsan_, 0);
#endif
#if defined(__SANITIZE_ADDRESS__)
    void* fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, stack_bottom_, stack_size_);
#endif
    const auto t = boost::context::detail::jump_fcontext(self_, this);
#if defined(__SANITIZE_ADDRESS__)
    __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
    std::atomic_ref(self_).store(t.fctx, std::memory_order_relaxed);  // prefetch_stack() may read it meanwhile
  }

  // Starts loading the top of the suspended fiber's stack, where resume() goes on: the saved registers and the
  // frames above them (1 KiB: from jump_fcontext up to a kernel's wait). Any thread: the fiber may be running on
  // another worker meanwhile, so its place is read atomically, and only prefetched.
  void prefetch_stack() const {
    const auto* top = static_cast<const char*>(std::atomic_ref(self_).load(std::memory_order_relaxed));
    for (int line = 0; line < 16; ++line) __builtin_prefetch(top + 64 * line, 1);
  }

  // From the fiber itself: back to the worker that resumed it; returns when some worker resumes it again.
  void suspend() { to_worker(false); }

 private:
  static void start(boost::context::detail::transfer_t t) {
    auto* f = static_cast<Fiber*>(t.data);
    f->worker_ = t.fctx;
#if defined(__SANITIZE_ADDRESS__)
    __sanitizer_finish_switch_fiber(nullptr, &f->worker_bottom_, &f->worker_size_);
#endif
    f->entry_(*f);
    f->to_worker(true);  // never returns
  }

  void to_worker(bool last) {
#if defined(__SANITIZE_THREAD__)
    __tsan_switch_to_fiber(worker_tsan_, 0);
#endif
#if defined(__SANITIZE_ADDRESS__)
    __sanitizer_start_switch_fiber(last ? nullptr : &fake_stack_, worker_bottom_, worker_size_);
#else
    (void)last;
#endif
    const auto t = boost::context::detail::jump_fcontext(worker_, nullptr);
#if defined(__SANITIZE_ADDRESS__)
    __sanitizer_finish_switch_fiber(fake_stack_, &worker_bottom_, &worker_size_);
#endif
    worker_ = t.fctx;
  }

  Entry entry_ = nullptr;
  mutable boost::context::detail::fcontext_t self_ = nullptr;  // where the fiber goes on (mutable: atomic_ref)
  boost::context::detail::fcontext_t worker_ = nullptr;  // the worker that last resumed it
  void* stack_bottom_ = nullptr;
  std::size_t stack_size_ = 0;
#if defined(__SANITIZE_THREAD__)
  void* tsan_ = nullptr;
  void* worker_tsan_ = nullptr;
#endif
#if defined(__SANITIZE_ADDRESS__)
  void* fake_stack_ = nullptr;
  const void* worker_bottom_ = nullptr;
  std::size_t worker_size_ = 0;
#endif
};

// oneTBB (Debian's build, not instrumented) hands its tasks to its workers with synchronisation ThreadSanitizer cannot
// see, and a node's thread of control moves between workers on a stack switch it cannot follow by itself: each
// hand-off is announced to it, released where a node is let go and acquired where it is taken up.
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

}  // namespace hcemu::detail
