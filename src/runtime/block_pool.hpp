#pragma once
// Where the nodes' arenas take their large blocks from (a kernel's buffers): a few large mappings shared by all the
// nodes of a machine, advised to the kernel for transparent huge pages, and handed out one after another. A buffer
// from oneTBB's allocator cost a page fault (and a page cleared) per 4 KiB at its first touch, and the d = 10 Direct
// exchange's 128 MiB of buffers took 35 000 of the run's 65 000 faults; in 2 MiB pages shared by consecutive nodes'
// buffers they take about sixty, and the buffers' TLB misses go as well. Only where the kernel's setting allows it
// (`madvise` or `always` in /sys/kernel/mm/transparent_hugepage/enabled; elsewhere the same mappings get small pages).
//
// A freed block waits for another of its size; once no block is in use (the end of every run, when the arenas are
// reset) the whole pool is handed out again from its start, so a machine's later runs reuse the pages its first run
// touched, and a sweep whose sizes change does not pile up blocks of old sizes. Any thread; one lock, taken a few
// times per node and run.
#include <cstddef>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace hcemu::detail {

class BlockPool {
 public:
  // Smaller blocks come from the general allocator: a pool block of a few lines would share a huge page with
  // nothing that saves a fault.
  static constexpr std::size_t kMinBytes = 16 * 1024;
  static constexpr std::size_t kMaxAlignment = 4096;

  BlockPool() = default;
  BlockPool(const BlockPool&) = delete;
  BlockPool& operator=(const BlockPool&) = delete;
  ~BlockPool();

  // Whether an arena's block of this size and alignment comes from the pool, and whether a request table's chunks
  // of slots come from `pool` (under AddressSanitizer: never, so that it sees every block on its own).
  static bool takes(std::size_t bytes, std::size_t alignment);
  static bool keeps_slots(const BlockPool* pool);
  // nullptr when the host is out of address space.
  void* allocate(std::size_t bytes, std::size_t alignment);
  void free(void* p, std::size_t bytes);

 private:
  struct Mapping {
    std::byte* base;
    std::size_t size;
  };
  void* carve(std::size_t bytes, std::size_t alignment);  // from the mappings, after the last block handed out

  std::mutex mutex_;
  std::vector<Mapping> mappings_;
  std::size_t current_ = 0;  // the mapping blocks are carved from
  std::size_t used_ = 0;     // of it
  std::size_t live_ = 0;     // blocks handed out and not freed
  std::unordered_map<std::size_t, std::vector<void*>> free_;  // by size
};

}  // namespace hcemu::detail
