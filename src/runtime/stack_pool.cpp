#include "runtime/stack_pool.hpp"

#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "hcemu/errors.hpp"
#include "runtime/memory_guard.hpp"

namespace hcemu::detail {

namespace {

long read_long(const char* path, long fallback) {
  std::ifstream in(path);
  long value = fallback;
  if (!(in >> value)) return fallback;
  return value;
}

long mappings_in_use() {
  std::ifstream maps("/proc/self/maps");
  long lines = 0;
  std::string line;
  while (std::getline(maps, line)) ++lines;
  return lines;
}

std::string gib(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(bytes) / (1 << 30));
  return text;
}

// Why the stacks could not be mapped, with the advice that fits: under an address-space limit (ulimit -v) the stacks
// count in full although MAP_NORESERVE takes no memory for them, and what the rest of the run needs counts too, so
// that a smaller stack_bytes alone seldom helps; without one, the host refused the mapping itself.
std::string mapping_failure(int count, std::size_t stride, bool guarded, std::size_t mapped, int error) {
  std::string text = "cannot map the stacks of " + std::to_string(count) + " nodes, " + gib(mapped) +
                     " of address space (" + std::to_string(stride) + " bytes each" +
                     (guarded ? " with its guard page" : "") + "): " + std::strerror(error);
  rlimit limit{};
  if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    std::ifstream statm("/proc/self/statm");
    std::size_t pages = 0;
    statm >> pages;
    const std::size_t held = pages * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return text + "; this process may map at most " + gib(limit.rlim_cur) + " (its address-space limit, ulimit -v) " +
           "and maps " + gib(held) + " already: raise the limit (the nodes' buffers need address space of their own "
           "beside the stacks), or lower d";
  }
  return text + " (lower stack_bytes or d)";
}

}  // namespace

StackPool::~StackPool() {
  if (base_ != nullptr) munmap(base_, mapped_);
}

std::size_t StackPool::first_touch() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }

void StackPool::unmap() {
  if (base_ != nullptr) munmap(base_, mapped_);
  base_ = nullptr;
  count_ = 0;
  if (memory_guard_ != nullptr) memory_guard_->release(counted_);
  counted_ = 0;
}

void StackPool::reserve(int count, std::size_t bytes) {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t stack = (bytes + page - 1) / page * page;
  // A guard page splits the mapping, two mappings per stack: keep a margin for everything else in the process.
  const long headroom = read_long("/proc/sys/vm/max_map_count", 65530) - mappings_in_use() - 4096;
  const std::size_t guard = 2L * count <= headroom ? page : 0;
  if (base_ != nullptr && count <= count_ && stack == stride_ - guard_ && guard == guard_) return;
  unmap();

  const std::size_t first = page * static_cast<std::size_t>(count);  // first_touch() a stack
  if (memory_guard_ != nullptr && !memory_guard_->reserve(first)) throw Error(memory_guard_->explain());
  counted_ = memory_guard_ != nullptr ? first : 0;
  stride_ = stack + guard;
  mapped_ = stride_ * static_cast<std::size_t>(count);
  // MAP_NORESERVE: a stack costs memory only for the pages its node touches.
  void* p = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                 -1, 0);
  if (p == MAP_FAILED) {
    const int error = errno;
    if (memory_guard_ != nullptr) memory_guard_->release(counted_);
    counted_ = 0;
    throw Error(mapping_failure(count, stride_, guard != 0, mapped_, error));
  }
  base_ = static_cast<std::byte*>(p);
  count_ = count;
  guard_ = guard;
  if (guard_ != 0)
    for (int i = 0; i < count; ++i) mprotect(base_ + static_cast<std::size_t>(i) * stride_, guard_, PROT_NONE);
}

void StackPool::count_touched() {
  if (memory_guard_ == nullptr || base_ == nullptr) return;
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> resident((mapped_ + page - 1) / page);
  if (mincore(base_, mapped_, resident.data()) != 0) return;  // keeps what is counted
  std::size_t pages = 0;
  for (unsigned char r : resident) pages += r & 1u;
  const std::size_t touched = pages * page;
  // Held already: counted even past the limit, which what is reserved next then meets.
  if (touched > counted_)
    memory_guard_->count_held(touched - counted_);
  else
    memory_guard_->release(counted_ - touched);
  counted_ = touched;
}

}  // namespace hcemu::detail
