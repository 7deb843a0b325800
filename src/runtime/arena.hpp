#pragma once
// A node's own memory (docs/model.md §1): a capacity, and allocations charged against it, large ones from the
// machine's block pool (runtime/block_pool.hpp), the others from oneTBB's scalable allocator. Only the node touches
// it (or a waker holding the node while it is parked).
#include <cstddef>
#include <unordered_map>
#include <unordered_set>

namespace hcemu::detail {

class BlockPool;
class MemoryGuard;

class Arena {
 public:
  // `pool` (nullptr: every block from oneTBB's allocator) and `guard` (nullptr: none), which counts every block
  // against the host's memory, outlive the arena.
  Arena(int node, std::size_t capacity, BlockPool* pool = nullptr, MemoryGuard* guard = nullptr)
      : node_(node), capacity_(capacity), pool_(pool), guard_(guard) {}
  ~Arena() { free_live(); }
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  // Throws ArenaExhausted, or UsageError for an alignment that is not a power of two.
  void* allocate(std::size_t bytes, std::size_t alignment);
  // Throws UsageError when `p` is not a live allocation of this arena of `bytes` bytes.
  void deallocate(void* p, std::size_t bytes);
  // A message that waited in the system buffer in model time (UNFORCED, docs/model.md §5), as its receive takes it:
  // held on top of the node's allocations for that moment, so that the high-water mark and the arena's exhaustion
  // follow from the node's program and model time alone, never from the order in which the host delivered.
  void charge_waited(std::size_t bytes);  // throws ArenaExhausted
  // A message that has come, in host order, before any receive for it was posted: held apart from the allocations.
  // It guards the host's memory against messages that no receive takes (a node's buffer may not outgrow its arena),
  // and is not part of the high-water mark, which host order would make differ from run to run.
  void buffer(std::size_t bytes);  // throws ArenaExhausted
  void unbuffer(std::size_t bytes) { buffered_ -= bytes; }

  // For the next run: whatever the last one left allocated is freed.
  void reset() {
    free_live();
    in_use_ = high_water_ = buffered_ = 0;
  }
  std::size_t capacity() const { return capacity_; }
  std::size_t in_use() const { return in_use_; }
  std::size_t high_water() const { return high_water_; }

 private:
  int node_;
  std::size_t capacity_;
  BlockPool* pool_;
  MemoryGuard* guard_;
  std::size_t in_use_ = 0;  // allocated
  std::size_t high_water_ = 0;
  std::size_t buffered_ = 0;
  // The live allocations, by the pointer handed out, and the pointers freed since (until the allocator hands the
  // address out again): a pointer that is in neither was never this arena's. Kept apart from the blocks themselves,
  // so that a check never reads memory that is not the arena's (or no longer is).
  struct Block {
    std::size_t bytes;
    bool pooled;  // from pool_
  };
  std::unordered_map<void*, Block> live_;
  std::unordered_set<void*> freed_;

  void charge(std::size_t bytes);  // throws ArenaExhausted
  void release(std::size_t bytes) { in_use_ -= bytes; }
  void free_live();
  void free_block(void* p, const Block& block);
};

}  // namespace hcemu::detail
