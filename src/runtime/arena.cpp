#include "runtime/arena.hpp"

#include <algorithm>
#include <cstdint>
#include <new>
#include <string>

#include "common/allocation.hpp"
#include "hcemu/errors.hpp"
#include "runtime/block_pool.hpp"
#include "runtime/memory_guard.hpp"

namespace hcemu::detail {

void Arena::charge(std::size_t bytes) {
  if (bytes > capacity_ - in_use_) throw ArenaExhausted(node_, capacity_, in_use_, bytes);
  in_use_ += bytes;
  high_water_ = std::max(high_water_, in_use_);
}

void Arena::charge_waited(std::size_t bytes) {
  charge(bytes);
  release(bytes);
}

void Arena::buffer(std::size_t bytes) {
  if (bytes > capacity_ - buffered_) throw ArenaExhausted(node_, capacity_, buffered_, bytes);
  buffered_ += bytes;
}

void* Arena::allocate(std::size_t bytes, std::size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0)
    throw UsageError("node " + std::to_string(node_) + ": allocate: the alignment must be a power of two, got " +
                     std::to_string(alignment));
  charge(bytes);
  if (guard_ != nullptr && !guard_->reserve(bytes)) {  // the host is out of memory, not the node: its arena has room
    release(bytes);
    throw std::bad_alloc();
  }
  const bool pooled = pool_ != nullptr && BlockPool::takes(bytes, alignment);
  void* p = pooled ? pool_->allocate(bytes, alignment) : allocate_aligned(std::max<std::size_t>(bytes, 1), alignment);
  if (p == nullptr) {
    if (guard_ != nullptr) guard_->release(bytes);
    release(bytes);
    throw std::bad_alloc();
  }
  live_.emplace(p, Block{bytes, pooled});
  freed_.erase(p);
  return p;
}

void Arena::deallocate(void* p, std::size_t bytes) {
  if (p == nullptr) return;
  const auto it = live_.find(p);
  if (it == live_.end() || it->second.bytes != bytes)
    throw UsageError("node " + std::to_string(node_) + ": deallocate: " +
                     (it != live_.end() ? "the block has " + std::to_string(it->second.bytes) + " bytes, not " +
                                              std::to_string(bytes)
                      : freed_.contains(p) ? std::string("the block was freed already")
                                           : std::string("the pointer is not an allocation of this node's arena")));
  const Block block = it->second;
  live_.erase(it);
  freed_.insert(p);
  free_block(p, block);
  release(bytes);
}

void Arena::free_block(void* p, const Block& block) {
  if (guard_ != nullptr) guard_->release(block.bytes);
  if (block.pooled)
    pool_->free(p, block.bytes);
  else
    free_aligned(p);
}

void Arena::free_live() {
  for (const auto& [p, block] : live_) free_block(p, block);
  live_.clear();
  freed_.clear();
}

}  // namespace hcemu::detail
