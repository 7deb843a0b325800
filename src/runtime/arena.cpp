#include "runtime/arena.hpp"

#include <algorithm>

#include "common/allocation.hpp"

#include "hcemu/errors.hpp"

namespace hcemu::detail {

void Arena::charge(std::size_t bytes) {
  if (bytes > capacity_ - in_use_) throw ArenaExhausted(node_, capacity_, in_use_, bytes);
  in_use_ += bytes;
  high_water_ = std::max(high_water_, in_use_);
}

void* Arena::allocate(std::size_t bytes, std::size_t alignment) {
  charge(bytes);
  void* p = allocate_aligned(std::max<std::size_t>(bytes, 1), alignment);
  if (p == nullptr) {
    release(bytes);
    throw ArenaExhausted(node_, capacity_, in_use_, bytes);
  }
  return p;
}

void Arena::deallocate(void* p, std::size_t bytes) {
  if (p == nullptr) return;
  free_aligned(p);
  release(bytes);
}

}  // namespace hcemu::detail
