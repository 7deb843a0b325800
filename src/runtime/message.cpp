#include "runtime/message.hpp"

#include <array>

namespace hcemu::detail {

#if defined(HCEMU_PLAIN_ALLOCATOR)

void* allocate_recent(std::size_t bytes) { return allocate_raw(bytes); }
void free_recent(void* p, std::size_t bytes) {
  (void)bytes;
  free_raw(p);
}

#else

namespace {

// A thread's stacks of freed blocks. Shallow, so that what a thread holds stays in its cache and small beside the
// messages in flight (at most 16 KiB a class, and one or two classes in use: a Direct exchange's messages are all
// of one size).
class RecentBlocks {
 public:
  static constexpr std::size_t kClassBytes = 64;
  static constexpr std::size_t kClasses = 16;  // blocks up to 1 KiB
  static constexpr unsigned kDepth = 16;

  RecentBlocks() = default;
  RecentBlocks(const RecentBlocks&) = delete;
  RecentBlocks& operator=(const RecentBlocks&) = delete;
  ~RecentBlocks() {
    for (FreeBlock* top : top_) {
      while (top != nullptr) {
        FreeBlock* next = top->next;
        free_raw(top);
        top = next;
      }
    }
  }

  static std::size_t class_of(std::size_t bytes) { return (bytes - 1) / kClassBytes; }

  void* take(std::size_t c) {
    FreeBlock* top = top_[c];
    if (top == nullptr) return allocate_raw((c + 1) * kClassBytes);
    top_[c] = top->next;
    --depth_[c];
    return top;
  }
  void give(void* p, std::size_t c) {
    if (depth_[c] == kDepth) {
      free_raw(p);
      return;
    }
    top_[c] = new (p) FreeBlock{top_[c]};
    ++depth_[c];
  }

 private:
  struct FreeBlock {
    FreeBlock* next;
  };
  std::array<FreeBlock*, kClasses> top_{};
  std::array<unsigned, kClasses> depth_{};
};

// Out of line, and never inlined into a function that may park its node: the task engine moves a node between
// worker threads at a park, and a thread-local address computed before it would name the other thread's stacks.
[[gnu::noinline]] RecentBlocks& recent() {
  thread_local RecentBlocks blocks;
  return blocks;
}

}  // namespace

void* allocate_recent(std::size_t bytes) {
  if (bytes == 0 || bytes > RecentBlocks::kClasses * RecentBlocks::kClassBytes) return allocate_raw(bytes);
  return recent().take(RecentBlocks::class_of(bytes));
}

void free_recent(void* p, std::size_t bytes) {
  if (bytes == 0 || bytes > RecentBlocks::kClasses * RecentBlocks::kClassBytes) {
    free_raw(p);
    return;
  }
  recent().give(p, RecentBlocks::class_of(bytes));
}

#endif

}  // namespace hcemu::detail
