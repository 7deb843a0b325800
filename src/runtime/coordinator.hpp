#pragma once
// Places transfers that may contend in the order MODEL.md section 7 prescribes — by ready time in model time, ties by
// lower source id, then issue order at the source — whatever order the host's threads ran in.
//
// A node's clock is a lower bound on the ready time of every transfer it will still issue, so a transfer may be
// placed once no node that is running can still issue one that is ready earlier. The coordinator keeps count of the
// nodes that are running (not parked, not done). When the count falls to zero, every node is waiting for an event
// that only a placement can bring (a message, the end of its own transfer, a horizon) or for nothing at all: the last
// node to park then places transfers in key order, here, on its own stack. A node it wakes can issue again no earlier
// than the event that woke it, so placing goes on while the next key is below every event brought so far: a whole
// step of a lockstep schedule is placed in one pass, while the nodes it woke already run on other workers. If nothing
// is left to place and nobody runs, the nodes are deadlocked, which is thus known at once and exactly.
//
// Transfers that cannot contend (no link, or links only their source can reach) skip the queue: their sender places
// them when it issues them.
#include <atomic>
#include <vector>

#include "runtime/pending.hpp"

namespace hcemu::detail {

class RunState;
struct Message;

class Coordinator {
 public:
  explicit Coordinator(RunState& run) : run_(run) {}

  void start(int nodes);
  // Any thread: `p` waits for its turn.
  void submit(Pending* p);
  void node_parked();
  void node_woken() { running_.fetch_add(1, std::memory_order_seq_cst); }
  void node_done();
  // After the run: frees whatever an aborted run left in the queue.
  void discard_pending();

 private:
  void on_quiescent();
  void place_in_order();
  void take_submissions();
  void push(Pending* p);
  Pending* pop();

  RunState& run_;
  alignas(64) std::atomic<int> running_{0};
  std::atomic<int> unfinished_{0};
  alignas(64) std::atomic<Pending*> submissions_{nullptr};
  alignas(64) std::atomic<bool> placing_{false};
  std::atomic<bool> recheck_{false};
  std::vector<Pending*> heap_;  // the one placing owns it
};

}  // namespace hcemu::detail
