#pragma once
// A node's pending operations: the slots behind its Request handles. A slot is reused once completed; its generation
// tells a stale handle from a live one. Only the node touches its table, except the SendSlot part of a send, which
// whoever places the transfer fills in.
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/allocation.hpp"
#include "hcemu/detail/node_backend.hpp"
#include "hcemu/node.hpp"
#include "hcemu/time.hpp"
#include "timing/transfer.hpp"

namespace hcemu::detail {

struct Message;

// What a sender learns about its transfer once it has been placed in model time.
struct SendSlot {
  std::atomic<bool> released{false};  // set last, with release ordering
  Time start = 0;                     // when the transfer started
  Time done = 0;                      // when the transfer has left the sender (a blocking send returns)
  int channel = -1;                   // the output channel it held
};

struct Slot {
  enum class Kind : std::uint8_t { free, send, recv };
  Slot() : send() {}

  std::uint32_t generation = 0;
  Kind kind = Kind::free;
  bool in_wait = false;  // named by the wait_all being gathered (so that naming it twice is caught)
  bool matched = false;  // a receive: it has met its message
  bool late = false;     // a receive, UNFORCED, arrived before the post: comes out of the system buffer
  int peer = -1;  // the destination of a send, the source of a receive (kAnySource for any)
  int tag = 0;
  std::uint32_t context = 0;
  std::uint32_t next_receive = kNoSlot;  // a receive: the next receive posted for the same key
  int source = -1;                       // a receive: who sent the matched message
  std::size_t bytes = 0;

  // What only a send or only a receive needs shares its space: RequestTable::add starts the part of its kind.
  // 120 bytes in all rather than 168: the Direct exchange keeps 2^d of them live per node.
  union {
    SendSlot send;                // a send
    timing::TransferTimes times;  // a receive: of the matched message
  };
  union {
    std::uint64_t seq = 0;  // a send: its issue order at this node
    std::uint64_t message;  // a receive: the matched message's number (for traces)
  };
  std::span<std::byte> buffer;  // a receive
  Time posted = 0;              // a receive

  static constexpr std::uint32_t kNoSlot = 0xffffffffu;
};

class RequestTable {
 public:
  Request add(Slot::Kind kind);
  void release(std::uint32_t index);
  // The slot of a live request; throws UsageError naming `node` and `operation` for a stale or invalid one.
  Slot& get(const Request& r, int node, const char* operation);
  Slot& at(std::uint32_t index) { return chunks_[index >> kChunkBits][index & (kChunk - 1)]; }
  std::size_t size() const { return size_; }
  void clear();  // for the next run

 private:
  // Slots never move as the table grows: they live in chunks of kChunk, one allocation each, consecutive slots
  // side by side (std::deque's blocks hold three slots each).
  static constexpr unsigned kChunkBits = 6;
  static constexpr std::uint32_t kChunk = 1u << kChunkBits;
  std::vector<std::unique_ptr<Slot[]>> chunks_;
  std::uint32_t size_ = 0;
  std::vector<std::uint32_t, Allocator<std::uint32_t>> free_;
};

}  // namespace hcemu::detail
