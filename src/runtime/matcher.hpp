#pragma once
// Matching messages with posted receives (MODEL.md section 5): by (source, collective context, tag), in posting
// order, never overtaking between the same pair; and what a match does to the message by the timing model's
// verdict (delivered, delivered late from the system buffer, or discarded under FORCED). Plain data, no threads: the
// node that owns it, or a waker holding that node while it is parked, calls it.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/allocation.hpp"
#include "hcemu/report.hpp"
#include "runtime/arena.hpp"
#include "runtime/message.hpp"
#include "runtime/requests.hpp"
#include "timing/timing_model.hpp"

namespace hcemu::detail {

struct MatchKey {
  int source;
  std::uint32_t context;
  int tag;
  friend bool operator==(const MatchKey&, const MatchKey&) = default;
};

class Matcher {
 public:
  Matcher(int node, const timing::TimingModel& timing, RequestTable& requests, Arena& arena, bool forced);

  // A message has arrived: it meets the first receive posted for its key, or waits. Throws UsageError when it is
  // longer than that receive's buffer, ArenaExhausted when the system buffer (UNFORCED) cannot hold it.
  void arrive(Message* m);
  // A receive was posted (slot `index`, a specific source): it meets the first message waiting for its key, if any.
  void post(std::uint32_t index);

  // The first waiting message from each source with this context and tag, for a receive from any source.
  template <class Visit>
  void for_each_first_waiting(std::uint32_t context, int tag, Visit&& visit) const {
    for (std::size_t i = 0; i < size_; ++i) {
      const Entry& e = table_[i];
      if (in_use(e) && e.key.context == context && e.key.tag == tag && e.last_message != nullptr)
        visit(*e.first_message());
    }
  }
  // A receive from any source (slot `index`) takes `m`, the first waiting message of its source; under FORCED a
  // message that arrived before the receive was posted is discarded instead. Returns whether it matched.
  bool take_for(std::uint32_t index, Message* m);
  // Under FORCED, the waiting messages with this context and tag that arrived before `posted` are lost to every
  // receive posted from then on (one posted earlier would have taken them): discards them, for a receive from any
  // source posted at `posted`.
  void discard_lost(std::uint32_t context, int tag, Time posted);

  // After the node finished: a message that arrived since waits with the others, and meets nothing (the buffers
  // of receives never waited for may be gone with the kernel).
  void arrive_after_end(Message* m);
  // After the run: what nobody received. FORCED: discards with no receive posted; UNFORCED: one line each. Throws
  // UsageError if a message is longer than the buffer of a receive posted for it and never waited for, so that an
  // oversize is an error however the run ends.
  void collect_leftovers(std::vector<ForcedDiscard>& discards, std::vector<std::string>& unreceived);
  void clear();  // for the next run (frees waiting messages)

  const std::vector<ForcedDiscard>& discards() const { return discards_; }
  std::uint64_t messages_received() const { return messages_received_; }
  std::uint64_t bytes_received() const { return bytes_received_; }

 private:
  static constexpr int kEmpty = -2147483647 - 1;
  static constexpr int kErased = kEmpty + 1;  // a tombstone: lookups go on past it, an insertion may take it
  // 32 bytes, aligned: two to a cache line, none across two. The waiting messages of a key form a ring through
  // match_next, held by its last (the first follows it); the waiting receives a list through Slot::next_receive.
  struct alignas(32) Entry {
    MatchKey key{kEmpty, 0, 0};
    std::uint32_t first_receive = Slot::kNoSlot;
    std::uint32_t last_receive = Slot::kNoSlot;
    Message* last_message = nullptr;
    Message* first_message() const { return last_message != nullptr ? last_message->match_next : nullptr; }
  };
  static_assert(sizeof(Entry) == 32);

  // Pairs waiting messages with waiting receives of one key, in order; erases the entry once both are empty.
  void match(std::size_t entry);
  // What meeting does: discard, or copy into the receive. Returns false when the message was discarded.
  bool meet(Message* m, Slot& receive);
  void buffer(Message* m);  // UNFORCED: charge the system buffer (the arena)
  void unbuffer(Message* m);
  static void append(Entry& entry, Message* m);
  static Message* pop_first(Entry& entry);  // the entry has a waiting message

  // An open-addressing table (linear probing, tombstones): no allocation per key, and the common pattern — a receive
  // and its message meet, the key goes away — leaves it small. Fibonacci hashing: one multiply per field, and
  // sources in arithmetic progression (a row, a column, the partners of a dimension) spread out.
  // Two consecutive sources (2k, 2k + 1) share a cache line of the table, each at its own place in it: a kernel that
  // posts receives for many partners meets their messages in about that order (the Direct exchange's partners id ^ j
  // go through each pair in turn), and finds the second entry on a line it has just touched instead of at a random
  // line of a table long evicted. Longer runs of sources cluster the table, and their probes cost more than the
  // lines they save.
  std::size_t find(const MatchKey& key) const;  // index, or table size when absent
  std::size_t find_or_insert(const MatchKey& key);
  void erase(std::size_t index);
  std::size_t home(const MatchKey& key) const {
    const std::uint64_t h =
        static_cast<std::uint64_t>(static_cast<std::uint32_t>(key.source) >> 1) * 0x9e3779b97f4a7c15ull +
        static_cast<std::uint64_t>(static_cast<std::uint32_t>(key.tag)) * 0xc2b2ae3d27d4eb4full +
        static_cast<std::uint64_t>(key.context) * 0x165667b19e3779f9ull;
    const auto line = static_cast<std::size_t>((h ^ (h >> 29)) * 0x9e3779b97f4a7c15ull >> shift_) & ~std::size_t{1};
    return line | (static_cast<std::uint32_t>(key.source) & 1u);
  }
  void grow();  // or only clears the tombstones, when they are most of what is there
  static bool in_use(const Entry& e) { return e.key.source != kEmpty && e.key.source != kErased; }
  struct FreeTable {
    void operator()(Entry* table) const { free_aligned(table); }
  };
  static std::unique_ptr<Entry[], FreeTable> make_table(std::size_t size);

  int node_;
  const timing::TimingModel& timing_;
  RequestTable& requests_;
  Arena& arena_;
  bool forced_;
  std::unique_ptr<Entry[], FreeTable> table_;
  std::size_t size_ = 0;   // a power of two
  unsigned shift_ = 0;     // 64 - log2(size_)
  std::size_t count_ = 0;  // entries in use
  std::size_t erased_ = 0;  // tombstones
  std::vector<ForcedDiscard> discards_;
  std::uint64_t messages_received_ = 0, bytes_received_ = 0;
};

}  // namespace hcemu::detail
