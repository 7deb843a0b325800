#pragma once
// Matching messages with posted receives (MODEL.md section 5): by (source, collective context, tag), in posting
// order, never overtaking between the same pair; and what a match does to the message by the timing model's
// verdict (delivered, delivered late from the system buffer, or discarded under FORCED). Plain data, no threads: the
// node that owns it, or a waker holding that node while it is parked, calls it.
#include <cstdint>
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
    for (const Entry& e : table_)
      if (e.key.source != kEmpty && e.key.context == context && e.key.tag == tag && e.first_message != nullptr)
        visit(*e.first_message);
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
  struct Entry {
    MatchKey key{kEmpty, 0, 0};
    Message* first_message = nullptr;
    Message* last_message = nullptr;
    std::uint32_t first_receive = Slot::kNoSlot;
    std::uint32_t last_receive = Slot::kNoSlot;
  };

  // Pairs waiting messages with waiting receives of one key, in order; erases the entry once both are empty.
  void match(std::size_t entry);
  // What meeting does: discard, or copy into the receive. Returns false when the message was discarded.
  bool meet(Message* m, Slot& receive);
  void buffer(Message* m);  // UNFORCED: charge the system buffer (the arena)
  void unbuffer(Message* m);

  // An open-addressing table (linear probing, backward-shift deletion): no allocation per key, and the common
  // pattern — a receive and its message meet, the key goes away — leaves it small.
  std::size_t find(const MatchKey& key) const;  // index, or table size when absent
  std::size_t find_or_insert(const MatchKey& key);
  void erase(std::size_t index);
  std::size_t home(const MatchKey& key) const;
  void grow();

  int node_;
  const timing::TimingModel& timing_;
  RequestTable& requests_;
  Arena& arena_;
  bool forced_;
  std::vector<Entry, Allocator<Entry>> table_;
  std::size_t count_ = 0;
  std::vector<ForcedDiscard> discards_;
  std::uint64_t messages_received_ = 0, bytes_received_ = 0;
};

}  // namespace hcemu::detail
