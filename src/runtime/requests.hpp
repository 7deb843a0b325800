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
  std::uint32_t generation = 0;
  Kind kind = Kind::free;
  bool in_wait = false;  // named by the wait_all being gathered (so that naming it twice is caught)
  int peer = -1;  // the destination of a send, the source of a receive (kAnySource for any)
  int tag = 0;
  std::uint32_t context = 0;
  std::size_t bytes = 0;

  // a send
  SendSlot send;
  std::uint64_t seq = 0;  // its issue order at this node

  // a receive
  std::span<std::byte> buffer;
  Time posted = 0;
  bool matched = false;
  bool late = false;                     // UNFORCED, arrived before the post: comes out of the system buffer
  std::uint32_t next_receive = kNoSlot;  // the next receive posted for the same key
  int source = -1;                       // who sent the matched message
  std::uint64_t message = 0;             // the matched message's number (for traces)
  timing::TransferTimes times;           // of the matched message

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
