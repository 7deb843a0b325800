#include "runtime/matcher.hpp"

#include <cstring>
#include <memory>
#include <new>

#include "hcemu/errors.hpp"

namespace hcemu::detail {

namespace {
// What a message waiting in the system buffer costs the node's memory: its bytes and the emulator's header.
std::size_t buffered_size(const Message& m) { return sizeof(Message) + m.bytes; }
}  // namespace

Matcher::Matcher(int node, const timing::TimingModel& timing, RequestTable& requests, Arena& arena, bool forced)
    : node_(node),
      timing_(timing),
      requests_(requests),
      arena_(arena),
      forced_(forced),
      table_(make_table(16)),
      size_(16),
      shift_(64 - 4) {}

std::unique_ptr<Matcher::Entry[], Matcher::FreeTable> Matcher::make_table(std::size_t size) {
  void* memory = allocate_aligned(size * sizeof(Entry), 64);
  if (memory == nullptr) throw std::bad_alloc();
  Entry* table = static_cast<Entry*>(memory);
  std::uninitialized_default_construct_n(table, size);
  return std::unique_ptr<Entry[], FreeTable>(table);
}

void Matcher::append(Entry& entry, Message* m) {
  if (entry.last_message == nullptr) {
    m->match_next = m;
  } else {
    m->match_next = entry.last_message->match_next;
    entry.last_message->match_next = m;
  }
  entry.last_message = m;
}

Message* Matcher::pop_first(Entry& entry) {
  Message* m = entry.last_message->match_next;
  if (m == entry.last_message)
    entry.last_message = nullptr;
  else
    entry.last_message->match_next = m->match_next;
  m->match_next = nullptr;
  return m;
}

void Matcher::arrive(Message* m) {
  const std::size_t e = find_or_insert(MatchKey{m->source, m->context, m->tag});
  Entry& entry = table_[e];
  append(entry, m);
  if (entry.first_receive == Slot::kNoSlot) {
    buffer(m);  // nobody waits for it yet
    return;
  }
  match(e);
}

void Matcher::post(std::uint32_t index) {
  Slot& r = requests_.at(index);
  const std::size_t e = find_or_insert(MatchKey{r.peer, r.context, r.tag});
  Entry& entry = table_[e];
  (entry.last_receive != Slot::kNoSlot ? requests_.at(entry.last_receive).next_receive : entry.first_receive) = index;
  entry.last_receive = index;
  r.next_receive = Slot::kNoSlot;
  match(e);
}

void Matcher::match(std::size_t e) {
  for (;;) {
    Entry& entry = table_[e];
    if (entry.first_receive == Slot::kNoSlot || entry.last_message == nullptr) break;
    Slot& r = requests_.at(entry.first_receive);
    Message* m = pop_first(entry);
    unbuffer(m);
    if (!meet(m, r)) continue;  // discarded: the receive waits for a later message
    entry.first_receive = r.next_receive;
    if (entry.first_receive == Slot::kNoSlot) entry.last_receive = Slot::kNoSlot;
  }
  const Entry& entry = table_[e];
  if (entry.first_receive == Slot::kNoSlot && entry.last_message == nullptr) erase(e);
}

bool Matcher::meet(Message* m, Slot& r) {
  const timing::MatchOutcome outcome = timing_.on_match(m->times(), r.recv.posted);
  if (outcome == timing::MatchOutcome::discard) {
    // The iPSC/860 rule: the message arrived before its receive was posted and is lost.
    discards_.push_back({m->source, node_, m->tag, m->bytes, m->times().first_byte, r.recv.posted});
    Message::destroy(m);
    return false;
  }
  if (m->bytes > r.bytes) {
    const std::string what = "node " + std::to_string(node_) + ": recv: message of " + std::to_string(m->bytes) +
                             " bytes from node " + std::to_string(m->source) + " tag " + std::to_string(m->tag) +
                             " is longer than the " + std::to_string(r.bytes) + "-byte buffer posted for it";
    Message::destroy(m);
    throw UsageError(what);
  }
  if (outcome == timing::MatchOutcome::deliver_late) {
    // It waited in the system buffer in model time, even if the host delivered it after the receive was posted.
    arena_.charge(buffered_size(*m));
    arena_.release(buffered_size(*m));
  }
  if (m->bytes > 0) std::memcpy(r.recv.data, m->payload(), m->bytes);
  r.matched = true;
  r.late = outcome == timing::MatchOutcome::deliver_late;
  r.bytes = m->bytes;
  r.peer = m->source;
  r.in_port = static_cast<std::uint8_t>(m->times().in_port);
  r.recv.message = m->number();
  r.recv.arrival = m->times().arrival;
  r.recv.input_hold = m->times().input_hold;
  ++messages_received_;
  bytes_received_ += m->bytes;
  Message::destroy(m);
  return true;
}

bool Matcher::take_for(std::uint32_t index, Message* m) {
  const std::size_t e = find(MatchKey{m->source, m->context, m->tag});
  Entry& entry = table_[e];  // m is the first waiting message of its key
  pop_first(entry);
  if (entry.first_receive == Slot::kNoSlot && entry.last_message == nullptr) erase(e);
  unbuffer(m);
  return meet(m, requests_.at(index));
}

void Matcher::discard_lost(std::uint32_t context, int tag, Time posted) {
  if (!forced_) return;
  for (std::size_t e = 0; e < size_; ++e) {
    Entry& entry = table_[e];
    if (!in_use(entry) || entry.key.context != context || entry.key.tag != tag) continue;
    while (entry.last_message != nullptr &&
           timing_.on_match(entry.first_message()->times(), posted) == timing::MatchOutcome::discard) {
      Message* m = pop_first(entry);
      discards_.push_back({m->source, node_, m->tag, m->bytes, m->times().first_byte, posted});
      Message::destroy(m);
    }
    // An emptied entry stays until a later post or arrival of its key removes it: erasing here would move entries
    // under this loop.
  }
}

void Matcher::buffer(Message* m) {
  if (forced_) return;
  arena_.charge(buffered_size(*m));  // UNFORCED: the system buffer is the node's memory
  m->buffered = true;
}

void Matcher::unbuffer(Message* m) {
  if (!m->buffered) return;
  arena_.release(buffered_size(*m));
  m->buffered = false;
}

void Matcher::arrive_after_end(Message* m) {
  append(table_[find_or_insert(MatchKey{m->source, m->context, m->tag})], m);
}

void Matcher::collect_leftovers(std::vector<ForcedDiscard>& discards, std::vector<std::string>& unreceived) {
  for (std::size_t e = 0; e < size_; ++e) {
    Entry& entry = table_[e];
    if (!in_use(entry) || entry.last_message == nullptr) continue;
    // The messages that the receives still posted would have taken, in order: only their lengths are looked at.
    Message* waiting = entry.first_message();
    for (std::uint32_t r = entry.first_receive; r != Slot::kNoSlot && waiting != nullptr;
         waiting = waiting != entry.last_message ? waiting->match_next : nullptr) {
      const Slot& receive = requests_.at(r);
      if (timing_.on_match(waiting->times(), receive.recv.posted) == timing::MatchOutcome::discard) continue;
      if (waiting->bytes > receive.bytes)
        throw UsageError("node " + std::to_string(node_) + ": recv: message of " + std::to_string(waiting->bytes) +
                         " bytes from node " + std::to_string(waiting->source) + " tag " +
                         std::to_string(waiting->tag) + " is longer than the " + std::to_string(receive.bytes) +
                         "-byte buffer posted for it (a receive never waited for)");
      r = receive.next_receive;
    }
    while (entry.last_message != nullptr) {
      Message* m = pop_first(entry);
      if (forced_)
        discards.push_back({m->source, node_, m->tag, m->bytes, m->times().first_byte, std::nullopt});
      else
        unreceived.push_back("node " + std::to_string(node_) + " never received " + std::to_string(m->bytes) +
                             " bytes from node " + std::to_string(m->source) + " tag " + std::to_string(m->tag));
      unbuffer(m);
      Message::destroy(m);
    }
  }
}

void Matcher::clear() {
  for (std::size_t e = 0; e < size_; ++e) {
    Entry& entry = table_[e];
    while (entry.last_message != nullptr) Message::destroy(pop_first(entry));
    entry = Entry{};
  }
  count_ = erased_ = 0;
  discards_.clear();
  messages_received_ = bytes_received_ = 0;
}

// --- the table -------------------------------------------------------------------------------------------------

std::size_t Matcher::find(const MatchKey& key) const {
  for (std::size_t i = home(key);; i = (i + 1) & (size_ - 1)) {
    if (table_[i].key == key) return i;
    if (table_[i].key.source == kEmpty) return size_;
  }
}

std::size_t Matcher::find_or_insert(const MatchKey& key) {
  if (2 * (count_ + erased_ + 1) > size_) grow();
  std::size_t free = size_;  // the first tombstone on the way
  for (std::size_t i = home(key);; i = (i + 1) & (size_ - 1)) {
    if (table_[i].key == key) return i;
    if (table_[i].key.source == kErased) {
      if (free == size_) free = i;
    } else if (table_[i].key.source == kEmpty) {
      if (free != size_) {
        i = free;
        --erased_;
      }
      table_[i] = Entry{};
      table_[i].key = key;
      ++count_;
      return i;
    }
  }
}

// A tombstone rather than moving the entries behind it back, which would look at every entry up to the next empty
// slot, cache lines that lookups would not otherwise touch. An entry whose successor shares its cache line and is
// empty ends no probe and becomes empty itself; grow() clears the other tombstones.
void Matcher::erase(std::size_t i) {
  --count_;
  const bool ends_probes = (i & 1) == 0 && table_[i + 1].key.source == kEmpty;
  table_[i] = Entry{};
  if (!ends_probes) {
    table_[i].key.source = kErased;
    ++erased_;
  }
}

void Matcher::grow() {
  const std::size_t old_size = size_;
  // Doubles when the entries in use fill a quarter of the table or more; otherwise the tombstones are the excess.
  const bool doubles = 4 * (count_ + 1) > size_;
  std::unique_ptr<Entry[], FreeTable> old = make_table(doubles ? 2 * size_ : size_);  // may throw: nothing changed yet
  old.swap(table_);
  if (doubles) {
    size_ *= 2;
    --shift_;
  }
  erased_ = 0;
  for (std::size_t e = 0; e < old_size; ++e) {
    if (!in_use(old[e])) continue;
    std::size_t i = home(old[e].key);
    while (table_[i].key.source != kEmpty) i = (i + 1) & (size_ - 1);
    table_[i] = old[e];
  }
}

}  // namespace hcemu::detail
