#include "runtime/send_side.hpp"

#include <algorithm>
#include <memory>

#include "hcemu/errors.hpp"
#include "runtime/message.hpp"
#include "runtime/node_core.hpp"
#include "runtime/placer.hpp"

namespace hcemu::detail {

void SendSide::start_run() {
  ways_ = {};
  issued_ = 0;
  hold_slot_ = Slot::kNoSlot;
  latest_posted_send_ = Slot::kNoSlot;
  messages_sent_ = bytes_sent_ = 0;
  posted_sends_.clear();
  first_posted_send_ = 0;
  posted_sends_done_ = 0;
}

Request SendSide::isend(int dest, std::span<const std::byte> data, int tag) {
  core_.check_running();
  core_.check_peer(dest, "send");
  const NodeContext& run = core_.context();
  if (data.size() > run.settings.arena_bytes)
    throw UsageError(core_.where("send") + "a message of " + std::to_string(data.size()) +
                     " bytes cannot be received by any node: arenas hold " + std::to_string(run.settings.arena_bytes) +
                     " bytes");
  core_.maybe_yield();
  // docs/model.md §4: the transfer starts when the output resource is free, so the node's earlier transfers
  // must have been placed (with `all` ports there is no output resource to wait for).
  timing::PortState& ports = core_.ports();
  if (ports.has_output()) place_own_transfers(dest, tag, data.data());
  core_.hints().sent(dest, data.data(), data.size());
  const Time issue = core_.clock().now();
  const int id = core_.id();
  // Owned here until it is placed or queued: a transfer that leaves the model's range throws, and frees it.
  std::unique_ptr<Message, void (*)(Message*)> owned(
      Message::make(id, dest, tag, core_.collective(), data.data(), data.size()), &Message::destroy);
  Message* m = owned.get();
  run.timing.issue(m->transfer, ports, id, dest, data.size(), issue, issued_, ways_);
  const Request r = core_.requests().add(Slot::Kind::send);
  const std::uint32_t index = RequestAccess::slot(r);
  Slot& s = core_.requests().at(index);
  s.peer = dest;
  s.tag = tag;
  s.context = core_.collective();
  s.bytes = data.size();
  m->sender = &s.send;
  if (ports.has_output()) hold_slot_ = index;
  const bool alone = core_.parking().released() == issued_;  // none of ours is still unplaced
  ++issued_;
  ++messages_sent_;
  bytes_sent_ += data.size();
  // Spread over ranks with the whole queue on every rank, every rank keeps its own copy of the links, the same on each
  // only if each places every transfer that books one: there only a message to oneself is placed at once
  // (runtime/coordinator_ranks.cpp, Placer::sender_places).
  if (!core_.ordered() || (alone && run.timing.books_alone(m->transfer) &&
                           (m->transfer.route.hops() == 0 || run.placer.sender_places(*m)))) {
    place_now(owned.get());
    owned.release();  // the receiver's now
  } else {
    m->key = m->transfer.key;
    run.placer.submit(owned.release());  // placed in model-time order
  }
  return r;
}

void SendSide::place_now(Message* m) {
  for (;;) {
    const timing::CommitStep step = core_.context().timing.commit(m->transfer, m->transfer.key.ready);
    if (step.sender_released) core_.parking().own_transfer_released(*m);
    if (step.arrived || !step.more) break;
  }
  core_.context().placer.forward_placed(m);
}

void SendSide::place_own_transfers(int peer, int tag, const void* data) {
  if (core_.parking().released() != issued_) {
    const auto ready = [&] { return core_.parking().released() == issued_; };
    const auto describe = [&] {
      const Slot* s = hold_slot_ != Slot::kNoSlot ? &core_.requests().at(hold_slot_) : nullptr;
      return BlockedOperation{core_.id(), "send", s ? s->peer : -1, s ? s->tag : 0,
                              "its earlier transfer is not placed", true};
    };
    Wait w{ready, describe, {}, true, false};
    core_.hints().parking_to_send(peer, tag, core_.collective(), data, hold_slot_);
    core_.block_until(w);
    core_.hints().resumed();
  }
  if (hold_slot_ != Slot::kNoSlot) {
    const SendSlot& s = core_.requests().at(hold_slot_).send;
    core_.ports().take_output(s.channel, s.start, s.done);
    hold_slot_ = Slot::kNoSlot;
  }
}

void SendSide::complete_send(std::uint32_t index) {
  if (index == hold_slot_) {
    const SendSlot& s = core_.requests().at(index).send;
    core_.ports().take_output(s.channel, s.start, s.done);
    hold_slot_ = Slot::kNoSlot;
  }
}

// A send without a handle keeps its slot only until it has been placed: a kernel that sends to every other node
// would otherwise hold 2^d - 1 slots to the end. One whose output hold is still owed keeps it until that is taken
// (place_own_transfers, or wait_sends), so that the hold comes when it would have come for a request.
void SendSide::post_send(int dest, std::span<const std::byte> data, int tag) {
  posted_sends_.reserve(posted_sends_.size() + 1);  // so that the push below cannot lose an issued send
  if (latest_posted_send_ != Slot::kNoSlot && core_.ports().has_output()) {
    // The wait isend would make first, made here, so that the latest send's slot goes back to the free list before
    // the new send takes one: the new send reuses the slot that wait has just read.
    core_.check_running();
    core_.check_peer(dest, "send");
    place_own_transfers(dest, tag, data.data());
    if (reap_posted_send(latest_posted_send_)) latest_posted_send_ = Slot::kNoSlot;
  }
  const Request r = isend(dest, data, tag);
  // On a one-port node the one before the latest has been placed by now (isend waited for that) and is freed here,
  // and the list stays empty.
  const std::uint32_t previous = latest_posted_send_;
  latest_posted_send_ = RequestAccess::slot(r);
  if (previous != Slot::kNoSlot && !reap_posted_send(previous)) posted_sends_.push_back(previous);
  if (!posted_sends_.empty()) reap_posted_sends();
}

bool SendSide::reap_posted_send(std::uint32_t index) {
  const Slot& s = core_.requests().at(index);
  if (index == hold_slot_ || !s.send.released.load(std::memory_order_acquire)) return false;
  posted_sends_done_ = std::max(posted_sends_done_, s.send.done);
  core_.requests().release(index);
  return true;
}

void SendSide::reap_posted_sends() {
  while (first_posted_send_ < posted_sends_.size() && reap_posted_send(posted_sends_[first_posted_send_]))
    ++first_posted_send_;
  if (first_posted_send_ == posted_sends_.size() || first_posted_send_ >= 64) {
    posted_sends_.erase(posted_sends_.begin(), posted_sends_.begin() + static_cast<std::ptrdiff_t>(first_posted_send_));
    first_posted_send_ = 0;
  }
}

void SendSide::wait_sends() {
  core_.check_running();
  if (latest_posted_send_ != Slot::kNoSlot) {
    posted_sends_.push_back(latest_posted_send_);
    latest_posted_send_ = Slot::kNoSlot;
  }
  std::size_t first_unreleased = first_posted_send_;
  const auto unreleased = [&] {
    while (first_unreleased < posted_sends_.size() &&
           core_.requests().at(posted_sends_[first_unreleased]).send.released.load(std::memory_order_acquire))
      ++first_unreleased;
    return first_unreleased < posted_sends_.size();
  };
  if (unreleased()) {
    const auto ready = [&] { return !unreleased(); };
    const auto describe = [&] {
      const Slot& s = core_.requests().at(posted_sends_[first_unreleased]);
      return BlockedOperation{core_.id(), "wait_sends", s.peer, s.tag, "a send whose transfer is not placed", true};
    };
    Wait w{ready, describe, {}, true, false};
    core_.block_until(w);
  }
  // As wait_all on their requests: every output hold owed is taken, and the clock goes to the latest end.
  const Time before = core_.clock().now();
  for (std::size_t i = first_posted_send_; i < posted_sends_.size(); ++i) {
    complete_send(posted_sends_[i]);     // takes the output hold, if this one still owes it
    reap_posted_send(posted_sends_[i]);  // placed and owing nothing now: freed, its end taken
  }
  const Time done = std::max(before, posted_sends_done_);
  posted_sends_.clear();
  first_posted_send_ = 0;
  posted_sends_done_ = 0;
  core_.advance_clock(done);
  if (done > before) core_.record_call("wait_sends", before, done);
}

}  // namespace hcemu::detail
