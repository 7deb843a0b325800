#pragma once
// Receives posted together (Node::post_recvs): one group instead of a request slot and a matching entry per receive.
// Before its message comes an element is nothing but its source and its place in the group's buffer; what a match
// leaves of the message is kept beside it, 36 bytes per element in all. A d = 13 Direct exchange
// posts 8191 receives on each of 8192 nodes, and as requests they took 5 GiB of the host's memory.
//
// Plain data: the matcher that owns it fills it in and looks elements up by source; the node completes them.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "hcemu/time.hpp"
#include "timing/transfer.hpp"

namespace hcemu::detail {

struct RecvGroupState {
  static constexpr std::uint32_t kNone = 0xffffffffu;
  // Per element, in `flags`.
  static constexpr std::uint8_t kMatched = 1;  // met its message
  static constexpr std::uint8_t kLate = 2;     // UNFORCED, arrived before the post: comes out of the system buffer
  static constexpr std::uint8_t kDone = 4;     // completed by a wait
  static constexpr std::uint8_t kNothing = 8;  // receives nothing (kNoSource): neither matched nor completed

  // One element: its source, and what a match leaves of its message (of its timing::TransferTimes, what completing
  // it needs). 32 bytes, two to a cache line: a match and a wait each touch one line of the group's elements.
  struct Element {
    Time arrival = 0;
    Time input_hold = 0;
    std::uint32_t bytes = 0;  // the matched message's length
    int source = -2;          // kNoSource: receives nothing
    std::uint8_t port = 0;    // the input port the message arrived on
    std::uint8_t flags = 0;
  };
  static_assert(sizeof(Element) == 32);

  std::uint32_t index = 0;       // of the handle that names it
  std::uint32_t generation = 0;  // of the handle that names it; bumped when it is freed
  bool live = false;
  std::uint32_t context = 0;
  int tag = 0;
  Time posted = 0;
  std::byte* buffer = nullptr;  // element k's at buffer + k * block
  std::size_t block = 0;
  std::uint32_t count = 0;       // elements, kNoSource ones included
  std::uint32_t receives = 0;    // elements that receive (entries of `sorted`)
  std::uint32_t unmatched = 0;   // elements still waiting for their message
  std::uint32_t unfinished = 0;  // elements not completed yet

  // In one block of `memory_bytes` at `memory`: the elements, the lookup by source, and the trace's numbers.
  Element* elements = nullptr;
  // Which element receives from a source: a table over every node when the group is large against the machine
  // (`index_of`), else (source << 32 | element) sorted by source (`sorted`).
  std::uint32_t* index_of = nullptr;
  std::uint64_t* sorted = nullptr;
  std::uint64_t* messages = nullptr;  // the matched messages' numbers, for the trace (null without one)
  void* memory = nullptr;
  std::size_t memory_bytes = 0;

  std::byte* data(std::uint32_t k) const { return buffer + k * block; }
  bool matched(std::uint32_t k) const { return (elements[k].flags & kMatched) != 0; }

  // The element receiving from `source`, or kNone.
  std::uint32_t element_of(int source) const {
    if (index_of != nullptr) return index_of[source];
    const std::uint64_t key = static_cast<std::uint64_t>(static_cast<std::uint32_t>(source)) << 32;
    const std::uint64_t* it = std::lower_bound(sorted, sorted + receives, key);
    if (it == sorted + receives || (*it >> 32) != key >> 32) return kNone;
    return static_cast<std::uint32_t>(*it);
  }
  timing::TransferTimes arrival_times(std::uint32_t k) const {
    timing::TransferTimes t;
    t.arrival = elements[k].arrival;
    t.input_hold = elements[k].input_hold;
    t.in_port = elements[k].port;
    return t;
  }

 private:
  // What the element's lookup by source touches first, for the cache hints alone (runtime/host_hints.hpp).
  friend class HostHints;
  const void* lookup_address(int source) const {
    if (index_of != nullptr) return &index_of[source];
    return sorted;
  }
};

}  // namespace hcemu::detail
