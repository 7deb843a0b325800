#pragma once
// Matching messages with posted receives (docs/model.md §5): by (source, collective context, tag), in posting
// order, never overtaking between the same pair; and what a match does to the message by the timing model's
// verdict (delivered, delivered late from the system buffer, or discarded under FORCED). Plain data, no threads: the
// node that owns it, or a waker holding that node while it is parked, calls it.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/allocation.hpp"
#include "hcemu/report.hpp"
#include "runtime/arena.hpp"
#include "runtime/message.hpp"
#include "runtime/recv_group.hpp"
#include "runtime/requests.hpp"
#include "timing/timing_model.hpp"

namespace hcemu::detail {

struct MatchKey {
  int source;
  std::uint32_t context;
  int tag;
  friend bool operator==(const MatchKey&, const MatchKey&) = default;
};

class BlockPool;
class MemoryGuard;

class Matcher {
 public:
  // The table's larger sizes come from `pool` (nullptr: the general allocator), and every size is counted by `guard`
  // (nullptr: none); both outlive the matcher.
  Matcher(int node, const timing::TimingModel& timing, RequestTable& requests, Arena& arena, bool forced,
          BlockPool* pool = nullptr, MemoryGuard* guard = nullptr);
  ~Matcher();
  Matcher(const Matcher&) = delete;
  Matcher& operator=(const Matcher&) = delete;

  // A message has arrived: it meets the first receive posted for its key, or waits. Throws UsageError when it is
  // longer than that receive's buffer, ArenaExhausted when the system buffer (UNFORCED) cannot hold it.
  void arrive(Message* m);
  // A receive was posted (slot `index`, a specific source): it meets the first message waiting for its key, if any.
  void post(std::uint32_t index);

  // Receives posted together (Node::post_recvs) at `posted`, from `sources` (each in range; the caller checks). A
  // source given twice, or one from which a receive posted earlier for this context and tag still waits (it would
  // have to meet its message first), is a UsageError naming the node and `operation`, and nothing changes. The
  // elements meet the messages waiting for them now. No sources: an invalid handle.
  RecvGroup post_group(std::span<const int> sources, std::byte* buffer, std::size_t block, std::uint32_t context,
                       int tag, Time posted, int nodes, bool trace, const char* operation);
  // The state behind a live handle; a UsageError naming `operation` for any other.
  RecvGroupState& group(const RecvGroup& g, const char* operation);
  // Element k has been completed: once every one has, the group is freed and `g` made invalid.
  void element_done(RecvGroup& g, RecvGroupState& s, std::uint32_t k);
  // The first group whose element k waits for a message from `source` with this context and tag (null: none).
  RecvGroupState* waiting_group(int source, std::uint32_t context, int tag, std::uint32_t& k) const {
    for (RecvGroupState* g : active_) {  // in posting order: the first posted meets the message first
      if (g->context != context || g->tag != tag) continue;
      k = g->element_of(source);
      if (k != RecvGroupState::kNone && !g->matched(k)) return g;
    }
    return nullptr;
  }

  // The first waiting message from each source with this context and tag, for a receive from any source.
  template <class Visit>
  void for_each_first_waiting(std::uint32_t context, int tag, Visit&& visit) const {
    for (Message* last : rings_) {
      if (last == nullptr) continue;
      Message& first = *last->match_next;
      if (first.context == context && first.tag == tag) visit(first);
    }
  }
  // The first waiting message from `source` whatever its tag and context (null: none), for a deadlock report.
  const Message* first_waiting_from(int source) const {
    for (Message* last : rings_)
      if (last != nullptr && last->match_next->source == source) return last->match_next;
    return nullptr;
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

  // The slot of the receive the last arriving message met (Slot::kNoSlot: none yet).
  std::uint32_t last_arrival_match() const { return last_arrival_match_; }

  const std::vector<ForcedDiscard>& discards() const { return discards_; }
  // Traces only (settings.trace): when each matched message's first byte reached the node, kept from its match to
  // its receive's completion, where the trace's receive starts (docs/traces.md). Turning it on or off forgets all.
  void keep_first_bytes(bool on) {
    keep_first_bytes_ = on;
    first_bytes_.clear();
  }
  // The first byte of `message`, forgotten once read; `otherwise` when none was kept.
  Time take_first_byte(std::uint64_t message, Time otherwise) {
    const auto it = first_bytes_.find(message);
    if (it == first_bytes_.end()) return otherwise;
    const Time t = it->second;
    first_bytes_.erase(it);
    return t;
  }
  std::uint64_t messages_received() const { return messages_received_; }
  std::uint64_t bytes_received() const { return bytes_received_; }
  // How many of its first bytes every post and arrival touches (the hints warm them); the tables that only waiting
  // messages and the end of a run touch follow.
  std::size_t hot_bytes() const {
    return static_cast<std::size_t>(reinterpret_cast<const char*>(&rings_) - reinterpret_cast<const char*>(this));
  }

 private:
  // Where a message touches the matcher first, for the cache hints alone (runtime/host_hints.hpp): the list of
  // waiting groups, which every arrival reads first, where a group's handle is looked up, and where the entry of
  // `key` starts its probe.
  friend class HostHints;
  const void* active_address() const { return active_.data(); }
  const void* entry_address(const RecvGroupState& g) const { return &groups_[g.index]; }
  const void* home_address(const MatchKey& key) const { return &table_[home_of(check_of(key))]; }

  // 8 bytes: eight to a cache line. `head` names what waits for the key: the first receive posted for it (a slot
  // index; the rest follow through Slot::next_receive, and the first keeps the last in RecvSlot::last_receive), or
  // with kRing set the ring of waiting messages in rings_. Never both: a receive and a message of one key meet. The
  // key itself is read from that receive or message; `check` holds 30 bits of the key's hash and the source's low
  // two bits, enough to tell keys apart without reading it but once in a billion, and to find the entry's home
  // again when the table grows (home_of), so that growing touches nothing but the table.
  struct Entry {
    std::uint32_t check = 0;
    std::uint32_t head = kEmpty;
  };
  static_assert(sizeof(Entry) == 8);
  static constexpr std::uint32_t kEmpty = 0xffffffffu;
  static constexpr std::uint32_t kErased = 0xfffffffeu;  // a tombstone: lookups go on past it, an insertion may take it
  static constexpr std::uint32_t kRing = 0x80000000u;    // slot indices stay below it (RequestTable::add)
  static bool in_use(const Entry& e) { return e.head < kErased; }
  static bool is_ring(std::uint32_t head) { return (head & kRing) != 0; }

  MatchKey key_of(std::uint32_t head) const;
  Message*& ring(const Entry& e) { return rings_[e.head & ~kRing]; }
  std::uint32_t new_ring(Message* m);  // a ring of one message; returns its head
  void free_ring(std::uint32_t head);
  // What meeting does: discard, or copy into the receive. Returns false when the message was discarded.
  bool meet(Message* m, Slot& receive);
  bool meet_element(Message* m, RecvGroupState& g, std::uint32_t k);
  // Both: under FORCED a message that arrived before `posted` is lost (false, and m is gone); one longer than
  // `capacity` is a UsageError; otherwise its payload is copied to `data`, counted, and m is still the caller's.
  bool accept(Message* m, Time posted, std::byte* data, std::size_t capacity, bool& late);
  // A message for which a group's element waits meets it (true: m is taken, met or discarded).
  bool arrive_in_group(Message* m);
  // The first waiting message of the key that `k` receives, if any, meets it (post() for one element).
  void take_waiting(RecvGroupState& g, std::uint32_t k);
  void free_group(std::uint32_t index);
  // post_group's steps (matcher_groups.cpp).
  RecvGroupState lay_out_group(std::span<const int> sources, int nodes, bool trace);
  int repeated_source(RecvGroupState& g, int nodes);
  int earlier_receive(const RecvGroupState& g, std::uint32_t context, int tag) const;
  // After the end: a message longer than the receive it would have met is the run's error (the first such).
  void check_leftover(const Message& m, std::size_t capacity);
  void* allocate_block(std::size_t bytes);  // counted by the guard, from the pool when large
  void free_block(void* p, std::size_t bytes);
  void buffer(Message* m);  // UNFORCED: charge the system buffer (the arena)
  void unbuffer(Message* m);
  static void append(Message*& last, Message* m);
  static Message* pop_first(Message*& last);  // the ring is not empty
  // `m` waits in its key's ring (a new one if need be), and size_ is returned; unless receives wait for its key:
  // then their entry is returned, and `m` is the caller's still.
  std::size_t wait_or_find_receives(Message* m);
  // The first receive of entry `e` has met its message: the next one (if any) becomes the first and keeps the last.
  void advance_receives(std::size_t e, std::uint32_t next, std::uint32_t last);

  // An open-addressing table (linear probing, tombstones): no allocation per key, and the common pattern — a receive
  // and its message meet, the key goes away — leaves it small. Fibonacci hashing: one multiply per field, and
  // sources in arithmetic progression (a row, a column, the partners of a dimension) spread out.
  // Four consecutive sources (4k ... 4k + 3) share a cache line of the table, every other entry of it, so that a
  // key homed on the same line by chance probes to the entry beside its home: a kernel that posts receives for many
  // partners meets their messages in about that order (the Direct exchange's partners id ^ j go through each group
  // in turn), and finds the next entries on a line it has just touched instead of at a random line of a table long
  // evicted.
  static std::uint32_t check_of(const MatchKey& key) {
    const std::uint64_t h =
        static_cast<std::uint64_t>(static_cast<std::uint32_t>(key.source) >> 2) * 0x9e3779b97f4a7c15ull +
        static_cast<std::uint64_t>(static_cast<std::uint32_t>(key.tag)) * 0xc2b2ae3d27d4eb4full +
        static_cast<std::uint64_t>(key.context) * 0x165667b19e3779f9ull;
    const auto high = static_cast<std::uint32_t>(((h ^ (h >> 29)) * 0x9e3779b97f4a7c15ull) >> 32);
    return (high & ~3u) | (static_cast<std::uint32_t>(key.source) & 3u);
  }
  std::size_t home_of(std::uint32_t check) const {  // the table has at most 2^32 entries
    return (static_cast<std::size_t>(check >> (shift_ - 32)) & ~std::size_t{7}) | (check & 3u) * 2;
  }
  // The entry of `key`, or where to insert it (the first tombstone on the way, else the empty entry that ends the
  // probe), with `found` false.
  std::size_t locate(const MatchKey& key, std::uint32_t check, bool& found) const;
  std::size_t find(const MatchKey& key) const;                        // the entry of a key that has one
  void take(std::size_t e, std::uint32_t check, std::uint32_t head);  // fills the position locate() gave
  void erase(std::size_t index);
  void empty_table();  // every entry empty again, unless it is so already
  void reserve_one();  // room for one more key: grows, or only clears the tombstones when they are most of the table
  Entry* make_table(std::size_t size);  // every entry empty
  void free_table(Entry* table, std::size_t size);

  // What every post and arrival touches first, on the fewest cache lines: a node's runtime is cold again by the
  // time its next message comes.
  int node_;
  bool forced_;
  bool keep_first_bytes_ = false;  // in forced_'s padding: no hot word moves
  unsigned shift_ = 0;  // 64 - log2(size_)
  const timing::TimingModel& timing_;
  RequestTable& requests_;
  Arena& arena_;
  Entry* table_;
  std::size_t size_ = 0;    // a power of two
  std::size_t count_ = 0;   // entries in use
  std::size_t erased_ = 0;  // tombstones
  std::uint64_t messages_received_ = 0, bytes_received_ = 0;
  std::uint32_t last_arrival_match_ = Slot::kNoSlot;
  std::vector<RecvGroupState*> active_;  // groups with elements still waiting for their message, in posting order
  // Then what only messages that wait, and the end of a run, touch.
  std::vector<Message*> rings_;  // the last message of each ring of waiting messages (the first follows it); free: null
  std::vector<std::uint32_t> free_rings_;
  std::vector<Message*> after_end_;  // arrived after the node finished, for a key that receives still wait for
  std::string leftover_error_;       // the first of those longer than the receive it would have met
  std::vector<ForcedDiscard> discards_;
  std::unordered_map<std::uint64_t, Time> first_bytes_;  // by message number, while keep_first_bytes_
  std::vector<std::unique_ptr<RecvGroupState>> groups_;  // by handle index; freed ones are reused
  std::vector<std::uint32_t> free_groups_;
  BlockPool* pool_;
  MemoryGuard* guard_;
};

}  // namespace hcemu::detail
