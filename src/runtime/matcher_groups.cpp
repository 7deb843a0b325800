// Receives posted together (Node::post_recvs): making a group, its elements meeting their messages, its end.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "hcemu/errors.hpp"
#include "runtime/matcher.hpp"

namespace hcemu::detail {

bool Matcher::meet_element(Message* m, RecvGroupState& g, std::uint32_t k) {
  bool late = false;
  if (!accept(m, g.posted, g.data(k), g.block, late)) return false;
  g.elements[k].flags |= RecvGroupState::kMatched | (late ? RecvGroupState::kLate : 0);
  g.elements[k].bytes = static_cast<std::uint32_t>(m->bytes);  // at most the block, kept below 2^32 by post_recvs
  g.elements[k].port = static_cast<std::uint8_t>(m->times().in_port);
  g.elements[k].arrival = m->times().arrival;
  g.elements[k].input_hold = m->times().input_hold;
  if (g.messages != nullptr) g.messages[k] = m->number();
  Message::destroy(m);
  if (--g.unmatched == 0) active_.erase(std::find(active_.begin(), active_.end(), &g));
  return true;
}

RecvGroup Matcher::post_group(std::span<const int> sources, std::byte* buffer, std::size_t block,
                              std::uint32_t context, int tag, Time posted, int nodes, bool trace,
                              const char* operation) {
  if (sources.empty()) return RecvGroup{};
  active_.reserve(active_.size() + 1);  // so that nothing below throws once messages have met elements
  if (free_groups_.empty()) {  // a state for it, before its block: a failure leaves only an unused state behind
    free_groups_.reserve(groups_.size() + 1);
    groups_.push_back(std::make_unique<RecvGroupState>());
    free_groups_.push_back(static_cast<std::uint32_t>(groups_.size() - 1));
  }
  RecvGroupState g = lay_out_group(sources, nodes, trace);
  const auto refuse = [&](const std::string& why) {
    free_block(g.memory, g.memory_bytes);
    throw UsageError("node " + std::to_string(node_) + ": " + operation + ": " + why);
  };
  if (const int repeated = repeated_source(g, nodes); repeated >= 0)
    refuse("node " + std::to_string(repeated) + " is named twice among the sources");
  if (const int earlier = earlier_receive(g, context, tag); earlier >= 0)  // it must meet its message first
    refuse("a receive from node " + std::to_string(earlier) + " with tag " + std::to_string(tag) +
           " posted earlier is still waiting for its message");

  const std::uint32_t index = free_groups_.back();
  free_groups_.pop_back();
  RecvGroupState& state = *groups_[index];
  g.index = index;
  g.generation = state.generation;
  g.live = true;
  g.context = context;
  g.tag = tag;
  g.posted = posted;
  g.buffer = buffer;
  g.block = block;
  g.unmatched = g.unfinished = g.receives;
  state = g;
  if (state.receives == 0) {  // nothing to wait for: the group is over as soon as it is made
    free_group(index);
    return RecvGroup{};
  }
  active_.push_back(&state);
  if (count_ > 0)
    for (std::uint32_t k = 0; k < state.count && state.unmatched > 0; ++k)
      if (state.elements[k].source != kNoSource) take_waiting(state, k);
  return RequestAccess::make_group(index, state.generation);
}

// One block for the elements, the lookup by source (a table over every node when the group holds a quarter of them
// or more: 4 bytes per node) and the trace's message numbers; the elements filled in.
RecvGroupState Matcher::lay_out_group(std::span<const int> sources, int nodes, bool trace) {
  const auto count = static_cast<std::uint32_t>(sources.size());  // the caller keeps it below 2^31
  const bool dense = 4 * sources.size() >= static_cast<std::size_t>(nodes);
  const auto lines = [](std::size_t bytes) { return (bytes + 63) & ~std::size_t{63}; };
  const std::size_t elements_bytes = lines(count * sizeof(RecvGroupState::Element));
  const std::size_t lookup_bytes = lines(dense ? static_cast<std::size_t>(nodes) * 4 : std::size_t{count} * 8);
  const std::size_t messages_bytes = trace ? lines(std::size_t{count} * 8) : 0;
  RecvGroupState g;
  g.memory_bytes = elements_bytes + lookup_bytes + messages_bytes;
  g.memory = allocate_block(g.memory_bytes);
  g.count = count;
  auto* at = static_cast<std::byte*>(g.memory);
  g.elements = reinterpret_cast<RecvGroupState::Element*>(at);
  if (dense)
    g.index_of = reinterpret_cast<std::uint32_t*>(at + elements_bytes);
  else
    g.sorted = reinterpret_cast<std::uint64_t*>(at + elements_bytes);
  if (trace) g.messages = reinterpret_cast<std::uint64_t*>(at + elements_bytes + lookup_bytes);
  for (std::uint32_t k = 0; k < count; ++k) {
    const bool nothing = sources[k] == kNoSource;
    g.elements[k] = RecvGroupState::Element{};
    g.elements[k].source = sources[k];
    g.elements[k].flags = nothing ? RecvGroupState::kNothing : 0;
    g.receives += nothing ? 0 : 1;
  }
  return g;
}

// Fills in the lookup by source; returns a source named twice (-1: none).
int Matcher::repeated_source(RecvGroupState& g, int nodes) {
  int repeated = -1;
  if (g.index_of != nullptr) {
    std::memset(g.index_of, 0xff, static_cast<std::size_t>(nodes) * 4);
    for (std::uint32_t k = 0; k < g.count && repeated < 0; ++k) {
      if (g.elements[k].source == kNoSource) continue;
      std::uint32_t& slot = g.index_of[g.elements[k].source];
      if (slot != RecvGroupState::kNone) repeated = g.elements[k].source;
      slot = k;
    }
    return repeated;
  }
  std::uint64_t* end = g.sorted;
  for (std::uint32_t k = 0; k < g.count; ++k)
    if (g.elements[k].source != kNoSource)
      *end++ = static_cast<std::uint64_t>(static_cast<std::uint32_t>(g.elements[k].source)) << 32 | k;
  std::sort(g.sorted, end);
  for (std::uint32_t k = 1; k < g.receives && repeated < 0; ++k)
    if ((g.sorted[k] >> 32) == (g.sorted[k - 1] >> 32)) repeated = static_cast<int>(g.sorted[k] >> 32);
  return repeated;
}

// A source of the group from which a receive posted earlier for this context and tag still waits (-1: none).
int Matcher::earlier_receive(const RecvGroupState& g, std::uint32_t context, int tag) const {
  if (count_ == 0) return -1;
  for (std::uint32_t k = 0; k < g.count; ++k) {
    if (g.elements[k].source == kNoSource) continue;
    const MatchKey key{g.elements[k].source, context, tag};
    bool found = false;
    const std::size_t e = locate(key, check_of(key), found);
    if (found && !is_ring(table_[e].head)) return key.source;
  }
  return -1;
}

void Matcher::take_waiting(RecvGroupState& g, std::uint32_t k) {
  const MatchKey key{g.elements[k].source, g.context, g.tag};
  bool found = false;
  const std::size_t e = locate(key, check_of(key), found);
  if (!found) return;
  for (;;) {  // the first that is not discarded meets the element
    Message*& last = ring(table_[e]);
    Message* m = pop_first(last);
    const bool emptied = last == nullptr;
    if (emptied) {
      free_ring(table_[e].head);
      erase(e);
    }
    unbuffer(m);
    if (meet_element(m, g, k) || emptied) return;
  }
}

RecvGroupState& Matcher::group(const RecvGroup& h, const char* operation) {
  const std::uint32_t index = RequestAccess::index(h);
  if (index >= groups_.size() || !groups_[index]->live || groups_[index]->generation != RequestAccess::generation(h))
    throw UsageError("node " + std::to_string(node_) + ": " + operation +
                     ": the group of receives is not pending (never posted, or every element already completed)");
  return *groups_[index];
}

void Matcher::element_done(RecvGroup& h, RecvGroupState& g, std::uint32_t k) {
  g.elements[k].flags |= RecvGroupState::kDone;
  if (--g.unfinished > 0) return;
  free_group(RequestAccess::index(h));
  h = RecvGroup{};
}

void Matcher::free_group(std::uint32_t index) {
  RecvGroupState& g = *groups_[index];
  if (g.unmatched > 0) active_.erase(std::find(active_.begin(), active_.end(), &g));
  free_block(g.memory, g.memory_bytes);
  const std::uint32_t generation = g.generation + 1;
  g = RecvGroupState{};
  g.generation = generation;
  free_groups_.push_back(index);  // room reserved when it was made
}

}  // namespace hcemu::detail
