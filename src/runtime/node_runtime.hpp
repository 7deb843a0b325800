#pragma once
// One node of the in-process runtime: the node API (hcemu::detail::NodeBackend), its inbox, matcher, request table,
// arena, clock and ports, and how it parks when it must wait.
//
// Parking. A node that must wait says what can end the wait (how many deliveries at least, the placing of its own
// transfers, a horizon, anything) and parks. Whoever brings such an event (a sender, the coordinator placing
// transfers, the last node into a barrier) wakes it; the node then drains its own inbox and looks again, parking
// anew if the wait is not over. Only the node ever touches its inbox's consuming end, its matcher and its requests.
#include <array>
#include <atomic>
#include <cstdint>
#include <exception>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "common/function_ref.hpp"
#include "hcemu/model/torus.hpp"
#include "hcemu/detail/node_backend.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/report.hpp"
#include "runtime/arena.hpp"
#include "runtime/inbox.hpp"
#include "runtime/matcher.hpp"
#include "runtime/pending.hpp"
#include "runtime/requests.hpp"
#include "timing/clock.hpp"
#include "timing/ports.hpp"

namespace hcemu::detail {

class RunState;

// Thrown inside a node to unwind its kernel when the run is being stopped.
struct Aborted {};

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

class NodeRuntime final : public NodeBackend {
 public:
  NodeRuntime(RunState& run, int id);
  ~NodeRuntime() override;

  // --- the run ---
  void start_run();                  // before the run: everything back to its initial state
  void run_kernel();                 // the node's thread of control
  void finish_run(RunReport& report);  // after the run: stats, leftovers, trace into the report

  // --- the node API (include/hcemu/node.hpp) ---
  int id() const override { return id_; }
  int dim() const override;
  int size() const override;
  int neighbor(int k) const override;
  const MachineConfig& config() const override;
  Coordinates coordinates() const override;
  int neighbor(Direction direction) const override;
  int rows() const override { return rows_; }
  int cols() const override { return cols_; }
  void route_ways(Way x, Way y) override;
  Request isend(int dest, std::span<const std::byte> data, int tag) override;
  Request post_recv(int source, std::span<std::byte> buffer, int tag) override;
  Status wait(Request& request, const char* operation) override;
  void wait_all(std::span<Request> requests) override;
  std::size_t wait_any(std::span<Request> requests, Status* status) override;
  bool test(Request& request) override;
  RecvGroup post_recvs(std::span<const int> sources, std::span<std::byte> buffer, std::size_t block,
                       int tag) override;
  Status wait(RecvGroup& group, std::size_t k) override;
  void wait_all(RecvGroup& group) override;
  void post_send(int dest, std::span<const std::byte> data, int tag) override;
  void wait_sends() override;
  void barrier() override;
  void copy(std::span<const std::byte> from, std::span<std::byte> to) override;
  void permute(std::span<const std::byte> from, std::span<std::byte> to, std::size_t block_bytes,
               std::span<const std::uint32_t> order) override;
  void compute(std::uint64_t flops) override;
  void elapse(Time t) override;
  void will_read(const void* p) override { read_hint_.store(p, std::memory_order_relaxed); }
  void will_wait(const RecvGroup& group, std::size_t k) override;
  Time clock() override { return clock_.now(); }
  void* allocate(std::size_t bytes, std::size_t alignment) override { return arena_.allocate(bytes, alignment); }
  void deallocate(void* p, std::size_t bytes) override { arena_.deallocate(p, bytes); }
  std::uint32_t enter_collective() override;
  void leave_collective(std::uint32_t previous) override { context_ = previous; }

  // --- for the others: events that can end a wait (any thread); each returns whether it woke the node ---
  bool deliver(Message* m);
  // The node's transfer `m` has left it: its SendSlot is filled in.
  bool transfer_released(const Message& m);
  // Every transfer ready by the time the node asked for with horizon request `p` has been placed.
  bool horizon_reached(Pending& p);
  // Whatever the node waits for may have come (a barrier released, the run aborted): wakes it if it is parked.
  bool notify();
  // Shortly before the engine resumes it (runtime/engine.hpp): stage 0 starts loading the node's own first lines,
  // stage 1 what they point to that the node touches first when it goes on.
  void warm(int stage) const;

  // --- for the deadlock report (the node is parked: its data is quiescent) ---
  bool parked() const { return park_state_.load(std::memory_order_acquire) == kParked; }
  BlockedOperation blocked_operation() const;
  const std::vector<ForcedDiscard>& discards() const { return matcher_.discards(); }
  const std::vector<double>& lateness_us() const;

 private:
  // kWaking: a waker has claimed a parked node and is counting it as running again; the node goes on only once it
  // reads kRunning, so that it never runs while the coordinator does not count it (docs/engine.md, "Parking").
  static constexpr int kRunning = 0, kParked = 1, kDone = 2, kWaking = 3;
  static constexpr int kResumeHints = 8;

  // Waits until w.ready(), parking when it must.
  void block_until(Wait& w);
  void drain();  // inbox -> matcher
  void check_running();
  [[noreturn]] void called_from_outside() const;
  void set_resume_hints(const std::array<const void*, kResumeHints>& hints);
  // Sets the resume hints to the receive likeliest to meet the next arrival, if any: a group's element from `peer`
  // with `tag`, the node the caller is about to send to; else the receive posted after the last one met.
  bool hint_next_arrival(int peer, int tag);
  // Why `operation` (wait, will_wait) refuses element k: out of range, receiving nothing, or completed already.
  [[noreturn]] void refuse_element(const RecvGroupState& g, std::size_t k, const char* operation) const;
  void maybe_yield();
  void advance_clock(Time target);
  void charge(Time cost, const char* kind);  // local work
  void drain_leftovers_quietly();            // frees what a run left in the inbox and the matcher
  void check_peer(int peer, const char* operation) const {
    if (peer < 0 || peer >= nodes_) no_such_peer(peer, operation);
  }
  [[noreturn]] void no_such_peer(int peer, const char* operation) const;
  model::TorusShape grid(const char* operation) const;  // throws UsageError on a cube

  // Sending.
  // Waits until this node's transfers have left it and applies their port holds; `peer` and `tag`: of the send about
  // to be issued, if any (a hint of what arrives meanwhile).
  void place_own_transfers(int peer = -1, int tag = 0);
  void complete_send(std::uint32_t index);  // a released send: its output hold, its trace
  // Frees the slot of a send made by post_send if it is placed and owes no output hold (true), taking its end.
  bool reap_posted_send(std::uint32_t index);
  void reap_posted_sends();  // of the list, from its front
  // Receiving.
  Time complete_receive(Slot& s);  // takes the input resource; returns the completion
  Time peek_receive(const Slot& s) const;
  bool fruitless_test(const Slot& s, Time now);  // counts a test() that found `s` incomplete; false
  Time complete_element(const RecvGroupState& g, std::uint32_t k);  // complete_receive for a group's element
  // Both: a matched message of `bytes` that arrived as `arrival` takes the input resource for a receive posted at
  // `posted`; recorded for the trace; returns the completion.
  Time take_input(const timing::TransferTimes& arrival, std::size_t bytes, Time posted, bool late, int source, int tag,
                  std::uint64_t message);
  // Receives from any source: the best waiting message for slot `index`, or nullptr.
  Message* best_for_any_source(const Slot& r, Time* completion = nullptr);
  void resolve_any_source(std::uint32_t index, const char* operation);
  // Asks to be told when every transfer ready at or before `t` has been placed; returns the request's ticket.
  std::uint64_t request_horizon(Time t);
  bool horizon_passed(std::uint64_t ticket) const {
    return horizon_reached_.load(std::memory_order_acquire) >= ticket;
  }
  void record(const char* kind, Time start, Time end, int peer = -1, std::size_t bytes = 0, int tag = 0,
              std::uint64_t message = 0);
  // A blocking call of the node API that advanced the clock: a "wait" span of the node's program. `call` is
  // TraceSpan::call: "send", "recv", "exchange", "wait_all", and for wait and wait_any what they waited for ("wait
  // send", "wait_any recv").
  void record_call(const char* call, Time start, Time end, int peer = -1, std::size_t bytes = 0, int tag = 0);
  std::string where(const char* operation) const;

  RunState& run_;
  int id_;
  int slot_;  // the engine's index of this node: its place among this process's nodes
  int nodes_;                                 // in the whole machine
  int rows_ = 1, cols_ = 1;                   // the grid (1 x 2^d on a cube)
  model::TorusRoutePreference ways_;
  // What others touch to deliver, release or wake, together on the first cache lines.
  alignas(64) std::atomic<int> park_state_{kRunning};
  std::atomic<bool> wake_on_release_{false};
  bool tracing_ = false;  // settings.trace, here so that a release reads no line of the node but these (start_run)
  std::atomic<std::uint64_t> wake_at_{0};     // wake when the inbox's delivery count reaches this
  std::atomic<std::uint64_t> released_{0};    // this node's transfers placed so far
  std::atomic<std::uint64_t> horizon_reached_{0};
  Inbox inbox_;

  // What the node itself touches on every message, right after: a node's runtime is cold again each time it runs
  // (every other node has run since), and each cache line of it is a miss.
  RequestTable requests_;
  timing::NodeClock clock_;
  timing::PortState ports_;
  Wait* wait_ = nullptr;
  // The node's own stack while its kernel runs, from run_kernel's frame down: where every call of the node API comes
  // from (null outside the run).
  const char* stack_top_ = nullptr;
  std::size_t stack_reach_ = 0;
  // Set by a wait before the node parks: what it will touch first when it resumes (a slot and where the request
  // table finds it, the buffer, the matching entry, the slots beside it), for warm(1), which a worker may call while
  // the node runs elsewhere (it was taken from the worker's queue meanwhile): hence atomic, and only ever
  // prefetched. Null: none.
  std::atomic<const void*> resume_hints_[kResumeHints] = {};
  std::atomic<const void*> read_hint_{nullptr};  // Node::will_read
  std::atomic<const void*> wait_hint_{nullptr};  // Node::will_wait: the element's record
  // This node's transfers: issued (owner), released by whoever places them.
  std::uint64_t issued_ = 0;
  std::uint32_t hold_slot_ = Slot::kNoSlot;  // the send whose output hold is still to apply
  std::uint32_t latest_posted_send_ = Slot::kNoSlot;  // the slot of the latest send made by post_send, if kept
  std::uint32_t context_ = 0;                // the collective scope this node is in (0: none)
  std::uint32_t contexts_entered_ = 0;       // scopes entered so far: the next one's context
  std::uint64_t messages_sent_ = 0, bytes_sent_ = 0;
  Matcher matcher_;  // its own hot words first
  // The slots of the other sends made by post_send, from the first not yet freed on; the latest end among those
  // freed.
  std::vector<std::uint32_t> posted_sends_;
  std::size_t first_posted_send_ = 0;
  Time posted_sends_done_ = 0;

  Arena arena_;
  // Waiting for the horizon: requests in the coordinator's queue (a newer request may leave an older one there).
  std::vector<std::unique_ptr<Pending>> horizon_requests_;
  std::uint64_t horizon_ticket_ = 0;
  Time final_clock_ = 0;
  Time fruitless_clock_ = 0;  // the clock of the latest run of tests that found their requests incomplete
  std::uint64_t fruitless_tests_ = 0;
  std::vector<TraceSpan> trace_;
  std::vector<TraceSpan> sent_;  // send spans, recorded by whoever places the transfer
  std::minstd_rand yield_rng_;
};

}  // namespace hcemu::detail
