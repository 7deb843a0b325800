#pragma once
// A message in flight: its header, its model times, and a copy of its payload made when it was sent. Header and
// payload are one allocation (common/allocation.hpp: freed by the receiver, made by the sender).
#include <cstddef>
#include <cstring>
#include <new>

#include "common/allocation.hpp"

#include "timing/transfer.hpp"

namespace hcemu::detail {

struct Message {
  int source = 0;
  int destination = 0;
  int tag = 0;
  std::uint32_t context = 0;  // the sender's collective scope (node.hpp CollectiveScope); 0 outside any
  std::size_t bytes = 0;
  timing::TransferTimes times;
  Message* next = nullptr;  // the receiver's queue of unmatched messages with the same (source, tag)

  std::byte* payload() { return reinterpret_cast<std::byte*>(this + 1); }

  static Message* make(int source, int destination, int tag, std::uint32_t context, const std::byte* data,
                       std::size_t bytes) {
    void* memory = allocate_raw(sizeof(Message) + bytes);
    if (memory == nullptr) throw std::bad_alloc();
    auto* m = new (memory) Message{source, destination, tag, context, bytes, {}, nullptr};
    if (bytes > 0) std::memcpy(m->payload(), data, bytes);
    return m;
  }
  static void destroy(Message* m) {
    if (m == nullptr) return;
    m->~Message();
    free_raw(m);
  }
};
static_assert(sizeof(Message) % alignof(Message) == 0);

}  // namespace hcemu::detail
