#pragma once
// A message in flight: its header, its transfer in model time, and a copy of its payload made when it was sent.
// Header and payload are one allocation, made by the sender and freed by the receiver (common/allocation.hpp).
// The same object travels the commit queue (runtime/coordinator.hpp), the receiver's inbox and its matcher.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>

#include "common/allocation.hpp"
#include "runtime/mpsc_queue.hpp"
#include "runtime/pending.hpp"
#include "timing/transfer.hpp"

namespace hcemu::detail {

struct SendSlot;

// Blocks of up to 1 KiB, in classes of 64 bytes, kept by the thread that freed them and handed back last freed first
// (a short stack per class). A receiver frees a message just after it copied the payload out, and the same worker's
// next send then writes its header and payload into lines still in its cache: a block from oneTBB's allocator had
// been touched last a whole step before, and the first writes into it (the route) were among the largest single
// costs of a Direct exchange. Larger blocks, and every block in a sanitizer build (so that AddressSanitizer sees each
// one freed), go straight to the allocator of common/allocation.hpp. `bytes` must be the same at both calls.
void* allocate_recent(std::size_t bytes);
void free_recent(void* p, std::size_t bytes);

struct Message : QueueHook, Pending {
  int source = 0;
  int destination = 0;
  int tag = 0;
  std::uint32_t context = 0;  // the sender's collective scope (CollectiveScope); 0 outside any
  std::size_t bytes = 0;
  timing::Transfer transfer;
  SendSlot* sender = nullptr;     // where the sender learns when its transfer has left (nullptr: nobody waits)
  Message* match_next = nullptr;  // the receiver's ring of unmatched messages with the same key (matcher.hpp)
  bool buffered = false;          // charged to the receiver's arena while it waits unmatched (UNFORCED)
  std::size_t allocated = 0;      // the bytes allocated, header and any payload

  std::byte* payload() { return reinterpret_cast<std::byte*>(this + 1); }
  const std::byte* payload() const { return reinterpret_cast<const std::byte*>(this + 1); }
  const timing::TransferTimes& times() const { return transfer.times; }
  // A number the sender's and the receiver's trace spans share: the source and its issue order.
  std::uint64_t number() const { return (static_cast<std::uint64_t>(source) << 40) + transfer.key.seq + 1; }

  static Message* make(int source, int destination, int tag, std::uint32_t context, const std::byte* data,
                       std::size_t bytes) {
    Message* m = make_copy(source, destination, tag, context, bytes, true);
    if (bytes > 0) std::memcpy(m->payload(), data, bytes);
    return m;
  }
  // Another rank's message, copied here to be placed (docs/mpi.md): with room for its payload when this rank receives
  // it, which comes from the sender's rank once placed.
  static Message* make_copy(int source, int destination, int tag, std::uint32_t context, std::size_t bytes,
                            bool with_payload) {
    const std::size_t allocated = sizeof(Message) + (with_payload ? bytes : 0);
    void* memory = allocate_recent(allocated);
    if (memory == nullptr) throw std::bad_alloc();
    auto* m = new (memory) Message;  // every field has its initializer: no zero-fill of the route's inline storage
    m->allocated = allocated;
    m->kind = Pending::Kind::message;
    m->source = source;
    m->destination = destination;
    m->tag = tag;
    m->context = context;
    m->bytes = bytes;
    return m;
  }
  static void destroy(Message* m) {
    if (m == nullptr) return;
    const std::size_t allocated = m->allocated;
    m->~Message();
    free_recent(m, allocated);
  }
};

// What a message of `bytes` bytes holds of its receiver's arena while it waits in the system buffer (UNFORCED,
// docs/model.md §5): its header and its data.
inline std::size_t system_buffer_bytes(std::size_t bytes) { return sizeof(Message) + bytes; }

}  // namespace hcemu::detail
