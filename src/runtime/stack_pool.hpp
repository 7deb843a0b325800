#pragma once
// The stacks of the task engine's lightweight threads: one mapping carved into as many stacks as the machine has
// nodes, kept from run to run. Each stack gets a guard page below it when the process may have that many more
// memory mappings: Linux counts every guard page as a mapping of its own (two, as it splits the mapping), and its
// default vm.max_map_count (65530) allows about 30 000 of them. Larger machines run without guard pages, where a
// kernel that overflows its stack writes into its neighbour's (raise stack_bytes, or vm.max_map_count).
// oneTBB's own resumable tasks map each suspended task's stack separately, guard pages included, which is why they
// stop near 16 000 suspended nodes.
#include <cstddef>
#include <cstdint>

namespace hcemu::detail {

class StackPool {
 public:
  StackPool() = default;
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;
  ~StackPool();

  // Room for `count` stacks of at least `bytes` each; maps anew only when more or larger stacks are needed.
  // Throws hcemu::Error naming the size when the mapping fails.
  void reserve(int count, std::size_t bytes);

  void* bottom(int i) const { return base_ + static_cast<std::size_t>(i) * stride_ + guard_; }  // lowest address
  std::size_t size() const { return stride_ - guard_; }
  bool guarded() const { return guard_ != 0; }

 private:
  std::byte* base_ = nullptr;
  std::size_t mapped_ = 0;
  std::size_t stride_ = 0;  // guard page + stack
  std::size_t guard_ = 0;   // 0 when unguarded
  int count_ = 0;
};

}  // namespace hcemu::detail
