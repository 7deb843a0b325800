#include "runtime/block_pool.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>

namespace hcemu::detail {

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
// Address space only (MAP_NORESERVE): pages cost memory once touched.
constexpr std::size_t kMappingBytes = std::size_t{1} << 30;
constexpr std::size_t kFallbackBytes = std::size_t{64} << 20;

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

}  // namespace

BlockPool::~BlockPool() {
  for (const Mapping& m : mappings_) munmap(m.base, m.size);
}

// Under AddressSanitizer every block is an allocation of its own, so that an overrun is caught at its end. Under
// ThreadSanitizer the pool serves as usual: its lock is one ThreadSanitizer sees.
bool BlockPool::takes(std::size_t bytes, std::size_t alignment) {
#if defined(__SANITIZE_ADDRESS__)
  (void)bytes;
  (void)alignment;
  return false;
#else
  return bytes >= kMinBytes && alignment <= kMaxAlignment;
#endif
}

bool BlockPool::keeps_slots(const BlockPool* pool) {
#if defined(__SANITIZE_ADDRESS__)
  (void)pool;
  return false;
#else
  return pool != nullptr;
#endif
}

void* BlockPool::allocate(std::size_t bytes, std::size_t alignment) {
  bytes = round_up(bytes, 64);
  std::lock_guard lock(mutex_);
  if (const auto it = free_.find(bytes); it != free_.end()) {
    std::vector<void*>& blocks = it->second;
    const auto fits = std::find_if(blocks.rbegin(), blocks.rend(), [&](void* p) {
      return reinterpret_cast<std::uintptr_t>(p) % alignment == 0;
    });
    if (fits != blocks.rend()) {
      void* p = *fits;
      blocks.erase(std::next(fits).base());
      ++live_;
      return p;
    }
  }
  void* p = carve(bytes, alignment);
  if (p != nullptr) ++live_;
  return p;
}

void BlockPool::free(void* p, std::size_t bytes) {
  std::lock_guard lock(mutex_);
  if (--live_ == 0) {  // nothing in use: the pool starts again from the front, and waiting blocks are part of it
    free_.clear();
    current_ = used_ = 0;
    return;
  }
  free_[round_up(bytes, 64)].push_back(p);
}

void* BlockPool::carve(std::size_t bytes, std::size_t alignment) {
  for (;; ++current_, used_ = 0) {
    if (current_ == mappings_.size()) {
      // Where the kernel counts address space against a limit (vm.overcommit_memory = 2 ignores MAP_NORESERVE, and
      // ulimit -v), a mapping of just what this block needs may still fit.
      const std::size_t needed = round_up(bytes + alignment, kHugePage);
      std::size_t size = std::max(kMappingBytes, needed);
      // One huge page more than asked, so that the blocks start on a huge page's boundary.
      const auto map = [](std::size_t n) {
        return mmap(nullptr, n + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      };
      void* raw = map(size);
      for (const std::size_t smaller : {kFallbackBytes, needed})  // fewer mappings than one per block, if it can
        if (raw == MAP_FAILED && size > smaller && smaller >= needed) raw = map(size = smaller);
      if (raw == MAP_FAILED) return nullptr;
      auto* base = static_cast<std::byte*>(raw);
      auto* aligned = reinterpret_cast<std::byte*>(round_up(reinterpret_cast<std::uintptr_t>(base), kHugePage));
      if (aligned != base) munmap(base, static_cast<std::size_t>(aligned - base));
      const std::size_t tail = static_cast<std::size_t>(base + size + kHugePage - (aligned + size));
      if (tail != 0) munmap(aligned + size, tail);
      if (huge_pages_) madvise(aligned, size, MADV_HUGEPAGE);  // a hint: where the kernel declines, small pages serve
      mappings_.push_back(Mapping{aligned, size});
    }
    const Mapping& m = mappings_[current_];
    const std::size_t start = round_up(reinterpret_cast<std::uintptr_t>(m.base) + used_, alignment) -
                              reinterpret_cast<std::uintptr_t>(m.base);
    if (start + bytes <= m.size) {
      used_ = start + bytes;
      return m.base + start;
    }
  }
}

}  // namespace hcemu::detail
