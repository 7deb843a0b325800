// Receives: posted alone or in groups, waited for, from any source; and the horizons a node waits for.
#include <algorithm>

#include "hcemu/errors.hpp"
#include "runtime/completion.hpp"
#include "runtime/message.hpp"
#include "runtime/node_core.hpp"
#include "runtime/pending.hpp"
#include "runtime/placer.hpp"
#include "runtime/recv_group.hpp"
#include "runtime/send_side.hpp"

namespace hcemu::detail {

Request Completion::post_recv(int source, std::span<std::byte> buffer, int tag) {
  core_.check_running();
  if (source != kAnySource) core_.check_peer(source, "recv");
  core_.maybe_yield();
  const Request r = core_.requests().add(Slot::Kind::recv);
  const std::uint32_t index = RequestAccess::slot(r);
  Slot& s = core_.requests().at(index);
  s.peer = source;
  s.tag = tag;
  s.context = core_.collective();
  s.bytes = buffer.size();
  s.recv.data = buffer.data();
  s.recv.posted = core_.clock().now();
  core_.drain();  // so that what has arrived meets this receive in arrival order
  if (source != kAnySource) core_.matcher().post(index);
  return r;
}

RecvGroup Completion::post_recvs(std::span<const int> sources, std::span<std::byte> buffer, std::size_t block,
                                 int tag) {
  core_.check_running();
  constexpr const char* op = "post_recvs";
  if (sources.size() >= 0x80000000u) throw UsageError(core_.where(op) + "more than 2^31 sources in one group");
  if (block > 0xffffffffu)
    throw UsageError(core_.where(op) + "blocks of " + std::to_string(block) +
                     " bytes: a group's blocks must be below 4 GiB");
  if (block > 0 && buffer.size() / block < sources.size())
    throw UsageError(core_.where(op) + "a buffer of " + std::to_string(buffer.size()) + " bytes for " +
                     std::to_string(sources.size()) + " blocks of " + std::to_string(block) + " bytes");
  for (int source : sources) {
    if (source == kNoSource) continue;
    if (source == kAnySource)
      throw UsageError(core_.where(op) + "a group cannot receive from any source (kAnySource): use post_recv");
    core_.check_peer(source, op);
  }
  core_.maybe_yield();
  core_.drain();  // so that what has arrived meets these receives in arrival order
  return core_.matcher().post_group(sources, buffer.data(), block, core_.collective(), tag, core_.clock().now(),
                                    core_.nodes(), core_.tracing(), op);
}

// Out of line, so that the messages' strings take no room in the frame of wait, which a node resumes through and
// whose lines the worker loads first (Fiber::prefetch_stack).
[[gnu::cold, gnu::noinline, noreturn]] void Completion::refuse_element(const RecvGroupState& g, std::size_t k,
                                                                        const char* operation) const {
  const std::string element = core_.where(operation) + "element " + std::to_string(k);
  if (k >= g.count) throw UsageError(element + " of a group of " + std::to_string(g.count) + " receives");
  if ((g.elements[k].flags & RecvGroupState::kNothing) != 0)
    throw UsageError(element + " of the group receives nothing (kNoSource)");
  throw UsageError(element + " of the group has completed already");
}

Status Completion::wait(RecvGroup& group, std::size_t k) {
  core_.check_running();
  RecvGroupState& g = core_.matcher().group(group, "wait");
  if (k >= g.count || (g.elements[k].flags & (RecvGroupState::kNothing | RecvGroupState::kDone)) != 0)
    refuse_element(g, k, "wait");
  const auto e = static_cast<std::uint32_t>(k);
  const Time before = core_.clock().now();
  if (!g.matched(e)) {
    core_.drain();
    if (!g.matched(e)) {
      const auto ready = [&] { return g.matched(e); };
      const auto describe = [&] { return BlockedOperation{core_.id(), "wait", g.elements[e].source, g.tag, {}}; };
      Wait w{ready, describe, {}, false, true};
      core_.hints().parking_on_element(g, e, sends_.hold_slot());
      core_.block_until(w);
      core_.hints().resumed();
    }
  }
  const Status status{g.elements[e].source, g.tag, g.elements[e].bytes, std::max(before, complete_element(g, e))};
  core_.advance_clock(status.completed);
  if (status.completed > before)
    core_.record_call("wait recv", before, status.completed, status.source, status.bytes, status.tag);
  core_.matcher().element_done(group, g, e);
  return status;
}

void Completion::wait_all(RecvGroup& group) {
  core_.check_running();
  if (!group.valid()) return;
  RecvGroupState& g = core_.matcher().group(group, "wait_all");
  if (g.unmatched > 0) {
    const auto ready = [&] { return g.unmatched == 0; };
    const auto describe = [&] {
      for (std::uint32_t k = 0; k < g.count; ++k)
        if ((g.elements[k].flags & (RecvGroupState::kMatched | RecvGroupState::kNothing)) == 0)
          return BlockedOperation{core_.id(), "wait_all", g.elements[k].source, g.tag, {}};
      return BlockedOperation{core_.id(), "wait_all", -1, g.tag, {}};
    };
    // Every element still unmatched needs a message of its own.
    const auto deliveries = [&] { return static_cast<std::uint64_t>(g.unmatched); };
    Wait w{ready, describe, deliveries, false, true};
    core_.block_until(w);
  }
  std::vector<std::uint32_t> left;
  left.reserve(g.unfinished);
  for (std::uint32_t k = 0; k < g.count; ++k)
    if ((g.elements[k].flags & (RecvGroupState::kDone | RecvGroupState::kNothing)) == 0) left.push_back(k);
  // docs/model.md §4, as wait_all on requests: arrivals take the input resource in order of arrival, ties by source.
  std::sort(left.begin(), left.end(), [&](std::uint32_t a, std::uint32_t b) {
    return timing::TimingModel::takes_input_before(g.arrival_times(a), g.elements[a].source, g.arrival_times(b),
                                                   g.elements[b].source);
  });
  const Time before = core_.clock().now();
  Time done = before;
  for (std::uint32_t k : left) done = std::max(done, complete_element(g, k));
  core_.advance_clock(done);
  if (done > before) core_.record_call("wait_all", before, done);
  for (std::uint32_t k : left) core_.matcher().element_done(group, g, k);  // the last frees the group
}

Time Completion::complete_element(const RecvGroupState& g, std::uint32_t k) {
  const RecvGroupState::Element& e = g.elements[k];
  return take_input(g.arrival_times(k), e.bytes, g.posted, (e.flags & RecvGroupState::kLate) != 0, e.source, g.tag,
                    g.messages != nullptr ? g.messages[k] : 0);
}

Time Completion::complete_receive(Slot& s) {
  return take_input(s.arrival_times(), s.bytes, s.recv.posted, s.late, s.peer, s.tag, s.recv.message);
}

Time Completion::take_input(const timing::TransferTimes& arrival, std::size_t bytes, Time posted, bool late,
                            int source, int tag, std::uint64_t message) {
  if (core_.ports().input_shares_output()) sends_.place_own_transfers();
  // A message that waited in the system buffer (in model time, whenever the host delivered it) is charged to the
  // arena here, where the node's own program takes it, so that the arena's high-water mark and exhaustion are the
  // same on every run (Arena::charge_waited).
  if (late) core_.arena().charge_waited(system_buffer_bytes(bytes));
  const Time completion = core_.context().timing.take_receive(core_.ports(), arrival, bytes, posted, late);
  // The trace's receive: from when the message reached the node (its first byte; later if the input resource was
  // still held by another message) to its completion, so that it never starts with its send (docs/traces.md).
  Time start = completion - arrival.input_hold;
  if (core_.tracing()) start = std::clamp(core_.matcher().take_first_byte(message, start), start, completion);
  core_.record("recv", start, completion, source, bytes, tag, message);
  return completion;
}

Time Completion::peek_receive(const Slot& s) const {
  return core_.context().timing.peek_receive(core_.ports(), s.arrival_times(), s.bytes, s.recv.posted, s.late);
}

// A receive from any source takes, among the first waiting message of every source, the one that completes first;
// ties by lower source id. Under FORCED a message that arrived before the receive was posted is lost to it.
Message* Completion::best_for_any_source(const Slot& r, Time* completion) {
  core_.matcher().discard_lost(r.context, r.tag, r.recv.posted);
  const timing::TimingModel& timing = core_.context().timing;
  Message* best = nullptr;
  Time best_time = kNever;
  core_.matcher().for_each_first_waiting(r.context, r.tag, [&](Message& m) {
    const auto outcome = timing.on_match(m.times(), r.recv.posted);
    if (outcome == timing::MatchOutcome::discard) return;
    const Time t = timing.peek_receive(core_.ports(), m.times(), m.bytes, r.recv.posted,
                                       outcome == timing::MatchOutcome::deliver_late);
    if (best == nullptr || t < best_time || (t == best_time && m.source < best->source)) best = &m, best_time = t;
  });
  if (completion != nullptr) *completion = best_time;
  return best;
}

// Which message a receive from any source takes must not depend on which sender's thread ran first: it is the one
// that completes first in model time. Once every transfer ready by the best known completion has been placed, no
// message still unknown can complete earlier (docs/model.md §7 places transfers by ready time), so the receive
// waits for that horizon, and asks again for an earlier one whenever a better message arrives meanwhile.
void Completion::resolve_any_source(std::uint32_t index, const char* operation) {
  const auto describe = [&] {
    return BlockedOperation{core_.id(), operation, -1, core_.requests().at(index).tag, "a receive from any source"};
  };
  Time asked = kNever;
  std::uint64_t ticket = 0;
  for (;;) {
    core_.drain();
    Time best_time = kNever;
    Message* best = best_for_any_source(core_.requests().at(index), &best_time);
    if (best != nullptr && (!core_.ordered() || (best_time == asked && horizons_.passed(ticket)))) {
      if (core_.matcher().take_for(index, best)) return;
      continue;  // a FORCED discard: look again
    }
    if (best != nullptr && best_time != asked) {
      asked = best_time;
      ticket = horizons_.request(best_time);
    }
    const auto ready = [&] {
      Time t = kNever;
      return best_for_any_source(core_.requests().at(index), &t) != nullptr && (t != asked || horizons_.passed(ticket));
    };
    Wait w{ready, describe, {}, false, true};
    core_.block_until(w);
  }
}

std::uint64_t Horizons::request(Time t) {
  Pending* p = nullptr;
  for (auto& r : requests_)
    if (!r->queued.load(std::memory_order_acquire)) p = r.get();
  if (p == nullptr) {
    requests_.push_back(std::make_unique<Pending>());
    p = requests_.back().get();
    p->kind = Pending::Kind::horizon;
    p->owner = core_.id();
  }
  p->ticket = ++ticket_;
  p->key = timing::OrderKey::after(t);
  p->queued.store(true, std::memory_order_relaxed);
  core_.context().placer.submit(p);
  return p->ticket;
}

bool Horizons::passed(std::uint64_t ticket) const { return core_.parking().horizon_passed(ticket); }

}  // namespace hcemu::detail
