#include "runtime/host_hints.hpp"

#include <algorithm>

#include "runtime/inbox.hpp"
#include "runtime/matcher.hpp"
#include "runtime/recv_group.hpp"
#include "runtime/requests.hpp"

namespace hcemu::detail {

HostHints::HostHints(int node, int nodes, const RequestTable& requests, const Matcher& matcher, const Inbox& inbox)
    : node_(node), nodes_(nodes), requests_(requests), matcher_(matcher), inbox_(inbox) {}

std::atomic<std::ptrdiff_t> HostHints::line_offset_[kLines] = {};
std::atomic<std::ptrdiff_t> HostHints::first_line_{0};
std::atomic<int> HostHints::run_lines_{0};

void HostHints::keep_warm(const void* object, std::size_t bytes) {
  const auto self = reinterpret_cast<std::uintptr_t>(this);
  const auto first = reinterpret_cast<std::uintptr_t>(object) & ~(kLine - 1);
  const std::uintptr_t end = reinterpret_cast<std::uintptr_t>(object) + std::min(bytes, kMostBytes);
  for (std::uintptr_t line = first; line < end && lines_ < kLines; line += kLine) {
    const auto offset = static_cast<std::ptrdiff_t>(line - self);
    bool known = false;
    for (int i = 0; i < lines_ && !known; ++i) known = line_offset_[i].load(std::memory_order_relaxed) == offset;
    if (!known) line_offset_[lines_++].store(offset, std::memory_order_relaxed);
  }
  // Stage 0 loads every line from the first registered to the last: the parts lie together at the head of the node
  // object (node_core.cpp), so the run has few gaps, and one run costs no load per line.
  std::ptrdiff_t lowest = line_offset_[0].load(std::memory_order_relaxed), highest = lowest;
  for (int i = 1; i < lines_; ++i) {
    lowest = std::min(lowest, line_offset_[i].load(std::memory_order_relaxed));
    highest = std::max(highest, line_offset_[i].load(std::memory_order_relaxed));
  }
  first_line_.store(lowest, std::memory_order_relaxed);
  run_lines_.store(lines_ == 0 ? 0 : static_cast<int>((highest - lowest) / static_cast<std::ptrdiff_t>(kLine)) + 1,
                   std::memory_order_relaxed);
}

void HostHints::start_run() {
  resumed();
  learnt_ = Learnt{};
}

void HostHints::warm(int stage) const {
  if (stage == 0) {
    // The hot objects' first lines, the hints' own among them: what a resume reads (the parts' small fields, the
    // heads of their tables, what sends teach, the hints stage 1 reads).
    // Four lines a turn: a run is a dozen lines or more, and every resume warms one.
    const char* line = reinterpret_cast<const char*>(this) + first_line_.load(std::memory_order_relaxed);
    int lines = run_lines_.load(std::memory_order_relaxed);
    for (; lines >= 4; lines -= 4, line += 4 * kLine) {
      __builtin_prefetch(line, 1);
      __builtin_prefetch(line + kLine, 1);
      __builtin_prefetch(line + 2 * kLine, 1);
      __builtin_prefetch(line + 3 * kLine, 1);
    }
    for (; lines > 0; --lines, line += kLine) __builtin_prefetch(line, 1);
    return;
  }
  inbox_.prefetch();
  const int n = count_.load(std::memory_order_relaxed);
  for (int i = 0; i < n; ++i) __builtin_prefetch(hints_[i].load(std::memory_order_relaxed), 1);
}

void HostHints::next_arrival(int peer, int tag, std::uint32_t context, Writer& h) const {
  std::uint32_t k = 0;
  if (peer >= 0)
    if (const RecvGroupState* g = matcher_.waiting_group(peer, context, tag, k)) {
      h.put(&g->elements[k]);
      h.put(g->data(k));
      h.put(g->lookup_address(peer));
      h.put(g);
      h.put(matcher_.active_address());
      h.put(matcher_.entry_address(*g));
      return;
    }
  const std::uint32_t last = matcher_.last_arrival_match();
  if (last == Slot::kNoSlot || last + 1 >= requests_.size()) return;
  const std::uint32_t index = last + 1;
  const Slot& s = requests_.at(index);
  if (s.kind != Slot::Kind::recv || s.matched || s.peer == kAnySource) return;
  h.put(&s);
  h.put(requests_.chunk_entry(index));
  h.put(s.recv.data);
  h.put(matcher_.home_address(MatchKey{s.peer, s.context, s.tag}));
  if (index + 1 < requests_.size()) h.put(&requests_.at(index + 1));
}

void HostHints::parking_to_send(int peer, int tag, std::uint32_t context, const void* data, std::uint32_t hold_slot) {
  // What the send copies first once it goes on, and a message that may come meanwhile for a receive posted ahead.
  Writer h(*this);
  h.put(data);
  hold_lines(hold_slot, h);
  next_free_line(h);
  next_arrival(peer, tag, context, h);
}

void HostHints::parking_on_receive(std::uint32_t index, std::uint32_t hold_slot) {
  // The slot and where the table finds it, the buffer, the matching entry, the slots beside it (a kernel that posted
  // its receives together waits for them in turn), the slot of its last send, and the next partner's block.
  const Slot& s = requests_.at(index);
  Writer h(*this);
  h.put(&s);
  h.put(requests_.chunk_entry(index));
  h.put(s.recv.data);
  h.put(matcher_.home_address(MatchKey{s.peer, s.context, s.tag}));
  if (index + 1 < requests_.size()) h.put(&requests_.at(index + 1));
  if (index > 0) h.put(&requests_.at(index - 1));
  h.put(block_of(next_partner()));
  if (hold_slot != index) hold_lines(hold_slot, h);
  next_free_line(h);
}

void HostHints::parking_on_element(const RecvGroupState& g, std::uint32_t e, std::uint32_t hold_slot) {
  // What the arrival and the completion touch first (the list of waiting groups, the group's own line, its lookup by
  // source, the element and its block), where the handle finds the group, the slot of the last send, and the next
  // step's: its partner's block, where the group looks that partner up, and the element it waits on then. That is
  // the partner's own element in a group posted by source (element k from node k, as this one is), else the one
  // after this (a kernel that waits in the order it posted). Addresses only: a hint that loaded the lookup to find
  // the next partner's element would wait for that line itself.
  const int source = g.elements[e].source;
  Writer h(*this);
  h.put(&g.elements[e]);
  h.put(g.data(e));
  h.put(g.lookup_address(source));
  h.put(&g);
  h.put(matcher_.entry_address(g));
  h.put(matcher_.active_address());
  hold_lines(hold_slot, h);
  const int next = next_partner();
  if (next >= 0) {
    h.put(block_of(next));
    h.put(g.lookup_address(next));
  }
  const std::uint32_t k = next >= 0 && source == static_cast<int>(e) ? static_cast<std::uint32_t>(next) : e + 1;
  if (k < g.count) h.put(&g.elements[k]);
  next_free_line(h);
}

}  // namespace hcemu::detail
