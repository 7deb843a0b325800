#pragma once
// How much host memory a machine's runs may take (EmulatorSettings::memory_limit): the memory that grows with d and
// with a kernel's requests is counted, and an allocation that would take the process past the limit is refused. The
// node then fails with an error that names the limit, where the host's out-of-memory killer would have ended the
// whole process without a word (a d = 14 Direct exchange on a 24 GiB host, before its receives were posted in groups:
// killed after 36 s).
//
// Counted: the nodes' stacks (runtime/stack_pool.hpp: a page each once mapped, at the machine's first run, and
// after every run the pages they hold then; under os_threads, a page a thread while a run's threads live), the
// nodes' runtime objects, and, as the nodes allocate and free them, their arena blocks (their buffers and the
// messages buffered for them), request slots, matching tables and groups of receives. Not counted: what a stack
// touches in a run beyond what it was counted at, messages in flight, a kernel's own vectors, the engine's and the
// coordinator's per-node state, the page tables.
//
// The limit is on what the process held before the machine's first run (when its runtime is made) plus what is
// counted now. Left at 0 it is what the host has available then (Linux's MemAvailable), less an eighth: what is not
// counted grows more slowly than what is, and needs the room.
// Several machines in one process, or several ranks on one host, each count their own.
#include <atomic>
#include <cstddef>
#include <string>

namespace hcemu::detail {

class MemoryGuard {
 public:
  // `limit` in bytes; 0: this process's resident memory now and seven eighths of what the host has available, read
  // from /proc/meminfo (no limit where it cannot be read).
  explicit MemoryGuard(std::size_t limit);
  MemoryGuard(const MemoryGuard&) = delete;
  MemoryGuard& operator=(const MemoryGuard&) = delete;

  // Any thread. Whether `bytes` more may be taken; if so they are counted until released. A refusal is remembered.
  bool reserve(std::size_t bytes);
  void release(std::size_t bytes) { held_.fetch_sub(bytes, std::memory_order_relaxed); }
  // Any thread. Counts `bytes` the process holds already (the pages the nodes' stacks touched in a run), without a
  // refusal: what is reserved after them meets the limit sooner.
  void count_held(std::size_t bytes) { held_.fetch_add(bytes, std::memory_order_relaxed); }

  bool refused() const { return refused_.load(std::memory_order_relaxed); }
  void forget_refusal() { refused_.store(false, std::memory_order_relaxed); }  // before a run
  // What a node that was refused says (names the limit and how to change it).
  std::string explain() const;

  std::size_t limit() const { return limit_; }
  std::size_t held() const { return held_.load(std::memory_order_relaxed); }

  // The host's available memory (MemAvailable), and this process's resident memory; 0 where they cannot be read.
  static std::size_t host_available();
  static std::size_t resident();

 private:
  bool automatic_;
  std::size_t baseline_;  // resident when the guard was made, before the machine's first run
  std::size_t limit_;     // SIZE_MAX: none
  std::atomic<std::size_t> held_{0};
  std::atomic<bool> refused_{false};
};

}  // namespace hcemu::detail
