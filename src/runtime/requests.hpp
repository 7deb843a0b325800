#pragma once
// A node's pending operations: the slots behind its Request handles. A slot is reused once completed; its generation
// tells a stale handle from a live one. Only the node touches its table, except the SendSlot part of a send, which
// whoever places the transfer fills in.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hcemu/detail/node_backend.hpp"
#include "hcemu/node.hpp"
#include "hcemu/time.hpp"
#include "timing/transfer.hpp"

namespace hcemu::detail {

struct Message;

// What a sender learns about its transfer once it has been placed in model time.
struct SendSlot {
  std::atomic<bool> released{false};  // set last, with release ordering
  int channel = -1;                   // the output channel it held
  Time start = 0;                     // when the transfer started
  Time done = 0;                      // when the transfer has left the sender (a blocking send returns)
};

// A receive's own part.
struct RecvSlot {
  union {
    std::byte* data = nullptr;  // the buffer, of Slot::bytes bytes, until the receive is matched
    std::uint64_t message;      // then the matched message's number (for traces)
  };
  Time posted = 0;
  union {
    // Of the matched message: what completing the receive needs of its timing::TransferTimes (and input_hold).
    Time arrival = 0;
    // Until then, of the first receive waiting for its key: the last one (runtime/matcher.hpp).
    std::uint32_t last_receive;
  };
  Time input_hold = 0;
};

// One cache line: the Direct exchange keeps 2^d of them live per node, each touched again only after every other
// node has run.
struct alignas(64) Slot {
  enum class Kind : std::uint8_t { free, send, recv };
  Slot() : send() {}

  std::uint32_t generation = 0;
  Kind kind = Kind::free;
  bool in_wait : 1 = false;  // named by the wait_all being gathered (so that naming it twice is caught)
  bool matched : 1 = false;  // a receive: it has met its message
  bool late : 1 = false;     // a receive, UNFORCED, arrived before the post: comes out of the system buffer
  std::uint8_t in_port = 0;  // a matched receive: the input port its message arrived on
  // The destination of a send; the source of a receive (kAnySource for any until it is matched, then who sent it).
  int peer = -1;
  int tag = 0;
  std::uint32_t context = 0;
  std::uint32_t next_receive = kNoSlot;  // a receive: the next receive posted for the same key; free: the next free
  // A send: its length. A receive: its buffer's capacity until it is matched, then the message's length.
  std::size_t bytes = 0;
  // The part of its kind, started by RequestTable::add.
  union {
    SendSlot send;
    RecvSlot recv;
  };

  // A matched receive's arrival, as the timing model reads it.
  timing::TransferTimes arrival_times() const {
    timing::TransferTimes t;
    t.arrival = recv.arrival;
    t.input_hold = recv.input_hold;
    t.in_port = in_port;
    return t;
  }

  static constexpr std::uint32_t kNoSlot = 0xffffffffu;
};
static_assert(sizeof(Slot) == 64);

class BlockPool;
class MemoryGuard;

class RequestTable {
 public:
  // The chunks of slots come from `pool` (nullptr: the general allocator) and are counted by `guard` (nullptr:
  // none), which outlive the table; they stay until the table goes.
  explicit RequestTable(BlockPool* pool = nullptr, MemoryGuard* guard = nullptr) : pool_(pool), guard_(guard) {}
  RequestTable(const RequestTable&) = delete;
  RequestTable& operator=(const RequestTable&) = delete;
  ~RequestTable();

  Request add(Slot::Kind kind);
  void release(std::uint32_t index);
  // The slot of a live request; throws UsageError naming `node` and `operation` for a stale or invalid one.
  Slot& get(const Request& r, int node, const char* operation);
  Slot& at(std::uint32_t index) { return chunks_[index >> kChunkBits][index & (kChunk - 1)]; }
  const Slot& at(std::uint32_t index) const { return chunks_[index >> kChunkBits][index & (kChunk - 1)]; }
  std::size_t size() const { return size_; }
  // The slot the next add() takes, or Slot::kNoSlot when it takes a new one.
  std::uint32_t next_free() const { return free_; }
  void clear();  // for the next run

 private:
  // What at(index) reads first, the chunk's entry in the list of chunks, for the cache hints alone
  // (runtime/host_hints.hpp; index may be past the end).
  friend class HostHints;
  const void* chunk_entry(std::uint32_t index) const { return chunks_.data() + (index >> kChunkBits); }

  // Slots never move as the table grows: they live in chunks of kChunk, one allocation each, consecutive slots
  // side by side (std::deque's blocks hold three slots each).
  Slot* new_chunk();
  [[noreturn, gnu::cold, gnu::noinline]] static void too_many();
  [[noreturn, gnu::cold, gnu::noinline]] static void not_pending(int node, const char* operation);

  static constexpr unsigned kChunkBits = 6;
  static constexpr std::uint32_t kChunk = 1u << kChunkBits;
  BlockPool* pool_;
  MemoryGuard* guard_;
  std::vector<Slot*> chunks_;
  std::uint32_t size_ = 0;
  // The free slots, last released first, linked through Slot::next_receive: no list beside the slots to grow
  // (8191 entries per node in a d = 13 Direct exchange), and taking one touches only the slot itself.
  std::uint32_t free_ = Slot::kNoSlot;
};

}  // namespace hcemu::detail
