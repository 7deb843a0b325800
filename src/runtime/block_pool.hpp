#pragma once
// Where the nodes take their large blocks from (a kernel's buffers, the request slots and matching tables they keep
// from run to run, and groups of receives): a few large mappings shared by all the nodes of a machine, carved one
// block after another.
// With `huge_pages` (EmulatorSettings) the mappings are advised for transparent huge pages, where the kernel's setting
// allows it (`madvise` or `always` in /sys/kernel/mm/transparent_hugepage/enabled): consecutive nodes' blocks share
// 2 MiB pages, and the d = 10 Direct exchange takes 6 900 page faults instead of 65 000. Off by default: a virtual
// machine that hands its free memory back to its host (virtio-balloon's free page reporting, at 2 MiB and up) gets
// huge pages its host must back anew, and a first run there is slower, not faster (docs/engine.md).
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

  // `huge_pages`: the mappings are advised for transparent huge pages (EmulatorSettings::huge_pages).
  explicit BlockPool(bool huge_pages = false) : huge_pages_(huge_pages) {}
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

  bool huge_pages_;
  std::mutex mutex_;
  std::vector<Mapping> mappings_;
  std::size_t current_ = 0;  // the mapping blocks are carved from
  std::size_t used_ = 0;     // of it
  std::size_t live_ = 0;     // blocks handed out and not freed
  std::unordered_map<std::size_t, std::vector<void*>> free_;  // by size
};

}  // namespace hcemu::detail
