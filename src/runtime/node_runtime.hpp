#pragma once
// One node's side of the runtime: its thread's state, its inbox of lock-free link queues, the matching of
// messages to posted receives, and the node API that the Node handle forwards to.
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include <boost/lockfree/queue.hpp>

#include "common/allocation.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/node.hpp"
#include "hcemu/report.hpp"
#include "runtime/arena.hpp"
#include "runtime/message.hpp"
#include "timing/clock.hpp"
#include "timing/ports.hpp"

namespace hcemu::detail {

class RunState;

enum class NodeState : int { running, blocked, done };

class NodeRuntime {
 public:
  NodeRuntime(RunState& run, int id);
  ~NodeRuntime();

  Node& node() { return node_; }
  void run_kernel();  // the thread's body
  void reset_clock(timing::NodeClock::RealClock::time_point origin) {
    clock_ = timing::NodeClock(settings().timing, settings().time_scale, origin);
  }

  // --- the node API (see include/hcemu/node.hpp) ---
  int id() const { return id_; }
  int dim() const;
  int size() const;
  int neighbor(int k) const;
  const MachineConfig& config() const;
  const EmulatorSettings& settings() const;
  const timing::TimingModel& timing() const;
  Request isend(int dest, std::span<const std::byte> data, int tag);
  Request post_recv(int source, std::span<std::byte> buffer, int tag);
  Status wait(Request& request, const char* operation = "wait");
  void wait_all(std::span<Request> requests);
  bool test(Request& request);
  void barrier();
  std::uint32_t enter_collective() {
    const std::uint32_t previous = context_;
    context_ = ++contexts_entered_;
    return previous;
  }
  void leave_collective(std::uint32_t previous) { context_ = previous; }
  void copy(std::span<const std::byte> from, std::span<std::byte> to);
  void permute(std::span<const std::byte> from, std::span<std::byte> to, std::size_t block_bytes,
               std::span<const std::uint32_t> order);
  void charge(Time cost, const char* kind);  // local work: compute, elapse
  Time clock() { return clock_.now(); }
  void* allocate(std::size_t bytes, std::size_t alignment) { return arena_.allocate(bytes, alignment); }
  void deallocate(void* p, std::size_t bytes) { arena_.deallocate(p, bytes); }

  // --- for the sender threads ---
  void deliver(Message* m);  // any thread: puts m in this node's inbox and wakes the node

  // --- for the watchdog and the report (the node thread has stopped or is asleep) ---
  NodeState state() const { return state_.load(std::memory_order_acquire); }
  // A lower bound on the issue time of any transfer this node will still make.
  Time published_clock() const { return published_clock_.load(std::memory_order_relaxed); }
  // True when this node is asleep and nothing has been delivered since it fell asleep.
  bool stuck() const;
  std::uint64_t activity() const {
    return inbox_signal_.load(std::memory_order_acquire) + wakes_.load(std::memory_order_acquire);
  }
  BlockedOperation blocked_operation() const { return blocked_; }
  void wake();  // abort: make any wait return
  void drain_leftovers(std::vector<ForcedDiscard>& discards, std::vector<std::string>& unreceived);
  NodeStats stats() const;
  const std::vector<ForcedDiscard>& discards() const { return discards_; }
  const std::vector<double>& lateness_us() const { return clock_.lateness_us(); }
  std::vector<TraceSpan>& trace() { return trace_; }

 private:
  enum class Kind : std::uint8_t { free, send, recv };
  struct Slot {
    std::uint32_t generation = 0;
    Kind kind = Kind::free;
    int peer = -1;
    int tag = 0;
    std::uint32_t context = 0;
    std::size_t bytes = 0;
    Time done = 0;  // send: when the sender is released
    // receive
    std::span<std::byte> buffer;
    Time posted = 0;
    bool matched = false;
    bool late = false;  // UNFORCED, arrived before the post: comes out of the system buffer
    std::uint32_t next_receive = kNoSlot;  // the next receive posted for the same (source, tag)
    timing::TransferTimes times;
  };
  static constexpr std::uint32_t kNoSlot = 0xffffffffu;
  // One (source, tag): its unmatched messages and its pending receives, each a FIFO threaded through the
  // messages and slots themselves, so that matching allocates nothing.
  struct KeyQueue {
    Message* first_message = nullptr;
    Message* last_message = nullptr;
    std::uint32_t first_receive = kNoSlot;
    std::uint32_t last_receive = kNoSlot;
  };

  Slot& slot_of(const Request& r, const char* operation);
  Request new_slot(Kind kind);
  void free_slot(std::uint32_t index);
  // Messages and receives meet by (source, collective context, tag).
  struct Key {
    int source;
    std::uint32_t context;
    int tag;
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      const auto a = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.source)) << 32) |
                     static_cast<std::uint32_t>(k.tag);
      return std::hash<std::uint64_t>()(a * 0x9e3779b97f4a7c15ull ^ k.context);
    }
  };
  void drain();                  // moves the inbox into the key queues, matching what it can
  void match(KeyQueue& q);       // pairs messages with posted receives in order (MODEL.md section 5)
  template <class Ready, class Needed>
  void block_until(Ready ready, Needed needed, const BlockedOperation& op);
  Time complete_receive(Slot& s);  // takes the input port; returns the completion
  void check_peer(int peer, const char* operation) const;
  void check_running();
  void maybe_yield();
  void advance_clock(Time target) {
    clock_.advance_to(target);
    published_clock_.store(clock_.value(), std::memory_order_relaxed);
  }
  void record(const char* kind, Time start, Time end, int peer = -1, std::size_t bytes = 0, int tag = 0);

  RunState& run_;
  int id_;
  Node node_;
  Arena arena_;
  timing::NodeClock clock_;
  timing::PortState ports_;

  // Inbox: one lock-free queue per link that ends here (indexed by the last hop's dimension), and one for
  // messages to oneself. Senders push, this node pops.
  std::vector<std::unique_ptr<boost::lockfree::queue<Message*>>> inbox_;
  alignas(64) std::atomic<std::uint32_t> inbox_signal_{0};
  std::atomic<bool> sleeping_{false};
  std::atomic<std::uint32_t> wake_at_{0};  // senders wake this node once the signal reaches it
  alignas(64) std::atomic<NodeState> state_{NodeState::running};
  std::atomic<std::uint64_t> wakes_{0};
  std::atomic<Time> published_clock_{0};
  std::atomic<std::uint32_t> barrier_generation_{0};
  std::atomic<bool> in_barrier_{false};
  BlockedOperation blocked_;

  std::unordered_map<Key, KeyQueue, KeyHash, std::equal_to<>, Allocator<std::pair<const Key, KeyQueue>>> keys_;
  std::uint32_t context_ = 0;           // the collective scope this node is in (0: none)
  std::uint32_t contexts_entered_ = 0;  // scopes entered so far: the next one's context
  std::deque<Slot, Allocator<Slot>> slots_;  // a deque: slots never move as it grows
  std::vector<std::uint32_t, Allocator<std::uint32_t>> free_slots_;
  NodeStats stats_;
  std::vector<ForcedDiscard> discards_;
  std::vector<TraceSpan> trace_;
  std::minstd_rand yield_rng_;
  int spin_rounds_;
};

}  // namespace hcemu::detail
