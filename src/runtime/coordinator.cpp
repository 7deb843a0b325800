#include "runtime/coordinator.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>

#include "runtime/message.hpp"
#include "runtime/parking.hpp"
#include "runtime/barrier.hpp"
#include "runtime/engine.hpp"
#include "runtime/run_control.hpp"
#include "runtime/transport.hpp"
#include "timing/timing_model.hpp"

namespace hcemu::detail {

namespace {

// The submission list of a host thread that is no worker's. Not inlined: a node may resume on another thread, and the
// thread's list must not be read through an address computed before a stack switch.
[[gnu::noinline]] std::size_t submission_list_of_this_thread(std::size_t lists) {
  static std::atomic<std::size_t> threads{0};
  thread_local const std::size_t thread = threads.fetch_add(1, std::memory_order_relaxed);
  return thread % lists;
}

// Set on the thread that places, while it places: the nodes it has woken, counted as running at the end of the pass.
thread_local int* woken_in_pass = nullptr;

// Not inlined, for the same reason as above: a node that wakes another may itself have resumed on another thread.
[[gnu::noinline]] int* woken_in_pass_of_this_thread() { return woken_in_pass; }
[[gnu::noinline]] void set_woken_in_pass(int* count) { woken_in_pass = count; }

}  // namespace

Coordinator::WokenBy::WokenBy(int* count) : saved_(woken_in_pass_of_this_thread()) { set_woken_in_pass(count); }
Coordinator::WokenBy::~WokenBy() { set_woken_in_pass(saved_); }

void Coordinator::count_woken(int woken) {
  if (woken == 0) return;
  if (int* count = woken_in_pass_of_this_thread())
    *count += woken;
  else
    running_.fetch_add(woken, std::memory_order_seq_cst);
}

namespace {

// Held for a few stores: a thread that finds it taken spins a little, then gives way (one OS thread per node may have
// preempted the holder).
void spin_lock(std::atomic<bool>& locked) {
  for (int spins = 0; locked.exchange(true, std::memory_order_acquire);)
    while (locked.load(std::memory_order_relaxed))
      if (++spins > 64) std::this_thread::yield();
}
void spin_unlock(std::atomic<bool>& locked) { locked.store(false, std::memory_order_release); }

}  // namespace

void Coordinator::Submissions::lock() { spin_lock(locked); }  // held for a push_back or a swap

void Coordinator::start(int nodes) {
  const int workers = std::max(0, run_.engine.workers());
  put_off_.assign(static_cast<std::size_t>(workers), PutOff{});
  // Placing while other workers run needs every event that a running node brings to another either to come strictly
  // later than that node's clock (place_early), as a transfer its sender places does when it has a lead
  // (sender_places keeps those without one in the queue), or not to come while the placer places (a barrier's
  // release, barrier_complete).
  early_ = run_.early && !distributed() && run_.ordered && workers > 1 && nodes >= workers;
  homes_running_ = std::vector<HomeRunning>(early_ ? static_cast<std::size_t>(workers) : 0);
  home_first_.assign(homes_running_.size(), 0);
  if (early_) {
    for (int i = nodes - 1; i >= 0; --i) {  // at the start every node runs, from model time 0
      HomeRunning& h = homes_running_[static_cast<std::size_t>(home_of_slot(i))];
      ++h.running;
      h.floor = 0;
      home_first_[static_cast<std::size_t>(home_of_slot(i))] = i;
    }
    for (PutOff& p : put_off_) p.by_home.assign(homes_running_.size(), 0);
  }
  parks_counted_.store(0, std::memory_order_relaxed);
  early_passes_ = 0;
  early_seconds_ = 0;
  homes_.clear();  // asked of the engine once it runs (level_batch)
  running_.store(nodes, std::memory_order_relaxed);
  unfinished_.store(nodes, std::memory_order_relaxed);
  taken_.clear();
  placing_.store(false, std::memory_order_relaxed);
  recheck_.store(false, std::memory_order_relaxed);
  queue_.clear();
  stopped_ = false;
  rounds_ = phases_ = 0;
  waiting_seconds_ = 0;
  passes_ = transfers_placed_ = horizons_answered_ = 0;
  batches_ = steps_whole_ = transfers_shared_ = shared_levels_ = 0;
  least_lead_ = kNever;
  placing_seconds_ = shared_seconds_ = 0;
  native_sent_.store(0, std::memory_order_relaxed);
  native_received_ = 0;
  native_changed_ = native_counting_ = false;
  barrier_complete_.store(false, std::memory_order_relaxed);
  barrier_latest_ = 0;
  // The links partitioned among the ranks (coordinator_partition.cpp): on the cube, where each booking's lead
  // bounds its events, and on any topology where transfers book no link. A rank also keeps only the links its senders
  // reach.
  cube_d_ = run_.timing.topology().ecube_dimension();
  using Leads = timing::TransferModel::Leads;
  const Leads leads = run_.timing.leads();
  books_links_ = leads != Leads::no_links;
  partitioned_ = distributed() && run_.ordered && leads != Leads::none && (cube_d_ > 0 || !books_links_);
  each_hop_ = leads == Leads::each_hop;
  leads_past_release_ = run_.timing.several_outputs() && !early_ && (!distributed() || partitioned_);
  hops_apart_ = partitioned_ && each_hop_;
  steps_ = !distributed() && run_.ordered && !early_ && workers >= 1 && run_.share_from > 0 && cube_d_ > 0 &&
           leads == Leads::whole_route && !leads_past_release_;
  // The lists: one per worker, and at least kSubmissionLists.
  const auto lists = std::max<std::size_t>(kSubmissionLists, static_cast<std::size_t>(workers));
  if (submissions_.size() != lists) submissions_ = std::vector<Submissions>(lists);
  for (Submissions& list : submissions_) {
    list.items.clear();
    list.step = Step{};
  }
  for (std::vector<StepSlot>& slots : step_slots_) slots.assign(steps_ ? static_cast<std::size_t>(nodes) : 0, {});
  epoch_ = 1;
  if (partitioned_ && books_links_) {
    find_shared_links();
    run_.timing.keep_links_from(run_.first_node, run_.local_nodes);
  }
  booked_shared_.clear();
  window_.clear();
  failed_key_ = timing::OrderKey::infinity();
}

// The link of dimension k from node x is crossed only by routes from the sources that agree with x in bits k and up
// (coordinator_partition.cpp): the aligned block of 2^k ids around x. It is shared when that block holds nodes of
// two ranks or more. Blocks grow with k, so per node one dimension tells it: the least k at which its block passes
// the ends of its own rank's ids (cube_d_ where none does). Over 2^j ranks that is d - j + 1 for every node.
void Coordinator::find_shared_links() {
  const int n = 1 << cube_d_;
  if (shared_from_.size() == static_cast<std::size_t>(n)) return;  // the machine's, found at its first run
  std::vector<int> first(static_cast<std::size_t>(run_.transport->ranks()) + 1, n);  // each rank's first id
  for (int id = n - 1; id >= 0; --id) first[static_cast<std::size_t>(rank_of(id))] = id;
  shared_from_.assign(static_cast<std::size_t>(n), static_cast<std::uint8_t>(cube_d_));
  for (int x = 0, r = 0; x < n; ++x) {
    while (x >= first[static_cast<std::size_t>(r) + 1]) ++r;
    const int lo = first[static_cast<std::size_t>(r)], hi = first[static_cast<std::size_t>(r) + 1];
    for (int k = 1; k < cube_d_; ++k) {
      const int base = x & ~((1 << k) - 1);
      if (base < lo || base + (1 << k) > hi) {
        shared_from_[static_cast<std::size_t>(x)] = static_cast<std::uint8_t>(k);
        break;
      }
    }
  }
}

int Coordinator::rank_of(int id) const {
  if (run_.transport == nullptr) return 0;
  const std::int64_t r = run_.transport->ranks(), n = static_cast<std::int64_t>(run_.nodes.size());
  return static_cast<int>(((static_cast<std::int64_t>(id) + 1) * r - 1) / n);
}

bool Coordinator::sender_places(const Message& m) const {
  return (!distributed() || (partitioned_ && is_local(m.destination))) &&
         (!early_ || run_.timing.least_lead(m.transfer) > 0);
}

void Coordinator::forward_placed(Message* m) {
  if (is_local(m->destination)) {
    node(m->destination).deliver(m);
    return;
  }
  // Native timing, spread over ranks: sent to the receiver's rank at once.
  std::unique_ptr<Message, void (*)(Message*)> owned(m, &Message::destroy);
  send_now(*m);
}

bool Coordinator::barrier_complete(Time latest_entry) {
  if (distributed()) {
    // Released at a round with every rank (coordinator_ranks.cpp); read by the round, which starts only once this
    // node has parked.
    barrier_latest_ = latest_entry;
    barrier_complete_.store(true, std::memory_order_seq_cst);
    return false;
  }
  const Time release = run_.timing.barrier_release(latest_entry);
  // Where the placer places while nodes run, not meanwhile: a release may come at the clock of the node that brings
  // it (a barrier without cost), and wake nodes of lower index that place_early took for parked (start()).
  if (early_)
    while (placing_.exchange(true, std::memory_order_acq_rel)) std::this_thread::yield();
  run_.barrier.release(release);
  for (Parking* n : run_.nodes) n->notify(release);
  if (early_) {
    placing_.store(false, std::memory_order_seq_cst);
    if (recheck_.load(std::memory_order_seq_cst)) on_quiescent();
  }
  return true;
}

Time Coordinator::lead_of(const Message& m) const {
  const Time lead =
      leads_past_release_ ? run_.timing.lead_past_release(m.transfer) : run_.timing.least_lead(m.transfer);
  return std::min(lead, run_.lead_limit);
}

CommitQueue::Item Coordinator::queue_item(Message* m) const {
  return {m->key, m, lead_of(*m), m->destination,
          hops_apart_ ? run_.timing.leads_to_wake(m->transfer) : 1};
}

void Coordinator::submit(Pending* p) {
  const CommitQueue::Item item = p->kind == Pending::Kind::message
                                     ? queue_item(static_cast<Message*>(p))
                                     : CommitQueue::Item{p->key, p, CommitQueue::kHorizon};
  Submissions& list = submissions_here();
  list.lock();
  if (steps_) note_step(list, item);
  list.items.push_back(item);
  list.unlock();
}

Coordinator::Submissions& Coordinator::submissions_here() {
  const auto w = static_cast<std::size_t>(task_worker_of_this_thread());  // -1 (no worker's) is the largest
  return submissions_[w < submissions_.size() ? w : submission_list_of_this_thread(submissions_.size())];
}

void Coordinator::take_submissions(std::vector<CommitQueue::Item>& into) {
  for (Submissions& list : submissions_) {
    list.lock();
    if (into.empty())
      into.swap(list.items);  // capacities change hands
    else
      into.insert(into.end(), list.items.begin(), list.items.end());
    list.items.clear();
    list.unlock();
  }
}

void Coordinator::queue_submissions() {
  take_submissions(taken_);
  queue_.push_batch(taken_);
}

bool Coordinator::submissions_waiting() {
  bool waiting = false;
  for (Submissions& list : submissions_) {
    list.lock();
    waiting = waiting || !list.items.empty();
    list.unlock();
  }
  return waiting;
}

void Coordinator::node_woken(int slot, Time event) {
  if (early_) {
    HomeRunning& h = homes_running_[static_cast<std::size_t>(home_of_slot(slot))];
    spin_lock(h.locked);
    ++h.running;
    h.floor = std::min(h.floor, event);
    spin_unlock(h.locked);
  }
  if (int* count = woken_in_pass_of_this_thread())
    ++*count;
  else
    running_.fetch_add(1, std::memory_order_seq_cst);
}

void Coordinator::node_may_issue_from(int slot, Time event) {
  if (!early_) return;
  HomeRunning& h = homes_running_[static_cast<std::size_t>(home_of_slot(slot))];
  spin_lock(h.locked);
  // Also while the home counts none: a node that another waker is letting go is counted only once that waker has
  // taken this lock, and a floor lowered for a home with none running only holds placing back until it has none
  // again.
  h.floor = std::min(h.floor, event);
  spin_unlock(h.locked);
}

// A node that parks while its worker has another node queued to run after it is counted later, with the other parks
// of that worker, once the worker's queue runs dry (worker_dry) or a node parks with none behind it: so the count of
// running nodes, a line every worker writes, is written about once per worker and step of a lockstep kernel rather
// than once per node. It only stays higher for a while, so no pass starts early; and a worker's queue runs dry
// before it waits, so every put-off park is counted before all could be found parked.
void Coordinator::node_parked(int slot) {
  bool more = false;
  const int w = put_off_.empty() ? -1 : run_.engine.running_worker(more);
  if (w < 0 || static_cast<std::size_t>(w) >= put_off_.size()) {
    if (early_) {
      parks_counted_.fetch_add(1, std::memory_order_seq_cst);  // as count_parks
      uncount_parks(static_cast<std::size_t>(home_of_slot(slot)), 1);
    }
    return stopped(1);
  }
  PutOff& mine = put_off_[static_cast<std::size_t>(w)];
  ++mine.parks;
  if (early_) ++mine.by_home[static_cast<std::size_t>(home_of_slot(slot))];
  if (!more) worker_dry(w);  // none behind it: count them all now
}

void Coordinator::worker_dry(int w) {
  if (static_cast<std::size_t>(w) >= put_off_.size()) return;
  PutOff& mine = put_off_[static_cast<std::size_t>(w)];
  if (mine.parks == 0) return;
  const int n = mine.parks;
  mine.parks = 0;
  if (early_) count_parks(mine.by_home);
  stopped(n);
  if (early_) place_early();
}

int Coordinator::home_of_slot(int slot) const {
  return home_block(slot, run_.local_nodes, static_cast<int>(homes_running_.size()));
}

void Coordinator::count_parks(std::vector<int>& by_home) {
  // First: a placer that reads a home after this count has changed it then reads the raised number too.
  parks_counted_.fetch_add(1, std::memory_order_seq_cst);
  for (std::size_t home = 0; home < by_home.size(); ++home) {
    if (by_home[home] == 0) continue;
    uncount_parks(home, by_home[home]);
    by_home[home] = 0;
  }
}

void Coordinator::uncount_parks(std::size_t home, int parks) {
  HomeRunning& h = homes_running_[home];
  spin_lock(h.locked);
  h.running -= parks;
  if (h.running == 0) h.floor = kNever;  // none of its nodes runs: the next one woken sets it
  spin_unlock(h.locked);
}

void Coordinator::stopped(int nodes) {
  if (running_.fetch_sub(nodes, std::memory_order_seq_cst) == nodes) on_quiescent();
}

void Coordinator::node_done(int slot) {
  unfinished_.fetch_sub(1, std::memory_order_seq_cst);
  node_parked(slot);
}

template <class F>
double Coordinator::time_placing(F&& f) {
  if (!run_.timed) {
    f();
    return 0;
  }
  const auto start = std::chrono::steady_clock::now();
  f();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  placing_seconds_ += seconds;
  run_.engine.charge_placing(seconds);
  return seconds;
}

// Nobody runs. One node at a time places transfers; a node that finds another placing leaves a note, and the placer
// looks again before it lets go.
void Coordinator::on_quiescent() {
  recheck_.store(true, std::memory_order_seq_cst);
  while (recheck_.load(std::memory_order_seq_cst)) {
    if (placing_.exchange(true, std::memory_order_acq_rel)) return;  // the placer will see the note
    recheck_.store(false, std::memory_order_seq_cst);
    time_placing([&] {
      if (distributed()) {
        // Every rank takes part in every round until the run ends everywhere, even when none of its nodes is left.
        if (running_.load(std::memory_order_seq_cst) == 0 && !stopped_) {
          ++passes_;
          if (partitioned_) partitioned_round();
          else if (run_.ordered) round();
          else native_progress();
          if (!stopped_ && running_.load(std::memory_order_seq_cst) == 0)
            recheck_.store(true, std::memory_order_seq_cst);
        }
      } else if (running_.load(std::memory_order_seq_cst) == 0 && !run_.control.aborted()) {
        ++passes_;
        place_in_order();
      }
    });
    placing_.store(false, std::memory_order_seq_cst);
  }
}

// Placing while other workers run. A node that runs issues nothing ready before the event that woke it (its clock
// is no earlier), and a node of home h has an index no lower than h's first. So no node that runs now can issue a
// transfer before the least (floor, first index) of the homes that have a node running, and neither can a node that
// such a node wakes: a transfer its sender places arrives strictly after the sender's clock (sender_places), and a
// barrier is not released while this pass runs (barrier_complete). A parked node runs again only when a placing wakes
// it, and the placer is this one. Everything below that key has been submitted already: a node submits before it
// parks, and its park is counted in its home before the placer reads it. So the transfers below it can be placed now,
// in key order, as a pass at quiescence would place them.
void Coordinator::place_early() {
  if (running_.load(std::memory_order_seq_cst) <= 0 || run_.control.aborted()) return;
  if (placing_.exchange(true, std::memory_order_acq_rel)) return;  // the placer places, or a pass is due
  early_seconds_ += time_placing([&] {
    const timing::OrderKey below = early_horizon();  // before the submissions are taken
    queue_submissions();
    if (queue_.empty() || !(queue_.top_key() < below)) return;
    ++passes_;
    ++early_passes_;
    placing_early_ = true;
    place_in_order(below);
    placing_early_ = false;
  });
  placing_.store(false, std::memory_order_seq_cst);
  if (recheck_.load(std::memory_order_seq_cst)) on_quiescent();  // the last node parked meanwhile
}

// The homes are read one after another, and a node woken by one that runs is counted in its home before the
// waker can park; the waker's park is counted after parks_counted_ is raised. Read unchanged around the reading, it
// shows no park counted meanwhile, so a node woken meanwhile by one of a home read later is seen with its waker.
timing::OrderKey Coordinator::early_horizon() {
  for (int tries = 0; tries < 3; ++tries) {
    const std::uint64_t seen = parks_counted_.load(std::memory_order_seq_cst);
    timing::OrderKey least = timing::OrderKey::infinity();
    for (std::size_t home = 0; home < homes_running_.size(); ++home) {
      HomeRunning& h = homes_running_[home];
      spin_lock(h.locked);
      if (h.running > 0) least = std::min(least, timing::OrderKey::floor_of(h.floor, home_first_[home]));
      spin_unlock(h.locked);
    }
    if (parks_counted_.load(std::memory_order_seq_cst) == seen) return least;
  }
  return timing::OrderKey::floor_of(0, 0);  // the least key of all: nothing comes before it
}

void Coordinator::place_in_order(timing::OrderKey below) {
  // The nodes this pass wakes are counted as running once, at its end, rather than one at a time on the line that
  // every node that parks writes too. Meanwhile the count can fall below zero as they park again, and no node that
  // parks takes it for the last: if it is zero once they are added, all have parked, and the placer looks again.
  struct WokenInPass {
    Coordinator& c;
    int woken = 0;
    explicit WokenInPass(Coordinator& coordinator) : c(coordinator) {
      woken_in_pass = &woken;
      c.run_.engine.begin_batch();
    }
    ~WokenInPass() { count(); }
    void count() {
      if (woken_in_pass == nullptr) return;
      c.run_.engine.end_batch();
      woken_in_pass = nullptr;
      if (woken > 0 && c.running_.fetch_add(woken, std::memory_order_seq_cst) + woken == 0)
        c.recheck_.store(true, std::memory_order_seq_cst);
      woken = 0;
    }
  } woken(*this);
  if (steps_ && take_step()) {  // a step of pairs and nothing else, as one batch
    timing::OrderKey horizon = below;
    if (!place_step(horizon)) return;
    if (run_.progress != nullptr) run_.progress->store(step_ready_, std::memory_order_relaxed);
  } else {
    queue_submissions();
    if (!place_until_woken_could_issue(below)) return;
  }
  woken.count();
  // The count first, then what waits: a node submits before it parks, so once the count has been read as zero every
  // submission is in a list. Read the other way round, a node woken in this pass could submit and park between the
  // two reads, and its transfer would be taken for never issued.
  if (running_.load(std::memory_order_seq_cst) == 0 && queue_.empty() && !submissions_waiting() &&
      unfinished_.load(std::memory_order_seq_cst) > 0 && !run_.control.aborted()) {
    // Every unfinished node is parked and nothing is left that could wake one.
    std::vector<BlockedOperation> blocked;
    for (const Parking* node : run_.nodes)
      if (node->parked()) blocked.push_back(node->blocked_operation());
    run_.control.deadlock(std::move(blocked));
  }
}

// A node parked before this pass runs again only when an event of this pass wakes it, and whatever it issues then is
// ready no earlier than that event: a message's arrival (a wait on messages ends no earlier than the arrival of the
// last one it needed, and a wait for the first of several asks for a horizon again whenever an earlier one comes), its
// own transfer's release of its output port (with a port overlap before the transfer's end, docs/model.md §14), the
// time of its horizon. So the earliest event that woke a node bounds what may still be placed (ties by node id: a
// transfer ready at the same time from a lower node comes first). Whatever else wakes a node (a barrier's release) is
// done by a node that runs, and comes later than it.
bool Coordinator::place_until_woken_could_issue(timing::OrderKey horizon) {
  Time reached = -1;  // the ready time of the latest transfer placed in this pass
  bool placed = true;
  while (placed && !queue_.empty() && queue_.top_key() < horizon && !run_.control.aborted()) {
    if (queue_.top().lead == CommitQueue::kHorizon) {
      Pending* p = queue_.pop();
      ++horizons_answered_;
      // Read before the node is told: from then on it may reuse the request (Parking::horizon_reached).
      const timing::OrderKey woken = timing::OrderKey::floor_of(p->key.ready, p->owner);
      if (node(p->owner).horizon_reached(*p)) horizon = std::min(horizon, woken);
      continue;
    }
    take_batch(horizon);  // messages, in key order (coordinator_batch.cpp)
    reached = batch_.back()->key.ready;
    placed = place_batch(horizon);
  }
  if (run_.progress != nullptr && reached >= 0) run_.progress->store(reached, std::memory_order_relaxed);
  return placed;
}

void Coordinator::discard_pending() {
  queue_submissions();
  queue_.for_each([&](Pending* p) {
    if (p->kind == Pending::Kind::message)
      Message::destroy(static_cast<Message*>(p));
    else if (!is_local(p->owner))
      delete p;  // another rank's, copied here
    else
      p->queued.store(false, std::memory_order_relaxed);
  });
  queue_.clear();
}

}  // namespace hcemu::detail
