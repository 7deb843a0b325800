#pragma once
// Places transfers that may contend in the order docs/model.md §7 prescribes — by ready time in model time, ties by
// lower source id, then issue order at the source — whatever order the host's threads ran in.
//
// A node's clock is a lower bound on the ready time of every transfer it will still issue, so a transfer may be
// placed once no node that is running can still issue one that is ready earlier. The coordinator keeps count of the
// nodes that are running (not parked, not done; those a pass wakes are added when it ends, place_in_order). When the
// count falls to zero, every node is waiting for an event that only a placement can bring (a message, the end of its
// own transfer, a horizon) or for nothing at all: the last node to park then places transfers in key order, here, on
// its own stack. A node it wakes can issue again no earlier than the event that woke it, so placing goes on while the
// next key is below every event brought so far: a whole step of a lockstep schedule is placed in one pass, while the
// nodes it woke already run on other workers. If nothing is left to place and nobody runs, the nodes are deadlocked,
// which is thus known at once and exactly.
//
// Transfers that cannot contend (no link, or links only their source can reach) skip the queue: their sender places
// them when it issues them.
//
// Spread over MPI ranks (docs/mpi.md), the same happens in rounds: when no node of a rank runs, the rank sends what its
// nodes submitted to every other rank (one all-gather), and every rank places the whole queue, the same on each, so
// that every rank's copy of the links stays the same; each rank then releases its own senders, sends the payloads of
// its messages to the ranks of their receivers, and delivers the messages its nodes receive. Only messages to oneself
// skip the queue there.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

#include "hcemu/time.hpp"
#include "runtime/commit_queue.hpp"
#include "runtime/pending.hpp"
#include "runtime/placer.hpp"

namespace hcemu::timing {
class TimingModel;
}

namespace hcemu::detail {

class Engine;
class GlobalBarrier;
class RunControl;
class Transport;
struct Message;
class Wire;
class WireReader;

// What the placer knows of its run: all of it outlives the coordinator.
struct PlacerContext {
  timing::TimingModel& timing;
  Engine& engine;
  GlobalBarrier& barrier;
  RunControl& control;
  const std::vector<Parking*>& nodes;  // by id; null for another rank's
  Transport* transport;                   // spread over MPI ranks; else nullptr
  int first_node;                         // this process's nodes: [first_node, first_node + local_nodes)
  int local_nodes;
  bool ordered;  // Placer::orders_in_model_time()
  bool timed;    // EmulatorSettings::engine_stats: time the placing passes
  std::atomic<Time>* progress;  // EmulatorSettings::model_time_placed
};

class Coordinator final : public Placer {
 public:
  explicit Coordinator(const PlacerContext& run) : run_(run) {}

  // `origin`: of native clocks, once the nodes start.
  void start(int nodes);
  void set_origin(std::chrono::steady_clock::time_point origin) { origin_ = origin; }
  // After the run: frees whatever an aborted run left in the queue.
  void discard_pending();
  std::uint64_t rounds() const { return rounds_; }
  // What the placer did (EngineStats): its passes, the transfers it brought to their receivers, the horizons it
  // answered, and its host time when the run records statistics.
  std::uint64_t passes() const { return passes_; }
  std::uint64_t transfers_placed() const { return transfers_placed_; }
  std::uint64_t horizons_answered() const { return horizons_answered_; }
  double placing_seconds() const { return placing_seconds_; }

  // What a node tells the placer (runtime/placer.hpp).
  bool orders_in_model_time() const override { return run_.ordered; }
  void submit(Pending* p) override;
  void forward_placed(Message* m) override;
  void node_parked() override;
  void node_woken() override;
  void node_done() override;
  bool barrier_complete(Time latest_entry) override;

 private:
  bool distributed() const { return run_.transport != nullptr; }
  bool is_local(int id) const { return id >= run_.first_node && id - run_.first_node < run_.local_nodes; }
  int rank_of(int id) const;
  Parking& node(int id) const { return *run_.nodes[static_cast<std::size_t>(id)]; }
  // Spread over ranks under native timing: sends `m`, placed already, to its receiver's rank at once.
  void send_now(const Message& m);
  void on_quiescent();
  void place_in_order();
  // One pass of placing, in key order, while no node it woke could issue a transfer ahead of the next key; false
  // when the run failed.
  bool place_until_woken_could_issue();
  // Spread over ranks (coordinator_ranks.cpp): one round of placing, with every rank.
  void round();
  // What this rank tells the others in a round: its unfinished nodes, its failure, its barrier, its submissions.
  Wire round_message(const std::vector<Pending*>& mine);
  void place_round(timing::OrderKey horizon);
  void queue_submissions_of(WireReader& in, std::uint64_t count);
  bool release_barrier(Time latest_entry, timing::OrderKey& horizon);
  void report_deadlock();
  // Native timing: polls for messages from other ranks while no node of this rank runs, and finds out with the
  // others when the run is over (coordinator_ranks.cpp).
  void native_progress();
  void deliver_native(const std::vector<std::byte>& message);
  void agree_on_failure();
  // Moves every submission so far into `into`; whether any is waiting.
  void take_submissions(std::vector<CommitQueue::Item>& into);
  void queue_submissions();  // the one placing: every submission so far into its queue
  bool submissions_waiting();

  // Submissions, a list per host thread (a few threads share one when there are more): each submitter copies the
  // key beside the pointer into a list its own core holds, where one stack linked through the messages had the placer
  // follow a pointer into a message another core had just written, a miss per submission on its critical path.
  struct alignas(64) Submissions {
    std::atomic<bool> locked{false};
    std::vector<CommitQueue::Item> items;
    void lock();
    void unlock() { locked.store(false, std::memory_order_release); }
  };
  static constexpr int kSubmissionLists = 8;

  const PlacerContext& run_;
  std::chrono::steady_clock::time_point origin_;
  alignas(64) std::atomic<int> running_{0};
  std::atomic<int> unfinished_{0};
  std::array<Submissions, kSubmissionLists> submissions_;
  std::vector<CommitQueue::Item> taken_;  // the one placing owns it
  alignas(64) std::atomic<bool> placing_{false};
  std::atomic<bool> recheck_{false};
  CommitQueue queue_;  // the one placing owns it
  // Spread over ranks.
  bool stopped_ = false;
  std::uint64_t passes_ = 0, transfers_placed_ = 0, horizons_answered_ = 0;  // written by the placer only
  double placing_seconds_ = 0;
  std::uint64_t rounds_ = 0;  // every rank's nodes have finished, or the run failed or deadlocked
  std::atomic<bool> barrier_complete_{false};
  Time barrier_latest_ = 0;
  std::atomic<std::int64_t> native_sent_{0};
  std::int64_t native_received_ = 0;
  bool native_changed_ = false;  // this rank did something since it last counted with the others
  bool native_counting_ = false;  // a count with the others is under way
};

}  // namespace hcemu::detail
