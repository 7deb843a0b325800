#include "runtime/matcher.hpp"

#include <cstring>

#include "hcemu/errors.hpp"

namespace hcemu::detail {

namespace {
// What a message waiting in the system buffer costs the node's memory: its bytes and the emulator's header.
std::size_t buffered_size(const Message& m) { return sizeof(Message) + m.bytes; }
}  // namespace

Matcher::Matcher(int node, const timing::TimingModel& timing, RequestTable& requests, Arena& arena, bool forced)
    : node_(node), timing_(timing), requests_(requests), arena_(arena), forced_(forced), table_(16) {}

void Matcher::arrive(Message* m) {
  const std::size_t e = find_or_insert(MatchKey{m->source, m->context, m->tag});
  Entry& entry = table_[e];
  (entry.last_message != nullptr ? entry.last_message->match_next : entry.first_message) = m;
  entry.last_message = m;
  m->match_next = nullptr;
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
    if (entry.first_receive == Slot::kNoSlot || entry.first_message == nullptr) break;
    Slot& r = requests_.at(entry.first_receive);
    Message* m = entry.first_message;
    entry.first_message = m->match_next;
    if (entry.first_message == nullptr) entry.last_message = nullptr;
    unbuffer(m);
    if (!meet(m, r)) continue;  // discarded: the receive waits for a later message
    entry.first_receive = r.next_receive;
    if (entry.first_receive == Slot::kNoSlot) entry.last_receive = Slot::kNoSlot;
  }
  const Entry& entry = table_[e];
  if (entry.first_receive == Slot::kNoSlot && entry.first_message == nullptr) erase(e);
}

bool Matcher::meet(Message* m, Slot& r) {
  const timing::MatchOutcome outcome = timing_.on_match(m->times(), r.posted);
  if (outcome == timing::MatchOutcome::discard) {
    // The iPSC/860 rule: the message arrived before its receive was posted and is lost.
    discards_.push_back({m->source, node_, m->tag, m->bytes, m->times().first_byte, r.posted});
    Message::destroy(m);
    return false;
  }
  if (m->bytes > r.buffer.size()) {
    const std::string what = "node " + std::to_string(node_) + ": recv: message of " + std::to_string(m->bytes) +
                             " bytes from node " + std::to_string(m->source) + " tag " + std::to_string(m->tag) +
                             " is longer than the " + std::to_string(r.buffer.size()) +
                             "-byte buffer posted for it";
    Message::destroy(m);
    throw UsageError(what);
  }
  if (outcome == timing::MatchOutcome::deliver_late) {
    // It waited in the system buffer in model time, even if the host delivered it after the receive was posted.
    arena_.charge(buffered_size(*m));
    arena_.release(buffered_size(*m));
  }
  if (m->bytes > 0) std::memcpy(r.buffer.data(), m->payload(), m->bytes);
  r.matched = true;
  r.late = outcome == timing::MatchOutcome::deliver_late;
  r.bytes = m->bytes;
  r.source = m->source;
  r.message = m->number();
  r.times = m->times();
  ++messages_received_;
  bytes_received_ += m->bytes;
  Message::destroy(m);
  return true;
}

bool Matcher::take_for(std::uint32_t index, Message* m) {
  const std::size_t e = find(MatchKey{m->source, m->context, m->tag});
  Entry& entry = table_[e];  // m is the first waiting message of its key
  entry.first_message = m->match_next;
  if (entry.first_message == nullptr) entry.last_message = nullptr;
  if (entry.first_receive == Slot::kNoSlot && entry.first_message == nullptr) erase(e);
  unbuffer(m);
  return meet(m, requests_.at(index));
}

void Matcher::discard_lost(std::uint32_t context, int tag, Time posted) {
  if (!forced_) return;
  for (std::size_t e = 0; e < table_.size(); ++e) {
    Entry& entry = table_[e];
    if (entry.key.source == kEmpty || entry.key.context != context || entry.key.tag != tag) continue;
    while (entry.first_message != nullptr &&
           timing_.on_match(entry.first_message->times(), posted) == timing::MatchOutcome::discard) {
      Message* m = entry.first_message;
      entry.first_message = m->match_next;
      if (entry.first_message == nullptr) entry.last_message = nullptr;
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
  Entry& entry = table_[find_or_insert(MatchKey{m->source, m->context, m->tag})];
  (entry.last_message != nullptr ? entry.last_message->match_next : entry.first_message) = m;
  entry.last_message = m;
  m->match_next = nullptr;
}

void Matcher::collect_leftovers(std::vector<ForcedDiscard>& discards, std::vector<std::string>& unreceived) {
  for (Entry& entry : table_) {
    if (entry.key.source == kEmpty) continue;
    // The messages that the receives still posted would have taken, in order: only their lengths are looked at.
    Message* waiting = entry.first_message;
    for (std::uint32_t r = entry.first_receive; r != Slot::kNoSlot && waiting != nullptr; waiting = waiting->match_next) {
      const Slot& receive = requests_.at(r);
      if (timing_.on_match(waiting->times(), receive.posted) == timing::MatchOutcome::discard) continue;
      if (waiting->bytes > receive.buffer.size())
        throw UsageError("node " + std::to_string(node_) + ": recv: message of " + std::to_string(waiting->bytes) +
                         " bytes from node " + std::to_string(waiting->source) + " tag " + std::to_string(waiting->tag) +
                         " is longer than the " + std::to_string(receive.buffer.size()) +
                         "-byte buffer posted for it (a receive never waited for)");
      r = receive.next_receive;
    }
    for (Message* m = entry.first_message; m != nullptr;) {
      Message* next = m->match_next;
      if (forced_)
        discards.push_back({m->source, node_, m->tag, m->bytes, m->times().first_byte, std::nullopt});
      else
        unreceived.push_back("node " + std::to_string(node_) + " never received " + std::to_string(m->bytes) +
                             " bytes from node " + std::to_string(m->source) + " tag " + std::to_string(m->tag));
      unbuffer(m);
      Message::destroy(m);
      m = next;
    }
    entry.first_message = entry.last_message = nullptr;
  }
}

void Matcher::clear() {
  for (Entry& entry : table_) {
    for (Message* m = entry.first_message; m != nullptr;) {
      Message* next = m->match_next;
      Message::destroy(m);
      m = next;
    }
    entry = Entry{};
  }
  count_ = 0;
  discards_.clear();
  messages_received_ = bytes_received_ = 0;
}

// --- the table -------------------------------------------------------------------------------------------------

std::size_t Matcher::home(const MatchKey& key) const {
  // splitmix64's finaliser: every input bit moves every output bit, so consecutive sources spread out.
  std::uint64_t h = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(key.source)) << 32) ^
                    static_cast<std::uint32_t>(key.tag) ^ (static_cast<std::uint64_t>(key.context) << 48);
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  h ^= h >> 31;
  return static_cast<std::size_t>(h) & (table_.size() - 1);
}

std::size_t Matcher::find(const MatchKey& key) const {
  for (std::size_t i = home(key);; i = (i + 1) & (table_.size() - 1)) {
    if (table_[i].key == key) return i;
    if (table_[i].key.source == kEmpty) return table_.size();
  }
}

std::size_t Matcher::find_or_insert(const MatchKey& key) {
  if (2 * (count_ + 1) > table_.size()) grow();
  for (std::size_t i = home(key);; i = (i + 1) & (table_.size() - 1)) {
    if (table_[i].key == key) return i;
    if (table_[i].key.source == kEmpty) {
      table_[i] = Entry{};
      table_[i].key = key;
      ++count_;
      return i;
    }
  }
}

void Matcher::erase(std::size_t i) {
  const std::size_t mask = table_.size() - 1;
  for (std::size_t j = (i + 1) & mask; table_[j].key.source != kEmpty; j = (j + 1) & mask) {
    const std::size_t h = home(table_[j].key);
    // Move entry j back into the hole at i if its home does not lie cyclically in (i, j].
    const bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
    if (!stays) {
      table_[i] = table_[j];
      i = j;
    }
  }
  table_[i] = Entry{};
  --count_;
}

void Matcher::grow() {
  std::vector<Entry, Allocator<Entry>> old(table_.size() * 2);
  old.swap(table_);
  for (const Entry& e : old) {
    if (e.key.source == kEmpty) continue;
    std::size_t i = home(e.key);
    while (table_[i].key.source != kEmpty) i = (i + 1) & (table_.size() - 1);
    table_[i] = e;
  }
}

}  // namespace hcemu::detail
