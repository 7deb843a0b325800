#include "runtime/arena.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "common/allocation.hpp"
#include "hcemu/errors.hpp"

namespace hcemu::detail {

namespace {

// Every allocation carries a header just below the pointer handed out, so that a pointer that is not one of this
// arena's live allocations is an error rather than a crash in the allocator.
struct Header {
  std::uint32_t magic;
  std::uint32_t offset;  // from the start of the block to the pointer handed out
  std::uint64_t bytes;
};
constexpr std::uint32_t kLive = 0x6863656d;  // "hcem"
constexpr std::uint32_t kFreed = 0x66726565;  // "free"

Header* header_of(void* p) { return reinterpret_cast<Header*>(static_cast<std::byte*>(p) - sizeof(Header)); }

}  // namespace

void Arena::charge(std::size_t bytes) {
  if (bytes > capacity_ - in_use_) throw ArenaExhausted(node_, capacity_, in_use_, bytes);
  in_use_ += bytes;
  high_water_ = std::max(high_water_, in_use_);
}

void* Arena::allocate(std::size_t bytes, std::size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0)
    throw UsageError("node " + std::to_string(node_) + ": allocate: the alignment must be a power of two, got " +
                     std::to_string(alignment));
  charge(bytes);
  const std::size_t offset = std::max(alignment, sizeof(Header));
  void* block = allocate_aligned(offset + std::max<std::size_t>(bytes, 1), alignment);
  if (block == nullptr) {
    release(bytes);
    throw ArenaExhausted(node_, capacity_, in_use_, bytes);
  }
  void* p = static_cast<std::byte*>(block) + offset;
  *header_of(p) = Header{kLive, static_cast<std::uint32_t>(offset), bytes};
  return p;
}

void Arena::deallocate(void* p, std::size_t bytes) {
  if (p == nullptr) return;
  Header* h = header_of(p);
  if (h->magic != kLive || h->bytes != bytes)
    throw UsageError("node " + std::to_string(node_) + ": deallocate: " +
                     (h->magic == kFreed ? std::string("the block was freed already")
                      : h->magic == kLive ? "the block has " + std::to_string(h->bytes) + " bytes, not " +
                                                std::to_string(bytes)
                                          : std::string("the pointer is not an allocation of this node's arena")));
  h->magic = kFreed;
  free_aligned(static_cast<std::byte*>(p) - h->offset);
  release(bytes);
}

}  // namespace hcemu::detail
