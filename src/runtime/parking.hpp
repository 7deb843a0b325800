#pragma once
// How a node waits, and what others touch to wake it: its inbox, the counts of its placed transfers and of its
// reached horizons, and its park state. The only part of a node that others write, and the only code of the runtime
// whose atomics are sequentially consistent.
//
// A node that must wait says what can end the wait (how many deliveries at least, the placing of its own transfers, a
// horizon, anything) and parks. Whoever brings such an event (a sender, the coordinator placing transfers, the last
// node into a barrier) wakes it; the node then drains its own inbox and looks again, parking anew if the wait is not
// over. Only the node ever touches its inbox's consuming end.
#include <atomic>
#include <cstdint>
#include <vector>

#include "common/function_ref.hpp"
#include "hcemu/report.hpp"
#include "runtime/inbox.hpp"

namespace hcemu::timing {
class NodeClock;
}

namespace hcemu::detail {

struct Message;
struct NodeContext;
struct Pending;

// What a deadlock report says of a parked node: asked of the node's top part, which knows its matching state too.
class BlockedDescriber {
 public:
  virtual BlockedOperation blocked_operation() const = 0;

 protected:
  ~BlockedDescriber() = default;
};

// What a parked node waits for, and which events can end the wait: the node is woken by the first of them.
struct Wait {
  FunctionRef<bool()> ready;                 // evaluated by the node, after draining its inbox
  FunctionRef<BlockedOperation()> describe;  // for a deadlock report
  // How many more deliveries it takes at least before ready() can change (0: deliveries cannot help); asked after
  // each drain. Unset: one.
  FunctionRef<std::uint64_t()> deliveries;
  bool on_release = false;                   // wake when one of its own transfers is placed
  bool on_delivery = true;                   // false: deliveries cannot help at all
};

class Parking {
 public:
  // `node`: its id; `slot`: the engine's index of the node; `sent`: where released transfers leave their send spans.
  // Everything given outlives the parking.
  Parking(int node, int input_ports, int slot, timing::NodeClock& clock, const NodeContext& context,
          std::vector<TraceSpan>& sent);
  void set_describer(const BlockedDescriber& describer) { describer_ = &describer; }

  // `tracing`: whether released transfers leave send spans (sent()).
  void start_run(bool tracing);
  std::vector<TraceSpan>& sent() { return sent_; }
  Inbox& inbox() { return inbox_; }
  const Inbox& inbox() const { return inbox_; }

  // --- the node's own thread ---
  // Until w.ready(), parking when it must; `look` runs before each look at w (the node drains its inbox there).
  void block_until(Wait& w, FunctionRef<void()> look);
  std::uint64_t released() const { return released_.load(std::memory_order_acquire); }
  bool horizon_passed(std::uint64_t ticket) const {
    return horizon_reached_.load(std::memory_order_acquire) >= ticket;
  }
  void done() { state_.store(kDone, std::memory_order_release); }
  int slot() const { return slot_; }  // the node's index in this process

  // --- any thread: what the placer, or a node that completes a barrier, tells the node (runtime/placer.hpp); each
  // event may end its wait, and returns whether it woke the node; deliver and transfer_released, whether the node may
  // act on it before another event wakes it: woken by it, or running (may_act) ---
  bool deliver(Message* m);  // `m` is the node's from here on
  // The node's transfer `m` has left it: its SendSlot is filled in, and one more of its transfers counts as placed.
  // Where that wakes the node, `released` (the earliest it can issue its next transfer, TimingModel::release_event)
  // is raised to the node's clock if that is later: a node issues nothing before its own clock. A running node may
  // act on it only where it ends a wait for a release in which the node has parked (the .cpp says why).
  bool transfer_released(const Message& m, Time& released);
  // The same, for a transfer the node places itself as it issues it (SendSide::place_now): it runs, and wakes nobody.
  void own_transfer_released(const Message& m) { record_release(m); }
  // Every transfer ready by the time the node asked for with horizon request `p` has been placed.
  bool horizon_reached(Pending& p);
  // Whatever the node waits for may have come (a barrier released, the run aborted), at model time `event` (0 where
  // not known): the node issues nothing ready before it.
  bool notify(Time event);
  // The same, for an event no earlier than `event` and no earlier than the node's clock, which comes out in `event`.
  bool notify_no_earlier_than_clock(Time& event);

  // How many of its first bytes a wake and a resume touch (the hints warm them): all of its two lines.
  static constexpr std::size_t hot_bytes() { return 128; }

  // --- for the placer, as it takes transfers: whether the node has parked in a wait for a release that is not over
  // (transfer_released), and its clock then ---
  bool waits_for_release() const { return (release_parks_.load(std::memory_order_seq_cst) & 1) != 0; }
  Time parked_for_release_at() const { return parked_at_.load(std::memory_order_relaxed); }

  // --- for the deadlock report (its data is quiescent then) and the hints ---
  bool parked() const { return state_.load(std::memory_order_acquire) == kParked; }
  BlockedOperation blocked_operation() const { return describer_->blocked_operation(); }
  const Wait* wait() const { return wait_; }

 private:
  // kWaking: a waker has claimed a parked node and is counting it as running again; the node goes on only once it
  // reads kRunning, so that it never runs while the placer does not count it (docs/engine.md, "Parking").
  static constexpr int kRunning = 0, kParked = 1, kDone = 2, kWaking = 3;

  void reach_horizon(std::uint64_t ticket);
  bool may_act(Time event);
  void record_release(const Message& m);  // the SendSlot filled in, and counted as placed
  bool wake(Time& event, bool no_earlier_than_clock);  // notify's

  // What a release, a delivery and a wake touch, on the first line: a delivery reads wake_at_ and counts in the
  // inbox's word beside it. The rest on the second.
  alignas(64) std::atomic<int> state_{kRunning};
  std::atomic<bool> wake_on_release_{false};
  bool tracing_ = false;
  int slot_;
  int node_;
  std::atomic<std::uint64_t> wake_at_{0};  // wake when the inbox's delivery count reaches this
  Inbox inbox_;
  std::atomic<std::uint64_t> released_{0};
  // The node's parks for a release, counted twice, plus one while the wait they were for is not over: written by
  // the node, read by transfer_released (on the first line, which a release touches anyway).
  std::atomic<std::uint64_t> release_parks_{0};
  std::atomic<std::uint64_t> horizon_reached_{0};
  const NodeContext& context_;  // the run's placer, engine and control
  Wait* wait_ = nullptr;
  std::atomic<Time> parked_at_{0};  // the node's clock at the last of those parks: read by its waker too
  timing::NodeClock& clock_;
  std::vector<TraceSpan>& sent_;  // send spans, recorded by whoever places the transfer
  const BlockedDescriber* describer_ = nullptr;
};

}  // namespace hcemu::detail
