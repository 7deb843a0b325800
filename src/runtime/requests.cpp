#include "runtime/requests.hpp"

#include <new>
#include <stdexcept>
#include <type_traits>

#include "hcemu/errors.hpp"
#include "runtime/block_pool.hpp"
#include "runtime/memory_guard.hpp"

namespace hcemu::detail {

RequestTable::~RequestTable() {
  // A pooled chunk's memory goes with the pool; Slot needs no destructor run (its members are plain or atomic).
  static_assert(std::is_trivially_destructible_v<Slot>);
  if (!BlockPool::keeps_slots(pool_))
    for (Slot* chunk : chunks_) delete[] chunk;
  if (guard_ != nullptr) guard_->release(chunks_.size() * sizeof(Slot) * kChunk);
}

// From the machine's pool, beside every other node's chunks: with huge pages (EmulatorSettings::huge_pages) they share
// 2 MiB pages, where a d = 10 Direct exchange's million slots (64 MiB) cost 16 000 page faults in 4 KiB ones.
Slot* RequestTable::new_chunk() {
  constexpr std::size_t bytes = sizeof(Slot) * kChunk;
  if (guard_ != nullptr && !guard_->reserve(bytes)) throw std::bad_alloc();
  try {
    if (!BlockPool::keeps_slots(pool_)) return new Slot[kChunk];
    void* p = pool_->allocate(bytes, alignof(Slot));
    if (p == nullptr) throw std::bad_alloc();
    return new (p) Slot[kChunk];
  } catch (...) {
    if (guard_ != nullptr) guard_->release(bytes);
    throw;
  }
}

Request RequestTable::add(Slot::Kind kind) {
  std::uint32_t index;
  if (free_ != Slot::kNoSlot) {
    index = free_;
    free_ = at(index).next_receive;
  } else {
    // Slot indices stay below 2^31: the matcher marks its own indices with the top bit (runtime/matcher.hpp).
    if (size_ >= 0x80000000u - kChunk) too_many();
    index = size_;
    if ((index >> kChunkBits) == chunks_.size()) {
      chunks_.reserve(chunks_.size() + 1);  // so that the push below cannot throw and lose the chunk
      chunks_.push_back(new_chunk());
    }
    ++size_;  // only once its chunk is there: a table whose chunk could not be made stays as it was
  }
  Slot& s = at(index);
  s.kind = kind;
  s.in_wait = s.matched = s.late = false;
  s.in_port = 0;
  s.peer = -1;
  s.tag = 0;
  s.context = 0;
  s.next_receive = Slot::kNoSlot;
  s.bytes = 0;
  if (kind == Slot::Kind::send)
    new (&s.send) SendSlot();  // the part of its kind begins here
  else
    new (&s.recv) RecvSlot();
  return RequestAccess::make(index, s.generation);
}

void RequestTable::release(std::uint32_t index) {
  Slot& s = at(index);
  s.kind = Slot::Kind::free;
  ++s.generation;
  s.next_receive = free_;
  free_ = index;
}

Slot& RequestTable::get(const Request& r, int node, const char* operation) {
  const std::uint32_t index = RequestAccess::slot(r);
  if (index >= size_ || at(index).generation != RequestAccess::generation(r) || at(index).kind == Slot::Kind::free)
    not_pending(node, operation);
  return at(index);
}

// Out of line and cold, so that add() and get() set up no frame for building the message.
void RequestTable::too_many() { throw std::length_error("more than 2^31 pending requests on one node"); }

void RequestTable::not_pending(int node, const char* operation) {
  throw UsageError("node " + std::to_string(node) + ": " + operation +
                   ": the request is not pending (never issued, or already completed)");
}

void RequestTable::clear() {
  // Keep the slots (their memory is reused by the next run), but make every one free; generations go on counting
  // so that a handle kept from an earlier run is still recognised as stale.
  free_ = Slot::kNoSlot;
  for (std::uint32_t i = size_; i-- > 0;) {
    Slot& s = at(i);
    if (s.kind != Slot::Kind::free) ++s.generation;
    s.kind = Slot::Kind::free;
    s.next_receive = free_;
    free_ = i;
  }
}

}  // namespace hcemu::detail
