#include "runtime/parking.hpp"

#include <algorithm>

#include "runtime/engine.hpp"
#include "runtime/message.hpp"
#include "runtime/node_core.hpp"
#include "runtime/requests.hpp"
#include "runtime/placer.hpp"
#include "runtime/run_control.hpp"
#include "timing/clock.hpp"

namespace hcemu::detail {

Parking::Parking(int node, int input_ports, int slot, timing::NodeClock& clock, const NodeContext& context,
                 std::vector<TraceSpan>& sent)
    : slot_(slot), node_(node), inbox_(input_ports), context_(context), clock_(clock), sent_(sent) {
  static_assert(sizeof(Parking) == hot_bytes(), "a parking is two lines");
}

void Parking::start_run(bool tracing) {
  tracing_ = tracing;
  sent_.clear();
  inbox_.reset();
  state_.store(kRunning, std::memory_order_relaxed);
  wake_at_.store(0, std::memory_order_relaxed);
  wake_on_release_.store(false, std::memory_order_relaxed);
  parked_at_.store(0, std::memory_order_relaxed);
  release_parks_.store(0, std::memory_order_relaxed);
  released_.store(0, std::memory_order_relaxed);
  horizon_reached_.store(0, std::memory_order_relaxed);
  wait_ = nullptr;
}

void Parking::block_until(Wait& w, FunctionRef<void()> look) {
  bool parked_for_release = false;
  for (;;) {
    look();
    if (w.ready()) {
      // The wait is over: a release no longer ends it (transfer_released).
      if (parked_for_release)
        release_parks_.store(release_parks_.load(std::memory_order_relaxed) - 1, std::memory_order_seq_cst);
      return;
    }
    // Say which events can end the wait, then park; an event that came meanwhile cancels the park. The stores and
    // loads here and in the wakers are sequentially consistent, so that one side always sees the other.
    wait_ = &w;
    const std::uint64_t needed = !w.on_delivery ? 0 : w.deliveries ? w.deliveries() : 1;
    // Counted from what this node has taken, not from what was delivered: a delivery can be counted while its
    // message is not yet visible in its queue (a push half done, or one behind it on the same queue), and a count
    // from deliveries would then wait for one message more than will ever come.
    wake_at_.store(needed > 0 ? inbox_.taken() + needed : ~std::uint64_t{0}, std::memory_order_seq_cst);
    wake_on_release_.store(w.on_release, std::memory_order_seq_cst);
    if (w.on_release) {
      parked_at_.store(clock_.now(), std::memory_order_relaxed);
      const std::uint64_t parks = release_parks_.load(std::memory_order_relaxed);
      release_parks_.store((parks | 1) + 2, std::memory_order_seq_cst);  // one more, and not over
      parked_for_release = true;
    }
    state_.store(kParked, std::memory_order_seq_cst);
    const bool came =
        inbox_.delivered() >= wake_at_.load(std::memory_order_seq_cst) || w.ready() || context_.control.aborted();
    int expected = kParked;
    if (!(came && state_.compare_exchange_strong(expected, kRunning, std::memory_order_acq_rel))) {
      // Parked (or claimed already by a waker, who counts this node as running again before it lets it go on).
      clock_.pause();
      context_.placer.node_parked(slot_);  // the last node counted as stopped places transfers, here, on this stack
      while (state_.load(std::memory_order_acquire) != kRunning) context_.engine.park(slot_);
      clock_.resume();
    }
    wake_at_.store(~std::uint64_t{0}, std::memory_order_relaxed);
    wake_on_release_.store(false, std::memory_order_relaxed);
    wait_ = nullptr;
  }
}

bool Parking::notify(Time event) { return wake(event, false); }

bool Parking::notify_no_earlier_than_clock(Time& event) { return wake(event, true); }

bool Parking::wake(Time& event, bool no_earlier_than_clock) {
  // Claim, count, then let go: the node may run the moment it reads kRunning (it need not have suspended yet, and a
  // park may return spuriously), and a node that ran before it was counted could park again and bring the count of
  // running nodes to zero while its waker still runs, so that the placer would place, or report a deadlock, under a
  // node that can still issue a transfer or enter a barrier.
  int expected = kParked;
  if (!state_.compare_exchange_strong(expected, kWaking, std::memory_order_acq_rel)) return false;
  // Written before the kParked just claimed.
  if (no_earlier_than_clock) event = std::max(event, parked_at_.load(std::memory_order_relaxed));
  context_.placer.node_woken(slot_, event);
  state_.store(kRunning, std::memory_order_seq_cst);
  context_.engine.unpark(slot_);
  return true;
}

bool Parking::deliver(Message* m) {
  const Time arrival = m->times().arrival;
  const std::uint64_t count = inbox_.push(m->times().in_port, m);  // m belongs to the node from here on
  return (count >= wake_at_.load(std::memory_order_seq_cst) && notify(arrival)) || may_act(arrival);
}

void Parking::record_release(const Message& m) {
  SendSlot* s = m.sender;
  // Before the release: the node may place its next transfer itself (and record it) once it sees this one released.
  if (tracing_)
    sent_.push_back(TraceSpan{node_, "send", m.times().start, m.times().sender_done, m.destination, m.bytes, m.tag,
                               m.number(), {}});
  s->start = m.times().start;
  s->done = m.times().sender_done;
  s->channel = m.transfer.channel;
  s->released.store(true, std::memory_order_release);
  released_.fetch_add(1, std::memory_order_seq_cst);
}

// Not woken by it, a node may act on its transfer's release before another event only where the release ends a wait
// for one in which the node has parked: its clock stood still there, and the event that woke it may be later (a
// message it did not wait for). Anywhere else the release ends nothing the node waits for, and what it issues next is
// bounded already: by the event that ended its last wait (a release that ended one woke it, or counted here), and by
// its transfers' ready times, which never fall, since each takes its output no earlier than the last one's
// release_event (docs/engine.md, "Placing transfers in model time"). So only such a wait counts, and the node's clock
// when it parked raises the event. Both are read before the release is recorded: a park after that shows in the
// count, and a clock read then is no later than the node's clock when it sees the release (clocks do not fall).
bool Parking::transfer_released(const Message& m, Time& released) {
  const std::uint64_t parks = release_parks_.load(std::memory_order_seq_cst);
  const bool waits = (parks & 1) != 0;
  const Time parked = waits ? parked_at_.load(std::memory_order_relaxed) : 0;  // the second line, where needed
  record_release(m);
  if (wake_on_release_.load(std::memory_order_seq_cst) && notify_no_earlier_than_clock(released)) return true;
  if (!waits && release_parks_.load(std::memory_order_seq_cst) == parks) return false;
  released = std::max(released, parked);  // parked only since: its clock is not known, and the event is not raised
  return may_act(released);
}

// Not woken by this event: the node runs (or another waker is letting it go), so it may take what the event brought
// at its next look, and with it end a wait that an event of a later model time woke it from (a message it did not
// need wakes it; the one it needs comes while it runs, with an earlier arrival). So the event bounds what it issues,
// as if it had woken it. Parked, it takes nothing before an event wakes it, which bounds it then.
bool Parking::may_act(Time event) {
  const int state = state_.load(std::memory_order_seq_cst);
  if (state != kRunning && state != kWaking) return false;
  context_.placer.node_may_issue_from(slot_, event);
  return true;
}

bool Parking::horizon_reached(Pending& p) {
  reach_horizon(p.ticket);
  const Time event = p.key.ready;
  p.queued.store(false, std::memory_order_release);  // the node may reuse it
  return notify(event);
}

void Parking::reach_horizon(std::uint64_t ticket) {  // any thread
  std::uint64_t seen = horizon_reached_.load(std::memory_order_relaxed);
  while (seen < ticket && !horizon_reached_.compare_exchange_weak(seen, ticket, std::memory_order_seq_cst)) {
  }
}

}  // namespace hcemu::detail
