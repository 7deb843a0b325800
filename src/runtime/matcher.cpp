#include "runtime/matcher.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <tuple>

#include "hcemu/errors.hpp"
#include "runtime/block_pool.hpp"
#include "runtime/memory_guard.hpp"

namespace hcemu::detail {

Matcher::Matcher(int node, const timing::TimingModel& timing, RequestTable& requests, Arena& arena, bool forced,
                 BlockPool* pool, MemoryGuard* guard)
    : node_(node),
      forced_(forced),
      shift_(64 - 4),
      timing_(timing),
      requests_(requests),
      arena_(arena),
      table_(nullptr),
      size_(16),
      pool_(pool),
      guard_(guard) {
  table_ = make_table(size_);
}

Matcher::~Matcher() {
  for (const auto& g : groups_)
    if (g->live) free_block(g->memory, g->memory_bytes);
  free_table(table_, size_);
}

// A table of thousands of entries (a Direct exchange's 2^d - 1 receives posted ahead: 128 KiB per node at d = 13)
// from the machine's pool, a table given back when it grows serving another node's. With huge pages
// (EmulatorSettings::huge_pages) a lookup's entry is a cache miss still, but no longer a TLB miss too, and the tables
// cost a few page faults instead of one per 4 KiB.
Matcher::Entry* Matcher::make_table(std::size_t size) {
  Entry* table = static_cast<Entry*>(allocate_block(size * sizeof(Entry)));
  std::uninitialized_default_construct_n(table, size);
  return table;
}

void Matcher::free_table(Entry* table, std::size_t size) { free_block(table, size * sizeof(Entry)); }

void* Matcher::allocate_block(std::size_t bytes) {
  if (guard_ != nullptr && !guard_->reserve(bytes)) throw std::bad_alloc();
  const bool pooled = pool_ != nullptr && BlockPool::takes(bytes, 64);
  void* memory = pooled ? pool_->allocate(bytes, 64) : allocate_aligned(bytes, 64);
  if (memory == nullptr) {
    if (guard_ != nullptr) guard_->release(bytes);
    throw std::bad_alloc();
  }
  return memory;
}

void Matcher::free_block(void* p, std::size_t bytes) {
  if (guard_ != nullptr) guard_->release(bytes);
  if (pool_ != nullptr && BlockPool::takes(bytes, 64))
    pool_->free(p, bytes);
  else
    free_aligned(p);
}

void Matcher::append(Message*& last, Message* m) {
  if (last == nullptr) {
    m->match_next = m;
  } else {
    m->match_next = last->match_next;
    last->match_next = m;
  }
  last = m;
}

Message* Matcher::pop_first(Message*& last) {
  Message* m = last->match_next;
  if (m == last)
    last = nullptr;
  else
    last->match_next = m->match_next;
  m->match_next = nullptr;
  return m;
}

std::uint32_t Matcher::new_ring(Message* m) {
  std::uint32_t i;
  if (!free_rings_.empty()) {
    i = free_rings_.back();
    free_rings_.pop_back();
  } else {
    i = static_cast<std::uint32_t>(rings_.size());
    rings_.push_back(nullptr);
  }
  append(rings_[i], m);
  return i | kRing;
}

void Matcher::free_ring(std::uint32_t head) {
  rings_[head & ~kRing] = nullptr;
  free_rings_.push_back(head & ~kRing);
}

MatchKey Matcher::key_of(std::uint32_t head) const {
  if (is_ring(head)) {
    const Message& m = *rings_[head & ~kRing]->match_next;
    return MatchKey{m.source, m.context, m.tag};
  }
  const Slot& r = requests_.at(head);
  return MatchKey{r.peer, r.context, r.tag};
}

std::size_t Matcher::wait_or_find_receives(Message* m) {
  const MatchKey key{m->source, m->context, m->tag};
  const std::uint32_t check = check_of(key);
  reserve_one();
  bool found = false;
  const std::size_t e = locate(key, check, found);
  if (!found) {
    take(e, check, new_ring(m));
    return size_;
  }
  if (is_ring(table_[e].head)) {
    append(ring(table_[e]), m);
    return size_;
  }
  return e;
}

void Matcher::arrive(Message* m) {
  if (!active_.empty() && arrive_in_group(m)) return;
  const std::size_t e = wait_or_find_receives(m);
  if (e == size_) {
    buffer(m);  // nobody waits for it yet
    return;
  }
  const std::uint32_t index = table_[e].head;
  Slot& r = requests_.at(index);
  const std::uint32_t next = r.next_receive, last = r.recv.last_receive;  // before meeting overwrites the latter
  if (!meet(m, r)) return;  // discarded: the receive waits for a later message
  advance_receives(e, next, last);
  // Receives posted together mostly meet their messages in the order they were posted: the slot after this one is
  // the likeliest next (HostHints names it to the engine when the node parks to send).
  last_arrival_match_ = index;
  if (index + 1 < requests_.size()) __builtin_prefetch(&requests_.at(index + 1));
}

bool Matcher::arrive_in_group(Message* m) {
  std::uint32_t k = 0;
  RecvGroupState* g = waiting_group(m->source, m->context, m->tag, k);
  if (g == nullptr) return false;
  if (meet_element(m, *g, k)) last_arrival_match_ = Slot::kNoSlot;  // no request's neighbour to hint at
  return true;
}

void Matcher::advance_receives(std::size_t e, std::uint32_t next, std::uint32_t last) {
  if (next == Slot::kNoSlot) {
    erase(e);
    return;
  }
  requests_.at(next).recv.last_receive = last;
  table_[e].head = next;
}

void Matcher::post(std::uint32_t index) {
  Slot& r = requests_.at(index);
  const MatchKey key{r.peer, r.context, r.tag};
  const std::uint32_t check = check_of(key);
  r.next_receive = Slot::kNoSlot;
  r.recv.last_receive = index;
  reserve_one();
  bool found = false;
  const std::size_t e = locate(key, check, found);
  if (!found) {
    take(e, check, index);
    return;
  }
  Entry& entry = table_[e];
  if (!is_ring(entry.head)) {  // receives wait already: this one goes last
    Slot& first = requests_.at(entry.head);
    requests_.at(first.recv.last_receive).next_receive = index;
    first.recv.last_receive = index;
    return;
  }
  // Messages wait: the first that is not discarded meets the receive.
  for (;;) {
    Message*& last = ring(entry);
    Message* m = pop_first(last);
    const bool emptied = last == nullptr;
    if (emptied) {
      free_ring(entry.head);
      entry.head = index;  // the receive waits, unless it meets m
    }
    unbuffer(m);
    if (meet(m, r)) {
      if (emptied) erase(e);
      return;
    }
    if (emptied) return;
  }
}

bool Matcher::accept(Message* m, Time posted, std::byte* data, std::size_t capacity, bool& late) {
  const timing::MatchOutcome outcome = timing_.on_match(m->times(), posted);
  if (outcome == timing::MatchOutcome::discard) {
    // The iPSC/860 rule: the message arrived before its receive was posted and is lost.
    discards_.push_back({m->source, node_, m->tag, m->bytes, m->times().first_byte, posted});
    Message::destroy(m);
    return false;
  }
  if (m->bytes > capacity) {
    const std::string what = "node " + std::to_string(node_) + ": recv: message of " + std::to_string(m->bytes) +
                             " bytes from node " + std::to_string(m->source) + " tag " + std::to_string(m->tag) +
                             " is longer than the " + std::to_string(capacity) + "-byte buffer posted for it";
    Message::destroy(m);
    throw UsageError(what);
  }
  // It waited in the system buffer in model time, even if the host delivered it after the receive was posted; the
  // arena is charged for it where its receive completes (Completion::take_input).
  late = outcome == timing::MatchOutcome::deliver_late;
  if (keep_first_bytes_) first_bytes_[m->number()] = m->times().first_byte;
  if (m->bytes > 0) std::memcpy(data, m->payload(), m->bytes);
  ++messages_received_;
  bytes_received_ += m->bytes;
  return true;
}

bool Matcher::meet(Message* m, Slot& r) {
  bool late = false;
  if (!accept(m, r.recv.posted, r.recv.data, r.bytes, late)) return false;
  r.matched = true;
  r.late = late;
  r.bytes = m->bytes;
  r.peer = m->source;
  r.in_port = static_cast<std::uint8_t>(m->times().in_port);
  r.recv.message = m->number();
  r.recv.arrival = m->times().arrival;
  r.recv.input_hold = m->times().input_hold;
  Message::destroy(m);
  return true;
}

bool Matcher::take_for(std::uint32_t index, Message* m) {
  const std::size_t e = find(MatchKey{m->source, m->context, m->tag});  // m is the first waiting message of its key
  Message*& last = ring(table_[e]);
  pop_first(last);
  if (last == nullptr) {
    free_ring(table_[e].head);
    erase(e);
  }
  unbuffer(m);
  return meet(m, requests_.at(index));
}

void Matcher::discard_lost(std::uint32_t context, int tag, Time posted) {
  if (!forced_) return;
  for (std::size_t i = 0; i < rings_.size(); ++i) {
    Message*& last = rings_[i];
    if (last == nullptr || last->match_next->context != context || last->match_next->tag != tag) continue;
    const Message& first = *last->match_next;
    const std::size_t e = find(MatchKey{first.source, first.context, first.tag});
    while (last != nullptr && timing_.on_match(last->match_next->times(), posted) == timing::MatchOutcome::discard) {
      Message* m = pop_first(last);
      discards_.push_back({m->source, node_, m->tag, m->bytes, m->times().first_byte, posted});
      Message::destroy(m);
    }
    if (last == nullptr) {  // erasing leaves the other entries where they are
      free_ring(table_[e].head);
      erase(e);
    }
  }
}

void Matcher::buffer(Message* m) {
  if (forced_) return;
  arena_.buffer(system_buffer_bytes(m->bytes));  // UNFORCED: the system buffer is the node's memory (Arena::buffer)
  m->buffered = true;
}

void Matcher::unbuffer(Message* m) {
  if (!m->buffered) return;
  arena_.unbuffer(system_buffer_bytes(m->bytes));
  m->buffered = false;
}

void Matcher::arrive_after_end(Message* m) {
  std::uint32_t k = 0;
  if (RecvGroupState* g = waiting_group(m->source, m->context, m->tag, k)) {  // as a receive below, for the element
    if (timing_.on_match(m->times(), g->posted) != timing::MatchOutcome::discard) {
      check_leftover(*m, g->block);
      g->elements[k].flags |= RecvGroupState::kMatched;
      if (--g->unmatched == 0) active_.erase(std::find(active_.begin(), active_.end(), g));
    }
    after_end_.push_back(m);
    return;
  }
  const std::size_t e = wait_or_find_receives(m);
  if (e == size_) return;
  // It meets nothing, but is checked against the receive it would have met, so that an oversize is an error however
  // the run ends; that receive then stands for it, and the next message of the key meets the next one.
  const Slot& r = requests_.at(table_[e].head);
  if (timing_.on_match(m->times(), r.recv.posted) != timing::MatchOutcome::discard) {
    check_leftover(*m, r.bytes);
    advance_receives(e, r.next_receive, r.recv.last_receive);
  }
  after_end_.push_back(m);
}

void Matcher::check_leftover(const Message& m, std::size_t capacity) {
  if (m.bytes > capacity && leftover_error_.empty())
    leftover_error_ = "node " + std::to_string(node_) + ": recv: message of " + std::to_string(m.bytes) +
                      " bytes from node " + std::to_string(m.source) + " tag " + std::to_string(m.tag) +
                      " is longer than the " + std::to_string(capacity) +
                      "-byte buffer posted for it (a receive never waited for)";
}

void Matcher::collect_leftovers(std::vector<ForcedDiscard>& discards, std::vector<std::string>& unreceived) {
  if (!leftover_error_.empty()) throw UsageError(leftover_error_);
  // Every message still waiting, in arrival order per key and by key across keys. Of one key, those that arrived
  // after the end while receives waited came before any that wait in a ring (its receives were used up first).
  std::vector<Message*> left;
  left.swap(after_end_);
  for (Message*& last : rings_)
    while (last != nullptr) left.push_back(pop_first(last));
  rings_.clear();
  free_rings_.clear();
  std::stable_sort(left.begin(), left.end(), [](const Message* a, const Message* b) {
    return std::tie(a->source, a->context, a->tag) < std::tie(b->source, b->context, b->tag);
  });
  for (Message* m : left) {
    if (forced_)
      discards.push_back({m->source, node_, m->tag, m->bytes, m->times().first_byte, std::nullopt});
    else
      unreceived.push_back("node " + std::to_string(node_) + " never received " + std::to_string(m->bytes) +
                           " bytes from node " + std::to_string(m->source) + " tag " + std::to_string(m->tag));
    unbuffer(m);
    Message::destroy(m);
  }
  empty_table();
}

void Matcher::clear() {
  for (std::uint32_t i = 0; i < groups_.size(); ++i)
    if (groups_[i]->live) free_group(i);
  active_.clear();
  for (Message*& last : rings_)
    while (last != nullptr) Message::destroy(pop_first(last));
  rings_.clear();
  free_rings_.clear();
  for (Message* m : after_end_) Message::destroy(m);
  after_end_.clear();
  leftover_error_.clear();
  empty_table();
  discards_.clear();
  messages_received_ = bytes_received_ = 0;
  last_arrival_match_ = Slot::kNoSlot;
}

// --- the table -------------------------------------------------------------------------------------------------

// A run's end empties the table and the next run's start (or the node's end) would empty it again: 16 KiB per node
// at d = 10, every line cold by then, read and written twice for nothing.
void Matcher::empty_table() {
  if (count_ == 0 && erased_ == 0) return;
  for (std::size_t e = 0; e < size_; ++e) table_[e] = Entry{};
  count_ = erased_ = 0;
}

std::size_t Matcher::locate(const MatchKey& key, std::uint32_t check, bool& found) const {
  std::size_t free = size_;  // the first tombstone on the way
  for (std::size_t i = home_of(check);; i = (i + 1) & (size_ - 1)) {
    const Entry& e = table_[i];
    if (e.head == kEmpty) {
      found = false;
      return free != size_ ? free : i;
    }
    if (e.head == kErased) {
      if (free == size_) free = i;
    } else if (e.check == check && key_of(e.head) == key) {
      found = true;
      return i;
    }
  }
}

std::size_t Matcher::find(const MatchKey& key) const {
  bool found = false;
  return locate(key, check_of(key), found);  // callers look up only keys with something waiting
}

void Matcher::take(std::size_t e, std::uint32_t check, std::uint32_t head) {
  if (table_[e].head == kErased) --erased_;
  table_[e] = Entry{check, head};
  ++count_;
}

// A tombstone rather than moving the entries behind it back, which would look at every entry up to the next empty
// one, cache lines that lookups would not otherwise touch. An entry whose successor on its cache line is empty ends
// no probe and becomes empty itself; reserve_one() clears the other tombstones.
void Matcher::erase(std::size_t i) {
  --count_;
  const bool ends_probes = ((i + 1) & 7) != 0 && table_[i + 1].head == kEmpty;
  table_[i] = Entry{};
  if (!ends_probes) {
    table_[i].head = kErased;
    ++erased_;
  }
}

void Matcher::reserve_one() {
  if (2 * (count_ + erased_ + 1) <= size_) return;
  const std::size_t old_size = size_;
  // Doubles when the entries in use fill a quarter of the table or more; otherwise the tombstones are the excess.
  const bool doubles = 4 * (count_ + 1) > size_;
  Entry* const old = table_;
  table_ = make_table(doubles ? 2 * size_ : size_);  // may throw: nothing changed yet
  if (doubles) {
    size_ *= 2;
    --shift_;
  }
  erased_ = 0;
  for (std::size_t e = 0; e < old_size; ++e) {
    if (!in_use(old[e])) continue;
    std::size_t i = home_of(old[e].check);
    while (table_[i].head != kEmpty) i = (i + 1) & (size_ - 1);
    table_[i] = old[e];
  }
  free_table(old, old_size);
}

}  // namespace hcemu::detail
