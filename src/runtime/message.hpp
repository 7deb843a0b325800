#pragma once
// A message in flight: its header, its model times, and a copy of its payload made when it was sent.
#include <cstddef>
#include <cstring>

#include <oneapi/tbb/scalable_allocator.h>

#include "timing/transfer.hpp"

namespace hcemu::detail {

struct Message {
  int source = 0;
  int destination = 0;
  int tag = 0;
  std::size_t bytes = 0;
  timing::TransferTimes times;
  std::byte* payload = nullptr;

  static Message* make(int source, int destination, int tag, const std::byte* data, std::size_t bytes) {
    auto* m = new Message{source, destination, tag, bytes, {}, nullptr};
    if (bytes > 0) {
      m->payload = static_cast<std::byte*>(scalable_malloc(bytes));
      if (m->payload == nullptr) {
        delete m;
        throw std::bad_alloc();
      }
      std::memcpy(m->payload, data, bytes);
    }
    return m;
  }
  static void destroy(Message* m) {
    if (m == nullptr) return;
    scalable_free(m->payload);
    delete m;
  }
};

}  // namespace hcemu::detail
