#pragma once
// The stacks of the task engine's lightweight threads: one mapping carved into as many stacks as the machine has
// nodes, kept from run to run. Each stack gets a guard page below it when the process may have that many more
// memory mappings: Linux counts every guard page as a mapping of its own (two, as it splits the mapping), and its
// default vm.max_map_count (65530) allows about 30 000 of them. Larger machines run without guard pages, where a
// kernel that overflows its stack writes into its neighbour's (raise stack_bytes, or vm.max_map_count).
// oneTBB's own resumable tasks map each suspended task's stack separately, guard pages included, which is why they
// stop near 16 000 suspended nodes.
//
// What the stacks hold is counted against the machine's memory limit (runtime/memory_guard.hpp). A mapping costs
// only the pages its nodes touch, so each stack is counted at first_touch() bytes when it is mapped, and after every
// run at the pages the stacks hold then (mincore), so that a later run's allocations meet the limit with them.
#include <cstddef>
#include <cstdint>

namespace hcemu::detail {

class MemoryGuard;

class StackPool {
 public:
  // What a stack is counted at until a run has touched it: one page, what every node's stack held after the
  // SBT, gray-code and nESBT broadcasts at d = 16 and the Direct and Standard exchanges at d = 10 (the kernel's
  // frames and the runtime's below them, down to the switch, fit in the top 4 KiB).
  static std::size_t first_touch();

  // The guard (nullptr: none) must outlive every call but the destructor's, which releases nothing.
  explicit StackPool(MemoryGuard* memory_guard = nullptr) : memory_guard_(memory_guard) {}
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;
  ~StackPool();

  // Room for `count` stacks of at least `bytes` each; maps anew only when more or larger stacks are needed.
  // Throws hcemu::Error naming the size when the mapping fails, and the guard's explanation, having mapped
  // nothing, when the guard refuses first_touch() bytes a stack.
  void reserve(int count, std::size_t bytes);
  // After a run: counts the stacks at the pages they hold now, in place of what they were counted at.
  void count_touched();
  // What the guard counts for the stacks now.
  std::size_t counted() const { return counted_; }

  void* bottom(int i) const { return base_ + static_cast<std::size_t>(i) * stride_ + guard_; }  // lowest address
  std::size_t size() const { return stride_ - guard_; }
  bool guarded() const { return guard_ != 0; }

 private:
  void unmap();

  MemoryGuard* memory_guard_;
  std::size_t counted_ = 0;  // against memory_guard_
  std::byte* base_ = nullptr;
  std::size_t mapped_ = 0;
  std::size_t stride_ = 0;  // guard page + stack
  std::size_t guard_ = 0;   // 0 when unguarded
  int count_ = 0;
};

}  // namespace hcemu::detail
