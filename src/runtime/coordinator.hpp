#pragma once
// Places transfers that may contend in the order docs/model.md §7 prescribes — by ready time in model time, ties by
// lower source id, then issue order at the source — whatever order the host's threads ran in.
//
// A node's clock is a lower bound on the ready time of every transfer it will still issue, so a transfer may be
// placed once no node that is running can still issue one that is ready earlier. The coordinator keeps count of the
// nodes that are running (not parked, not done; those a pass wakes are added when it ends, place_in_order). When the
// count falls to zero, every node is waiting for an event that only a placement can bring (a message, the end of its
// own transfer, a horizon) or for nothing at all: whoever counts the last node to stop then places transfers in key
// order, here: that node, on its own stack, or its worker, once its queue runs dry (node_parked). A node it wakes
// can issue again no earlier than the event that woke it, so placing goes on while the next key is below every event
// brought so far: a whole step of a lockstep schedule is placed in one pass, while the nodes it woke already run on
// other workers. If nothing is left to place and nobody runs, the nodes are deadlocked,
// which is thus known at once and exactly.
//
// Transfers that cannot contend (no link, or links only their source can reach) skip the queue: their sender places
// them when it issues them.
//
// Spread over MPI ranks (docs/mpi.md), the same happens in rounds, which start when no node runs on any rank (one
// all-gather). On the cube under circuit switching and store-and-forward, the links are shared out: each rank places
// its own senders' transfers of the round's window (a store-and-forward message's hops, one by one) on the links they
// reach, exchanges with the others only the bookings of links that senders of several ranks reach, and sends the
// messages it placed to their receivers' ranks (coordinator_partition.cpp). Otherwise every rank places the whole
// queue, the same on each, so that every rank's copy of the links stays the same (coordinator_ranks.cpp). Only messages
// to oneself skip the queue there.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/wire.hpp"
#include "hcemu/time.hpp"
#include "runtime/commit_queue.hpp"
#include "runtime/engine.hpp"
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
  bool early;  // EmulatorSettings::placing_early, under virtual timing: the placer may place while nodes run
  bool timed;    // EmulatorSettings::engine_stats: time the placing passes
  std::size_t share_from;  // EmulatorSettings::placing_share_from
  Time lead_limit;         // EmulatorSettings::placing_lookahead_limit; kNever: none
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
  // Spread over ranks with the links partitioned among them (coordinator_partition.cpp): each rank counts the
  // bookings it placed, and the report adds up every rank's links.
  bool partitioned() const { return partitioned_; }
  // Spread over ranks in model time, every rank placing the whole queue (coordinator_ranks.cpp).
  bool whole_queue() const { return distributed() && run_.ordered && !partitioned_; }
  // What the placer did (EngineStats): its passes, the transfers it brought to their receivers, the horizons it
  // answered, and its host time when the run records statistics.
  std::uint64_t passes() const { return passes_; }
  std::uint64_t transfers_placed() const { return transfers_placed_; }
  std::uint64_t horizons_answered() const { return horizons_answered_; }
  double placing_seconds() const { return placing_seconds_; }
  // Of those passes: the batches placed at once, the transfers placed in levels shared with other workers, those
  // levels (and their host time, part of placing_seconds), and the least lead of a transfer placed (its
  // TimingModel::least_lead; kNever when none was placed).
  std::uint64_t batches() const { return batches_; }
  std::uint64_t steps_whole() const { return steps_whole_; }  // of the batches, steps of pairs taken whole
  std::uint64_t transfers_shared() const { return transfers_shared_; }
  std::uint64_t shared_levels() const { return shared_levels_; }
  double shared_seconds() const { return shared_seconds_; }
  Time least_lead() const { return least_lead_; }
  // Spread over ranks: the phases of rounds in which two ranks booked one shared link (coordinator_partition.cpp),
  // and the host time this rank waited on the others in the rounds' collectives and exchanges, part of
  // placing_seconds (timed runs only).
  std::uint64_t phases() const { return phases_; }
  double waiting_seconds() const { return waiting_seconds_; }

  // What a node tells the placer (runtime/placer.hpp).
  bool orders_in_model_time() const override { return run_.ordered; }
  void submit(Pending* p) override;
  bool sender_places(const Message& m) const override;
  void forward_placed(Message* m) override;
  void node_parked(int slot) override;
  // Worker w's queue has run dry (Engine::set_dry): the parks it put off count now.
  void worker_dry(int w);
  void node_woken(int slot, Time event) override;
  void node_may_issue_from(int slot, Time event) override;
  void node_done(int slot) override;
  // Of the passes, those that placed while other workers still ran nodes (place_early).
  std::uint64_t early_passes() const { return early_passes_; }
  double early_seconds() const { return early_seconds_; }
  bool barrier_complete(Time latest_entry) override;

 private:
  bool distributed() const { return run_.transport != nullptr; }
  bool is_local(int id) const { return id >= run_.first_node && id - run_.first_node < run_.local_nodes; }
  int rank_of(int id) const;
  Parking& node(int id) const { return *run_.nodes[static_cast<std::size_t>(id)]; }
  // Spread over ranks under native timing: sends `m`, placed already, to its receiver's rank at once.
  void send_now(const Message& m);
  void on_quiescent();
  // A pass of placing, below `below`: everything while no node runs, or what place_early found safe.
  void place_in_order(timing::OrderKey below = timing::OrderKey::infinity());
  // One pass of placing, in key order, while no node it woke could issue a transfer ahead of the next key (and below
  // `horizon`); false when the run failed.
  bool place_until_woken_could_issue(timing::OrderKey horizon = timing::OrderKey::infinity());
  // Placing while other workers run (docs/engine.md, "Placing while others run"): once a worker's parks are counted,
  // the transfers below early_horizon() are placed, if the placer is free, without waiting for every node to stop.
  void place_early();
  timing::OrderKey early_horizon();
  int home_of_slot(int slot) const;  // the home of this process's node `slot` (Engine::home)
  // Parks put off, per home, into homes_running_; `parks` of one home's nodes.
  void count_parks(std::vector<int>& by_home);
  void uncount_parks(std::size_t home, int parks);
  // A pass's batches (coordinator_batch.cpp): the messages from the front of the queue that are ready before anything
  // the placing of any of them can bring, placed at once, in parallel where they share nothing. false when the run
  // failed; `horizon` takes the earliest event they bring.
  struct SharedBooking;  // a booking of a shared link, as it goes to the other ranks
  struct alignas(64) Lane {  // what one share of a batch brought
    timing::OrderKey horizon = timing::OrderKey::infinity();  // its earliest event
    std::uint64_t placed = 0;
    int woken = 0;  // nodes it woke, counted as running at the end of the pass
    // The first booking that failed (the run leaves the model's range), if any: its key and sender, and why.
    timing::OrderKey failed_key = timing::OrderKey::infinity();
    int failed_source = -1;
    std::exception_ptr error;
    std::string what;
    void take_failure(const Lane& other) {
      failed_key = other.failed_key;
      failed_source = other.failed_source;
      error = other.error;
      what = other.what;
    }
    // Messages with a hop still to go (store-and-forward), as queue items (their leads read while they are in this
    // worker's cache), queued again once the level is placed: their next hop is ready no earlier than the batch's
    // bound, so it belongs to a later batch.
    std::vector<CommitQueue::Item> forwarded;
    // Spread over ranks with the links shared out: the messages it placed for other ranks' nodes, per rank, and its
    // bookings of shared links (coordinator_partition.cpp).
    std::vector<Wire> to_rank;
    std::vector<SharedBooking> booked;
  };
  // `own_links`: stops at a message whose next booking takes a link shared with other ranks (continue_on_own_links).
  void take_batch(const timing::OrderKey& horizon, bool own_links = false);
  // A pass that starts with nothing queued and a step of pairs in the submission lists, and nothing else: takes it
  // whole, as one batch of xor_levels' levels, with no pass over its messages here (the tasks that place it find
  // them through their senders' slots); false, taking nothing, where it is not so.
  bool take_step();
  // Places the step taken, its levels shared (place_batch's rules); false when the run failed.
  bool place_step(timing::OrderKey& horizon);
  bool sharing(std::size_t messages) const;  // whether so many messages are placed by several workers
  bool place_batch(timing::OrderKey& horizon);
  int level_batch();  // the batch's levels, in order_; how many (0: too many to share, none made)
  void in_key_order();  // the batch as one level, in order_
  int xor_levels();  // on a hypercube, for a batch of pairs along one c: its levels, from the ends alone; else 0
  // order_[begin, end) in order; `leveled`: they share nothing, and may be placed by several workers at once.
  void place_level(std::size_t begin, std::size_t end, bool leveled, timing::OrderKey& horizon);
  int home_of(int id) const;  // the worker node `id` runs on by preference (Engine::home); 0 for another rank's
  const std::uint32_t* group_by_home(std::size_t begin, std::size_t end, std::size_t per_task);
  void place_task(const std::uint32_t* items, std::size_t from, std::size_t to, Lane& lane);
  // A task's placing loop: the messages at(k) for k in [from, to), in order, each slot set to null once placed.
  template <class SlotAt>
  void place_slots(SlotAt at, std::size_t from, std::size_t to, Lane& lane);
  // A level's `tasks` (lanes_ holds one lane each) shared with the workers, and what their lanes brought gathered.
  void run_level(int tasks, SharedTask task, timing::OrderKey& horizon);
  // Places one message and brings its events; false when its booking failed (the lane says why, and the message is
  // freed, or left to its caller under keep_failed_).
  bool place_one(Message* m, Lane& lane);
  // A message as the queue holds it, with its lead, its receiver and its leads to wake.
  CommitQueue::Item queue_item(Message* m) const;
  // The item's lead as the placer takes it: none on k:N ports where its sender has parked in a wait for a release
  // (leads_past_release_), else the one the queue holds.
  Time lead_as_taken(const CommitQueue::Item& i) const;
  // Its lead as the placer uses it (timing::TimingModel::least_lead), no more than the run's limit, if any: a lead
  // taken shorter than it is only makes the batches narrower.
  Time lead_of(const Message& m) const;
  void fetch_message(const Message* m);  // before place_one: the message's own lines
  void fetch_ends(const Message& m);     // and after them, its sender's slot and parking, its receiver's parking
  // How far ahead the levels' pass and a placing loop (a task's, a phase's) fetch a message, and a placing loop the
  // places it names.
  static constexpr std::size_t kMessagesAhead = 8, kEndsAhead = 4;
  // While it lives, the nodes this thread wakes are counted in `count` (a lane's), not in the pass's own count.
  class WokenBy {
   public:
    explicit WokenBy(int* count);
    ~WokenBy();
    WokenBy(const WokenBy&) = delete;
    WokenBy& operator=(const WokenBy&) = delete;

   private:
    int* saved_;
  };
  // Adds a lane's wake-ups to the pass's count, on the placer's thread.
  void count_woken(int woken);
  // Spread over ranks (coordinator_ranks.cpp): one round of placing, with every rank.
  void round();
  // What this rank tells the others in a round: its unfinished nodes, its failure, its barrier (the head), its
  // submissions.
  void put_round_head(Wire& w);
  struct RoundHeads {  // every rank's heads, read in rank order
    std::int64_t unfinished = 0;
    // The failure every rank reports: the first in model-time order of those met placing (failed_key_), as one
    // process reports it; else the first rank's.
    bool failed = false;
    timing::OrderKey failed_key = timing::OrderKey::infinity();
    int failed_node = -1;
    std::string failed_what;
    int barrier_ranks = 0;  // ranks whose part of the barrier is complete
    Time latest_entry = 0;
    void read(WireReader& in);
  };
  Wire round_message(const std::vector<Pending*>& mine);
  void place_round(timing::OrderKey horizon);
  // On k:N ports, where every rank places the whole queue: per node of every rank, where it was parked in a wait for
  // a release when the round began, its clock then (round_message), and else kNever: only those nodes' releases bound
  // the round. And the nodes set in the last round.
  std::vector<Time> waited_release_;
  std::vector<int> waiting_release_;
  // Spread over ranks on the cube under circuit switching or store-and-forward (coordinator_partition.cpp): each rank
  // places its own senders' transfers on the links they reach, and only the bookings of links that several ranks'
  // senders reach, and the messages to other ranks' nodes, go between ranks.
  void partitioned_round();
  struct PartitionRound;
  Wire window_message(PartitionRound& round);
  void read_round(const std::vector<std::vector<std::byte>>& parts, PartitionRound& round);
  bool place_window(const PartitionRound& round, std::vector<CommitQueue::Item>& own);
  struct SharedUse;
  // A phase: this rank's messages of the round, in key order, that come before `below` and where nothing unplaced
  // comes before them on a link, each placed as a level's task places it (place_one); what waits stays in `items`.
  // `uses` and `next`: the round's bookings of shared links, by link and key, and per link the first not yet made
  // here. A booking that fails becomes `failed`'s where it comes before that lane's.
  void place_in_phase(std::vector<CommitQueue::Item>& items, const std::vector<SharedUse>& uses,
                      std::unordered_map<int, std::size_t>& next, const timing::OrderKey& below, Lane& failed);
  // Under store-and-forward, once the round's window is placed: this rank's hops below `below`, in key order and in
  // batches, until one would book a shared link. A booking that would leave the model's range stops it and waits, with
  // its message, for a window, where the failure reported is the first in model-time order.
  void continue_on_own_links(const timing::OrderKey& below);
  bool books_shared(const CommitQueue::Item& i) const;  // whether the item's next booking takes a shared link
  void deliver_placed(const std::vector<std::byte>& part);
  static void put_message(Wire& w, const Message& m);  // a placed message, for its receiver's rank
  static Message* read_message(WireReader& in);
  // With the links shared out, of a message placed here: its booking of shared links (`link`: its hop's, or -1 for
  // its route, booked_link) goes into the lane's list; once it has arrived, the message itself too when its receiver
  // is another rank's (true: it went, and `m` is freed). A lane's lists go into the round's (to_rank_,
  // booked_shared_) once its level is placed.
  void booked_for_ranks(const Message& m, int link, Lane& lane);
  bool arrived_for_ranks(Message* m, Lane& lane);
  void gather_lane(const Lane& lane);
  bool shared_link(int link) const {
    return link % cube_d_ >= shared_from_[static_cast<std::size_t>(link / cube_d_)];
  }
  void find_shared_links();  // shared_from_
  bool reaches_shared(int source, int destination) const;
  // The link that the next booking of `m` takes alone (a store-and-forward hop), or -1: its whole route (a circuit).
  static int booked_link(const Message& m);
  // The links the next booking of `m` takes.
  static std::span<const int> booked_links(const Message& m);
  // Calls f(link) for each shared link of a booking: its one link, or (link < 0) its route's.
  template <class F>
  void for_each_shared(int source, int destination, int link, F&& f) const;
  void copy_shared(const SharedBooking& b);  // another rank's booking, on this rank's copy of the shared links
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

  // Submissions, a list per worker of the task engine (at least kSubmissionLists of them; a thread that is no
  // worker's, as under os_threads, takes one by a count of threads): each submitter copies the key beside the pointer
  // into a list that only its own core writes, also where it runs a node of another worker's home. A list shared by
  // the nodes' homes instead moved its lines between two cores whenever a worker ran a node it had stolen (about 10%
  // of all samples in its lock on 16 workers, docs/history.md).
  //
  // A step of pairs (take_step): where steps_, each submission also says whether its list still holds one, and
  // where the message lies, in its sender's StepSlot: one message from each of some senders s, all ready at one
  // time, each to s ^ c for one c, each with a lead.
  struct Step {
    bool ok = false;
    Time ready = 0;
    Time least_lead = kNever;
    int mask = 0;             // every message goes from s to s ^ mask
    int high_bit = 0;         // the mask's highest bit: a message whose sender has it goes in the second level
    std::uint32_t first = 0;  // of its messages, those of the first level
  };
  struct alignas(64) Submissions {
    std::atomic<bool> locked{false};
    std::vector<CommitQueue::Item> items;
    Step step;
    void lock();
    void unlock() { locked.store(false, std::memory_order_release); }
  };
  // Per sender of the process, where steps_: its message, as of the collection `epoch` (Coordinator::epoch_), so
  // that a level's tasks read their senders' messages in order from one array. An entry of an earlier collection
  // holds nothing: none is ever cleared. A task sets `p` to null once it has placed it.
  struct StepSlot {
    std::uint64_t epoch = 0;
    Pending* p = nullptr;
  };
  static constexpr std::size_t kSubmissionLists = 8;  // the least number of lists
  Submissions& submissions_here();  // the calling thread's list
  // Where steps_: what `i` (about to go into `list` as its last item) makes of the list's step.
  void note_step(Submissions& list, const CommitQueue::Item& i);

  // Placing while other workers run (place_early). Per home (the nodes in blocks of consecutive indices, one per
  // worker, as Engine::home has them): how many of its nodes may run (woken and not yet counted as parked: a park
  // counted late only keeps it high), and no earlier than the least event that woke one of them since it last had
  // none. Written under its lock by wakers and by the worker that counts parks; read under it by the placer.
  struct alignas(64) HomeRunning {
    std::atomic<bool> locked{false};
    int running = 0;
    Time floor = kNever;
  };

  const PlacerContext& run_;
  // Read on every wake-up and park, written only by start(): not beside placing_, which every pass writes.
  bool early_ = false;  // placing while other workers run (place_early)
  // On k:N ports, not placing early, in one process or with the links shared out among the ranks (each placing its
  // own senders' transfers): a queued transfer's lead leaves out its release, which counts only where its sender
  // waits for one (take_batch, window_message).
  bool leads_past_release_ = false;
  std::vector<HomeRunning> homes_running_;  // per home, when early_
  std::chrono::steady_clock::time_point origin_;
  // The parks a worker put off counting while it had another node to run (node_parked), each on a line of its own.
  struct alignas(64) PutOff {
    int parks = 0;
    std::vector<int> by_home;  // of those, per home of the node that parked (early_ only)
  };
  std::vector<PutOff> put_off_;  // per worker of the task engine; empty under others
  void stopped(int nodes);  // so many nodes stopped running
  alignas(64) std::atomic<int> running_{0};
  std::atomic<int> unfinished_{0};
  std::vector<Submissions> submissions_;
  // A step of pairs taken whole from the lists, where every pass can start with one (take_step): in one process, on
  // the task engine, circuit switching on the cube, leads that do not depend on a wait, placing_share_from above 0.
  bool steps_ = false;
  struct StepTask {  // a task of a step's level: a run of senders, counted from the process's first node
    int from, to;
  };
  // The collections of submissions, counted: raised only with every list locked (take_step), so a submitter reads it
  // under its own list's lock. The slots are two: the submitters write one while a step's tasks read the other.
  std::uint64_t epoch_ = 1;
  std::vector<StepSlot> step_slots_[2];
  int slots_written_ = 0;  // which of them the submitters write; changes hands with every list locked
  // The step taken: the collection it was taken from and the slots holding its messages; how many it has, of those
  // how many in the first level, their least lead, their ready time and the mask's highest bit.
  std::uint64_t step_epoch_ = 0;
  std::vector<StepSlot>* step_slots_taken_ = nullptr;
  std::uint32_t step_messages_ = 0, step_first_ = 0;
  Time step_least_lead_ = kNever;
  Time step_ready_ = 0;
  int step_high_bit_ = 0;
  std::vector<StepTask> step_tasks_;
  int step_level_ = 0;  // the level being placed: 0 for all, else 1 or 2
  void place_step_task(const StepTask& t, Lane& lane);
  std::vector<CommitQueue::Item> taken_;  // the one placing owns it
  alignas(64) std::atomic<bool> placing_{false};
  std::atomic<bool> recheck_{false};
  std::vector<int> home_first_;  // per home: the index of its first node
  // Raised before every count of parks, so that the placer, which reads the homes one after another, can tell that
  // its reading may have missed a node woken by one that has parked since (early_horizon).
  alignas(64) std::atomic<std::uint64_t> parks_counted_{0};
  std::uint64_t early_passes_ = 0;
  bool placing_early_ = false;  // the placer's, in place_early
  double early_seconds_ = 0;
  CommitQueue queue_;  // the one placing owns it
  // The current batch, in key order (a placed message's entry is set to null), and its scratch, all the placer's.
  std::vector<Message*> batch_;
  struct Ends {
    int source, destination;  // CommitQueue::Item::destination: -1 where not known
    std::uint32_t hop;        // under store-and-forward, the hop its placing books (its key's step)
  };
  std::vector<Ends> ends_;  // per message of the batch, from its queue item
  std::vector<std::uint32_t> level_;  // per message of the batch
  std::vector<std::uint32_t> order_;  // the batch's indices by level, then key
  std::vector<std::uint32_t> level_start_;
  std::vector<std::uint32_t> cursor_;  // per level while order_ is filled, per home while by_home_ is
  std::vector<std::uint32_t> home_;  // per message of the batch: its sender's home
  std::vector<std::uint32_t> homes_;  // per node of this process: Engine::home, asked at a run's first levels
  std::vector<std::uint32_t> by_home_;  // a shared level's indices by home, then level order
  std::vector<std::uint32_t> task_from_;  // a level's tasks: where each starts in its list, then the list's end
  std::vector<int> group_first_;  // a shared level's first task of each home, then the number of tasks
  // Two bytes, so that the marks of a large cube stay few lines: the levels' pass misses on little else, and the
  // placer may be on another core than the last pass's.
  struct Mark {
    std::uint8_t batch = 0;  // the batch that last used the resource, counted from 1 and wrapping
    std::uint8_t level = 0;  // its latest level in that batch
  };
  static constexpr std::uint32_t kMaxLevels = 255;  // more, and the batch is placed in key order
  std::vector<Mark> marks_;  // per resource: the nodes, then the links
  std::uint8_t batch_number_ = 0;
  bool pairs_ = false;  // the batch's levels are xor_levels' two (place_batch holds their wake-ups)
  std::vector<Lane> lanes_;
  std::vector<CommitQueue::Item> forwarded_;  // the lanes' forwarded messages, on their way into queue_
  // After a booking of the batch failed: only what comes before it is placed (place_batch).
  timing::OrderKey place_below_ = timing::OrderKey::infinity();
  // The run's failure, where it is a booking that failed here: its key (RoundHeads).
  timing::OrderKey failed_key_ = timing::OrderKey::infinity();
  void fail_placing(const Lane& failed);  // the lane's failure, the run's unless it failed already
  // Spread over ranks.
  bool stopped_ = false;
  bool partitioned_ = false;
  bool each_hop_ = false;    // store-and-forward: each hop is a booking of its own, of one link
  bool hops_apart_ = false;  // partitioned_ and each_hop_
  bool books_links_ = true;  // false under LogGP: nothing is shared between ranks but the messages
  bool keep_failed_ = false;  // continue_on_own_links: a booking that fails leaves its message in the batch
  int cube_d_ = 0;
  // Per node x: the least dimension whose link from x is reached from several ranks, and every higher one is too
  // (cube_d_: none). Over 2^j ranks, d - j + 1 for every node.
  std::vector<std::uint8_t> shared_from_;
  // A booking of a shared link, as it goes to the other ranks: one hop's link (store-and-forward), or where `link` is
  // -1 a circuit's whole route, which follows from its two ends.
  struct SharedBooking {
    timing::OrderKey key;
    int destination;
    int link;
    Time start, end;
  };
  std::vector<SharedBooking> booked_shared_;  // this rank's, not yet sent
  std::vector<SharedBooking> shared_;  // window_message's: this rank's bookings of the window that take shared links
  std::vector<CommitQueue::Item> window_;  // this rank's items taken in a round, in key order
  std::vector<Wire> to_rank_;  // per rank: the messages placed here for its nodes in this round
  std::uint64_t passes_ = 0, transfers_placed_ = 0, horizons_answered_ = 0;  // written by the placer only
  std::uint64_t batches_ = 0, steps_whole_ = 0, transfers_shared_ = 0, shared_levels_ = 0;
  Time least_lead_ = kNever;
  double placing_seconds_ = 0, shared_seconds_ = 0;
  std::uint64_t rounds_ = 0;  // every rank's nodes have finished, or the run failed or deadlocked
  std::uint64_t phases_ = 0;
  double waiting_seconds_ = 0;
  // Calls f, a pass of placing, and in a timed run counts its host time as placing, here and in the engine's
  // statistics (Engine::charge_placing); returns that time (0 untimed).
  template <class F>
  double time_placing(F&& f);
  // Calls f (a collective or an exchange with the other ranks) and, in a timed run, adds its host time to
  // waiting_seconds_.
  template <class F>
  auto waiting(F&& f) {
    if (!run_.timed) return f();
    const auto start = std::chrono::steady_clock::now();
    auto result = f();
    waiting_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  }
  std::atomic<bool> barrier_complete_{false};
  Time barrier_latest_ = 0;
  std::atomic<std::int64_t> native_sent_{0};
  std::int64_t native_received_ = 0;
  bool native_changed_ = false;  // this rank did something since it last counted with the others
  bool native_counting_ = false;  // a count with the others is under way
};

}  // namespace hcemu::detail
