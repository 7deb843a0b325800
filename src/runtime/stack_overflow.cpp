#include "runtime/stack_overflow.hpp"

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <mutex>

namespace hcemu::detail::stack_overflow {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)

void install() {}
void running(int, const void*, std::size_t) {}
void running_on_this_thread(int) {}

#else

namespace {

// How far below a stack's lowest address a fault still counts as its overflow: a frame larger than the guard page
// can step past it.
constexpr std::uintptr_t kReach = 64 << 10;

struct sigaction previous;
// What the handler reads: plain thread-locals of the executable, safe to read in a signal handler.
thread_local int current_node = -1;
thread_local std::uintptr_t current_bottom = 0;
thread_local std::size_t current_bytes = 0;

// An alternate signal stack for this thread, unmapped when the thread ends.
struct SignalStack {
  void* base = nullptr;
  static constexpr std::size_t kBytes = 64 << 10;
  SignalStack() {
    base = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) {
      base = nullptr;
      return;
    }
    stack_t s{};
    s.ss_sp = base;
    s.ss_size = kBytes;
    if (sigaltstack(&s, nullptr) != 0) {
      munmap(base, kBytes);
      base = nullptr;
    }
  }
  ~SignalStack() {
    if (base == nullptr) return;
    stack_t off{};
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
    munmap(base, kBytes);
  }
};

void signal_stack() { thread_local SignalStack stack; }

// Appends the decimal digits of `v` at `out`; returns the end.
char* put_number(char* out, std::uint64_t v) {
  char digits[24];
  int n = 0;
  do digits[n++] = static_cast<char>('0' + v % 10);
  while ((v /= 10) != 0);
  while (n > 0) *out++ = digits[--n];
  return out;
}

char* put_text(char* out, const char* s) {
  const std::size_t n = std::strlen(s);
  std::memcpy(out, s, n);
  return out + n;
}

void on_fault(int sig, siginfo_t* info, void* context) {
  const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  if (current_node >= 0 && address < current_bottom && address + kReach >= current_bottom) {
    char message[512];
    char* p = put_text(message, "hcemu: node ");
    p = put_number(p, static_cast<std::uint64_t>(current_node));
    p = put_text(p, " overflowed its stack of ");
    p = put_number(p, current_bytes);
    p = put_text(p,
                 " bytes (the key stack_bytes): its kernel recursed too deeply or keeps large arrays on the stack. "
                 "Raise stack_bytes (--set stack_bytes=");
    p = put_number(p, current_bytes * 4);
    p = put_text(p, ", or EmulatorSettings::stack_bytes), or allocate large buffers with node.allocate\n");
    [[maybe_unused]] const ssize_t written = write(STDERR_FILENO, message, static_cast<std::size_t>(p - message));
    signal(SIGSEGV, SIG_DFL);  // the fault comes again on return, and ends the process as it would have
    return;
  }
  if (previous.sa_flags & SA_SIGINFO) {
    previous.sa_sigaction(sig, info, context);
  } else if (previous.sa_handler == SIG_DFL) {
    signal(SIGSEGV, SIG_DFL);
  } else if (previous.sa_handler != SIG_IGN) {
    previous.sa_handler(sig);
  }
}

}  // namespace

void install() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, &previous);
  });
}

void running(int node, const void* bottom, std::size_t bytes) {
  if (node >= 0) signal_stack();
  current_node = node;
  current_bottom = reinterpret_cast<std::uintptr_t>(bottom);
  current_bytes = bytes;
}

void running_on_this_thread(int node) {
  pthread_attr_t attr;
  void* bottom = nullptr;
  std::size_t bytes = 0;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  pthread_attr_getstack(&attr, &bottom, &bytes);
  pthread_attr_destroy(&attr);
  running(node, bottom, bytes);
}

#endif

}  // namespace hcemu::detail::stack_overflow
