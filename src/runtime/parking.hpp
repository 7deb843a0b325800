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

#include "common/function_ref.hpp"
#include "hcemu/report.hpp"
#include "runtime/inbox.hpp"

namespace hcemu::timing {
class NodeClock;
}

namespace hcemu::detail {

class Engine;
class Placer;
class RunControl;

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
  // `slot`: the engine's index of the node. Everything given outlives the parking.
  Parking(int input_ports, int slot, timing::NodeClock& clock, Placer& placer, Engine& engine,
          const RunControl& control);

  void start_run();
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

  // --- any thread: events that can end a wait; each returns whether it woke the node ---
  bool deliver(Message* m);
  bool transfer_released();  // one more of the node's transfers has been placed
  bool notify();
  // Horizon request `ticket` has been reached; the caller then lets go of the request and notifies.
  void reach_horizon(std::uint64_t ticket);

  // --- for the deadlock report and the hints ---
  bool parked() const { return state_.load(std::memory_order_acquire) == kParked; }
  const Wait* wait() const { return wait_; }

 private:
  // kWaking: a waker has claimed a parked node and is counting it as running again; the node goes on only once it
  // reads kRunning, so that it never runs while the placer does not count it (docs/engine.md, "Parking").
  static constexpr int kRunning = 0, kParked = 1, kDone = 2, kWaking = 3;

  alignas(64) std::atomic<int> state_{kRunning};
  std::atomic<bool> wake_on_release_{false};
  std::atomic<std::uint64_t> wake_at_{0};  // wake when the inbox's delivery count reaches this
  std::atomic<std::uint64_t> released_{0};
  std::atomic<std::uint64_t> horizon_reached_{0};
  Inbox inbox_;
  Wait* wait_ = nullptr;
  int slot_;
  timing::NodeClock& clock_;
  Placer& placer_;
  Engine& engine_;
  const RunControl& control_;
};

}  // namespace hcemu::detail
