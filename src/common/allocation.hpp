#pragma once
// Where the runtime's memory comes from: oneTBB's scalable allocator, built for memory that one thread allocates
// and another frees (a receiver frees what its sender made). Sanitizer builds define HCEMU_PLAIN_ALLOCATOR and use
// malloc instead: ThreadSanitizer cannot see the synchronisation inside oneTBB's allocator and would report every
// recycled block as a race, and AddressSanitizer can only check blocks it allocated itself.
#include <cstddef>
#include <cstdlib>
#include <memory>

#if !defined(HCEMU_PLAIN_ALLOCATOR)
#include <oneapi/tbb/scalable_allocator.h>
#endif

namespace hcemu::detail {

#if defined(HCEMU_PLAIN_ALLOCATOR)
template <class T>
using Allocator = std::allocator<T>;
inline void* allocate_raw(std::size_t bytes) { return std::malloc(bytes); }
inline void free_raw(void* p) { std::free(p); }
inline void* allocate_aligned(std::size_t bytes, std::size_t alignment) {
  return std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
}
inline void free_aligned(void* p) { std::free(p); }
#else
template <class T>
using Allocator = tbb::scalable_allocator<T>;
inline void* allocate_raw(std::size_t bytes) { return scalable_malloc(bytes); }
inline void free_raw(void* p) { scalable_free(p); }
inline void* allocate_aligned(std::size_t bytes, std::size_t alignment) {
  return scalable_aligned_malloc(bytes, alignment);
}
inline void free_aligned(void* p) { scalable_aligned_free(p); }
#endif

}  // namespace hcemu::detail
