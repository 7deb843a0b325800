// A pass of placing in batches (runtime/coordinator.hpp; the argument is in docs/engine.md, "Placing in parallel").
//
// Nothing that placing a message brings (its arrival, the end of its sender's hold on its output) comes earlier than
// its ready time plus its least lead (timing::TimingModel::least_lead; on k:N ports, where its sender waits for no
// release, TimingModel::lead_past_release, and none where it does: docs/engine.md, "Placing in parallel"). So every
// message at the front of the queue that is ready before the earliest such time of the messages ahead of it can be
// placed before any node that this placing wakes runs again: together, one batch. Within a batch, the order of
// docs/model.md §7 matters only among messages that share something a placing touches: a link of their routes (its
// bookings), their sender (its releases) or their receiver (its deliveries). Each message's level is one more than
// the latest level of an earlier message of the batch that shares one of these with it, so that the messages of a
// level share none, and the messages that share one are placed in key order, level after level, each seeing exactly
// the bookings it would see placed one at a time. A level's messages are placed at once by the placer and the workers
// that join it (Engine::share).
#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <numeric>
#include <span>

#include "runtime/coordinator.hpp"
#include "runtime/engine.hpp"
#include "runtime/message.hpp"
#include "runtime/parking.hpp"
#include "runtime/run_control.hpp"
#include "timing/timing_model.hpp"

namespace hcemu::detail {

namespace {

// A shared level goes in tasks of at most this many messages, and at least four per worker where it has enough.
constexpr std::size_t kTask = 32;

// A task of a step of pairs covers at most this many senders (Coordinator::place_step_task).
constexpr std::size_t kStepRun = 64;

// The longest e-cube route: one hop per dimension.
constexpr std::size_t kMaxRoute = 32;

}  // namespace

bool Coordinator::sharing(std::size_t messages) const {
  return !placing_early_ && run_.share_from > 0 && messages >= run_.share_from && messages >= 2 &&
         run_.engine.workers() > 1;
}

Time Coordinator::lead_as_taken(const CommitQueue::Item& i) const {
  return leads_past_release_ && node(i.key.source).waits_for_release() ? 0 : i.lead;
}

void Coordinator::take_batch(const timing::OrderKey& horizon, bool own_links) {
  batch_.clear();
  ends_.clear();
  Time bound = kNever;  // the earliest time a message of the batch can bring anything
  while (!queue_.empty()) {
    const CommitQueue::Item& next = queue_.top();
    // A horizon is answered alone, in its turn; the message itself is not read here (CommitQueue::Item::lead).
    if (!(next.key < horizon) || next.key.ready >= bound || next.lead == CommitQueue::kHorizon) break;
    if (own_links && books_shared(next)) break;
    const Time lead = lead_as_taken(next);
    least_lead_ = std::min(least_lead_, lead);
    bound = std::min(bound, next.key.ready + lead);  // both within the model's range: no overflow
    ends_.push_back({next.key.source, next.destination, next.key.step});
    batch_.push_back(static_cast<Message*>(queue_.pop()));
  }
}

int Coordinator::level_batch() {
  pairs_ = false;
  const std::size_t nodes = run_.nodes.size();
  const std::size_t resources = nodes + static_cast<std::size_t>(run_.timing.topology().link_count());
  if (marks_.size() != resources) {
    marks_.assign(resources, Mark{});
    batch_number_ = 0;
  }
  if (++batch_number_ == 0) {  // wrapped: no mark may look current
    std::fill(marks_.begin(), marks_.end(), Mark{});
    batch_number_ = 1;
  }
  level_.resize(batch_.size());
  home_.resize(batch_.size());
  if (homes_.empty()) {
    homes_.resize(static_cast<std::size_t>(run_.local_nodes));
    for (int i = 0; i < run_.local_nodes; ++i)
      homes_[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(run_.engine.home(i));
  }
  const int cube = run_.timing.topology().ecube_dimension();
  if (cube > 0) {
    if (const int levels = xor_levels(); levels > 0) return levels;
  }
  std::uint32_t levels = 0;
  // On a hypercube, a message's route comes from its two ends, which its queue item gives. Elsewhere each message is
  // read, written last on its sender's core: a few are fetched ahead, so that their misses overlap.
  const std::size_t ahead = cube > 0 ? 0 : kMessagesAhead;
  for (std::size_t i = 0; i < batch_.size() && i < ahead; ++i) fetch_message(batch_[i]);
  std::array<int, kMaxRoute> links;
  for (std::size_t i = 0; i < batch_.size(); ++i) {
    if (ahead > 0 && i + ahead < batch_.size()) fetch_message(batch_[i + ahead]);
    const int source = ends_[i].source;
    int destination = ends_[i].destination;
    std::span<const int> route;
    if (cube > 0 && destination >= 0) {
      std::size_t hops = 0;
      timing::for_each_ecube_link(cube, source, destination, [&](int link) { links[hops++] = link; });
      route = {links.data(), hops};
    } else {
      const Message& m = *batch_[i];
      destination = m.destination;
      route = {m.transfer.route.links.data(), m.transfer.route.links.size()};
    }
    // Under store-and-forward a placing is one hop: it books that hop's link, and touches its sender only on the
    // first (the release) and its receiver only on the last (the delivery).
    bool first = true, last = true;
    if (each_hop_ && !route.empty()) {
      const std::uint32_t hop = ends_[i].hop;
      first = hop == 0;
      last = hop + 1 == route.size();
      route = route.subspan(hop, 1);
    }
    home_[i] = static_cast<std::uint32_t>(home_of(source));
    std::uint32_t level = 0;
    const auto after = [&](std::size_t r) {
      if (marks_[r].batch == batch_number_) level = std::max<std::uint32_t>(level, marks_[r].level + 1U);
    };
    const auto take = [&](std::size_t r) { marks_[r] = Mark{batch_number_, static_cast<std::uint8_t>(level)}; };
    if (first) after(static_cast<std::size_t>(source));
    if (last) after(static_cast<std::size_t>(destination));
    for (int link : route) after(nodes + static_cast<std::size_t>(link));
    if (level >= kMaxLevels) return 0;
    if (first) take(static_cast<std::size_t>(source));
    if (last) take(static_cast<std::size_t>(destination));
    for (int link : route) take(nodes + static_cast<std::size_t>(link));
    level_[i] = level;
    levels = std::max(levels, level + 1);
    // So many levels that fewer than a sharing's worth of transfers are left for each: placing by level would bring
    // little but this pass, so the batch goes in key order, by the placer alone. The levels only grow, so that is
    // known as soon as they pass the whole batch's share. Looked at in the batch's first 2^k transfers too, so that
    // a batch of long chains is given up early.
    const std::size_t seen = i + 1, share = static_cast<std::size_t>(levels) * run_.share_from;
    if (share > batch_.size() || (seen >= 2 * run_.share_from && (seen & (seen - 1)) == 0 && share > seen)) return 0;
  }
  if (levels == 1) {  // the common case, and a counting sort's counts would all go to one place, one after another
    in_key_order();
    return 1;
  }
  // By level, and within a level in key order (a counting sort, stable).
  level_start_.assign(levels + 1, 0);
  for (std::uint32_t level : level_) ++level_start_[level + 1];
  for (std::uint32_t l = 0; l < levels; ++l) level_start_[l + 1] += level_start_[l];
  order_.resize(batch_.size());
  cursor_.assign(level_start_.begin(), level_start_.end() - 1);
  for (std::size_t i = 0; i < batch_.size(); ++i) order_[cursor_[level_[i]]++] = static_cast<std::uint32_t>(i);
  return static_cast<int>(levels);
}

// The levels of a batch of one message from each of some sources s to s ^ c, for one c: the exchange of pairs along
// c, a step of the Direct exchange and of many a hypercube algorithm (Bokhari, 1993, §2.2). Their e-cube routes
// share no link: the message from s crosses link (x, k) only where bit k of c is set and x = s ^ (c mod 2^k), the
// bits below k already corrected, and that x names s. Their senders are distinct, and so are their receivers; only
// the two messages of a pair share their two nodes, so a message goes after its partner where the partner is
// earlier: where s has the highest bit of c set, since the sources rise through the batch. A pass over the batch's
// ends, which are in the queue's items, tells it all, with no walk along the routes. 0 when the batch is not such.
int Coordinator::xor_levels() {
  const int c = ends_.front().source ^ ends_.front().destination;
  int previous = -1;
  for (const Ends& e : ends_) {
    // Sources rising show them distinct (the batch is in key order: by ready time, then source).
    if (e.destination < 0 || (e.source ^ e.destination) != c || e.source <= previous) return 0;
    previous = e.source;
  }
  const int high = c == 0 ? 0 : 1 << (std::bit_width(static_cast<unsigned>(c)) - 1);
  std::uint32_t first = 0;  // those in the first level
  for (std::size_t i = 0; i < ends_.size(); ++i) {
    home_[i] = static_cast<std::uint32_t>(home_of(ends_[i].source));
    first += (ends_[i].source & high) == 0 ? 1 : 0;
  }
  const auto n = static_cast<std::uint32_t>(ends_.size());
  // Under store-and-forward a hop touches its sender only on the first hop and its receiver only on the last
  // (level_batch). On routes of more than one hop, a pair's two messages at the same hop then share no node.
  const bool apart = each_hop_ && std::popcount(static_cast<unsigned>(c)) > 1 &&
                     std::all_of(ends_.begin(), ends_.end(), [&](const Ends& e) { return e.hop == ends_.front().hop; });
  if (first == 0 || first == n || apart) {  // no pair is whole, or its two share nothing
    in_key_order();
    return 1;
  }
  order_.resize(n);
  std::uint32_t at[2] = {0, first};
  for (std::uint32_t i = 0; i < n; ++i) order_[at[(ends_[i].source & high) == 0 ? 0 : 1]++] = i;
  level_start_.assign({0, first, n});
  pairs_ = true;
  return 2;
}

void Coordinator::in_key_order() {
  order_.resize(batch_.size());
  std::iota(order_.begin(), order_.end(), 0U);
  level_start_.assign({0, static_cast<std::uint32_t>(batch_.size())});
}

// A step of pairs (Submissions::Step): one message from each of some senders s, all ready at one time, each to
// s ^ c for one c, every one with a lead (a lead of 0, none known or none at all, has its transfer placed alone, and
// a horizon has none). take_batch would take them all as one batch, and xor_levels would give them its two levels.
// Kept up as each comes in, on the submitter's core, so that the placer need not look at them.
void Coordinator::note_step(Submissions& list, const CommitQueue::Item& i) {
  Step& step = list.step;
  if (list.items.empty()) {
    step = Step{true, i.key.ready, kNever, i.destination < 0 ? 0 : i.key.source ^ i.destination, 0, 0};
    step.high_bit = step.mask <= 0 ? 0 : 1 << (std::bit_width(static_cast<unsigned>(step.mask)) - 1);
  }
  if (!step.ok) return;
  const auto at = static_cast<std::size_t>(i.key.source - run_.first_node);
  std::vector<StepSlot>& slots = step_slots_[slots_written_];
  if (step.mask <= 0 || i.lead <= 0 || i.key.ready != step.ready || i.destination < 0 ||
      (i.key.source ^ i.destination) != step.mask || at >= slots.size() ||
      slots[at].epoch == epoch_) {  // a sender twice, in this list or another
    step.ok = false;
    return;
  }
  slots[at] = {epoch_, i.p};
  step.least_lead = std::min(step.least_lead, i.lead);
  step.first += (i.key.source & step.high_bit) == 0 ? 1 : 0;
}

// Takes the pass's step where the lists hold one step of pairs together, with one ready time and one mask, and
// nothing else is queued. Every message is in one batch (all ready at once, every lead above zero), and, as
// xor_levels has it, a message goes in the second level where its sender has the mask's highest bit set (where the
// pairs are whole). Its senders' slots hold them, in order of sender, which is key order.
bool Coordinator::take_step() {
  std::size_t messages = 0, first = 0;
  const Step* step = nullptr;
  for (Submissions& list : submissions_) list.lock();
  bool ok = queue_.empty();
  for (Submissions& list : submissions_) {
    if (!ok) break;
    if (list.items.empty()) continue;
    const Step& s = list.step;
    ok = s.ok && (step == nullptr || (s.ready == step->ready && s.mask == step->mask));
    step = &s;
    messages += list.items.size();
    first += s.first;
  }
  // Each level large enough to share, as place_level has it (on one worker the placer runs its tasks in order):
  // where one has too few, the batch goes the usual way.
  const auto level_ok = [&](std::size_t n) { return n >= run_.share_from && n >= 2 && !placing_early_; };
  ok = ok && step != nullptr && (first == 0 || first == messages ? level_ok(messages)
                                                                 : level_ok(first) && level_ok(messages - first));
  if (ok) {
    step_ready_ = step->ready;
    step_high_bit_ = step->high_bit;
    step_messages_ = static_cast<std::uint32_t>(messages);
    step_first_ = static_cast<std::uint32_t>(first);
    step_least_lead_ = kNever;
    for (Submissions& list : submissions_) {
      if (list.items.empty()) continue;
      step_least_lead_ = std::min(step_least_lead_, list.step.least_lead);
      list.items.clear();  // the slots hold the messages
    }
    // The tasks read the slots while the nodes they wake submit again: those write the other slots.
    step_epoch_ = epoch_;
    step_slots_taken_ = &step_slots_[slots_written_];
    slots_written_ ^= 1;
  }
  // A new collection, whether or not this one was taken (one not taken goes the usual way in this pass), so that a
  // sender's next message is not taken for its second in this one.
  ++epoch_;
  for (Submissions& list : submissions_) list.unlock();
  return ok;
}

bool Coordinator::place_step(timing::OrderKey& horizon) {
  ++batches_;
  ++steps_whole_;
  const std::uint32_t first = step_first_, messages = step_messages_;
  least_lead_ = std::min(least_lead_, step_least_lead_);
  // As in xor_levels: one level where no pair is whole.
  const int levels = first == 0 || first == messages ? 1 : 2;
  const int workers = run_.engine.workers();
  Lane failed;
  if (levels == 2) run_.engine.hold_wake_ups(true);  // as place_batch holds them
  for (int l = 0; l < levels && !run_.control.aborted(); ++l) {
    place_below_ = failed.failed_key;
    step_level_ = levels == 1 ? 0 : l + 1;
    const std::size_t count = levels == 1 ? messages : l == 0 ? first : messages - first;
    const std::size_t per_task = std::clamp<std::size_t>(count / (4 * static_cast<std::size_t>(workers)), 1, kTask);
    // The senders in runs that hold about per_task of the level's messages each, grouped by their home
    // (Engine::home: on the task engine, blocks of consecutive ids, one per worker).
    step_tasks_.clear();
    group_first_.clear();
    const int nodes = run_.local_nodes;
    const auto senders = static_cast<int>(std::clamp<std::size_t>(
        per_task * static_cast<std::size_t>(nodes) / std::max<std::size_t>(count, 1), 1, kStepRun));
    for (int g = 0; g < workers; ++g) {
      group_first_.push_back(static_cast<int>(step_tasks_.size()));
      const int end = home_block_first(g + 1, nodes, workers);
      for (int from = home_block_first(g, nodes, workers); from < end; from += senders)
        step_tasks_.push_back({from, std::min(end, from + senders)});
    }
    group_first_.push_back(static_cast<int>(step_tasks_.size()));
    const auto run = [](void* context, int task) {
      Coordinator& c = *static_cast<Coordinator*>(context);
      c.place_step_task(c.step_tasks_[static_cast<std::size_t>(task)], c.lanes_[static_cast<std::size_t>(task)]);
    };
    SharedTask task{run, this, group_first_.data(), workers};
    run_level(static_cast<int>(step_tasks_.size()), task, horizon);
    for (const Lane& lane : lanes_)
      if (lane.failed_key < failed.failed_key) failed.take_failure(lane);
  }
  if (levels == 2) run_.engine.hold_wake_ups(false);
  place_below_ = timing::OrderKey::infinity();
  const bool placed = failed.failed_source < 0 && !run_.control.aborted();
  // What was not placed goes back to the queue, to be freed with the rest (discard_pending).
  if (!placed)
    for (const StepSlot& slot : *step_slots_taken_)
      if (slot.epoch == step_epoch_ && slot.p != nullptr) queue_.push(queue_item(static_cast<Message*>(slot.p)));
  if (placed || failed.failed_source < 0) return true;  // placed, or aborted by a node meanwhile
  fail_placing(failed);
  return false;
}

// A run of senders: those of them with a message in the step, in the level being placed, by sender.
void Coordinator::place_step_task(const StepTask& t, Lane& lane) {
  StepSlot* const slots = step_slots_taken_->data();
  std::array<Pending**, kStepRun> found;
  std::size_t n = 0;
  for (int s = t.from; s < t.to; ++s) {
    if (step_level_ != 0 && (((run_.first_node + s) & step_high_bit_) != 0) != (step_level_ == 2)) continue;
    if (StepSlot& slot = slots[s]; slot.epoch == step_epoch_) found[n++] = &slot.p;
  }
  place_slots([&](std::size_t k) -> Pending*& { return *found[k]; }, 0, n, lane);
}

bool Coordinator::place_batch(timing::OrderKey& horizon) {
  ++batches_;
  int levels = sharing(batch_.size()) ? level_batch() : 0;
  const bool leveled = levels > 0;
  if (!leveled) {
    levels = 1;
    in_key_order();
  }
  // After a failure the later levels place only what comes before it in key order, which may fail too: the failure
  // reported is the first in model-time order, the one the placer alone, in key order, meets.
  Lane failed;
  // Pairs that exchange: a node that receives in the first level sends in the second, and on a one-port node its
  // next send waits for that one to be placed. Woken in the first, it would run only to park again: the nodes woken
  // go on once both levels are placed (Engine::hold_wake_ups). Elsewhere they go on at once, while later levels are
  // placed.
  const bool hold = leveled && pairs_;
  if (hold) run_.engine.hold_wake_ups(true);
  for (int l = 0; l < levels && !run_.control.aborted(); ++l) {
    place_below_ = failed.failed_key;
    place_level(level_start_[static_cast<std::size_t>(l)], level_start_[static_cast<std::size_t>(l) + 1], leveled,
                horizon);
    for (const Lane& lane : lanes_)
      if (lane.failed_key < failed.failed_key) failed.take_failure(lane);
  }
  if (hold) run_.engine.hold_wake_ups(false);
  place_below_ = timing::OrderKey::infinity();
  if (failed.failed_source < 0 && !run_.control.aborted()) return true;
  // What was not placed goes back to the queue, to be freed with the rest (discard_pending), or under keep_failed_
  // placed in a later round.
  for (Message* m : batch_)
    if (m != nullptr) queue_.push(queue_item(m));
  if (failed.failed_source < 0) return true;  // aborted by a node meanwhile
  if (!keep_failed_) fail_placing(failed);
  return false;
}

void Coordinator::fail_placing(const Lane& failed) {
  if (run_.control.fail(failed.failed_source, failed.error, failed.what)) failed_key_ = failed.failed_key;
}

int Coordinator::home_of(int id) const {
  return is_local(id) ? static_cast<int>(homes_[static_cast<std::size_t>(id - run_.first_node)]) : 0;
}

// A level shared with the workers goes in tasks grouped by the worker its senders run on (Engine::home, SharedTask):
// each placing then finds most of what it touches (the message, its sender's state, the links its route starts on)
// in the cache of the core that wrote it last.
void Coordinator::place_level(std::size_t begin, std::size_t end, bool leveled, timing::OrderKey& horizon) {
  const std::size_t count = end - begin;
  const bool shared = leveled && sharing(count);
  const int workers = run_.engine.workers();
  const std::size_t per_task =
      !shared ? count : std::clamp<std::size_t>(count / (4 * static_cast<std::size_t>(workers)), 1, kTask);
  task_from_.clear();
  group_first_.clear();
  const std::uint32_t* items = order_.data() + begin;
  if (shared)
    items = group_by_home(begin, end, per_task);
  else
    task_from_.assign({0, static_cast<std::uint32_t>(count)});
  const int tasks = static_cast<int>(task_from_.size()) - 1;
  struct Level {
    Coordinator* c;
    const std::uint32_t* items;  // indices into batch_
    std::size_t per_task;
  } level{this, items, per_task};
  const auto run = [](void* context, int task) {
    const Level& x = *static_cast<const Level*>(context);
    // A task ends where the next begins or its home's end, whichever is first.
    const auto t = static_cast<std::size_t>(task);
    const std::size_t from = x.c->task_from_[t];
    x.c->place_task(x.items, from, std::min<std::size_t>(x.c->task_from_[t + 1], from + x.per_task), x.c->lanes_[t]);
  };
  SharedTask task{run, &level};
  if (shared) {
    task.first = group_first_.data();
    task.groups = workers;
  }
  run_level(tasks, task, horizon);
}

void Coordinator::run_level(int tasks, SharedTask task, timing::OrderKey& horizon) {
  lanes_.assign(static_cast<std::size_t>(tasks), Lane{});
  const bool several = tasks > 1 && run_.engine.workers() > 1;  // one worker runs them in order
  const bool timed = run_.timed && several;
  const auto start = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  run_.engine.share(tasks, task);
  if (several) ++shared_levels_;
  if (timed) shared_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (Lane& lane : lanes_) {
    horizon = std::min(horizon, lane.horizon);
    transfers_placed_ += lane.placed;
    if (several) transfers_shared_ += lane.placed;
    count_woken(lane.woken);
    if (forwarded_.empty())
      forwarded_.swap(lane.forwarded);  // capacities change hands
    else
      forwarded_.insert(forwarded_.end(), lane.forwarded.begin(), lane.forwarded.end());
  }
  queue_.push_batch(forwarded_);  // a step's next hops, sorted once and merged, as submissions are
  if (partitioned_)
    for (const Lane& lane : lanes_) gather_lane(lane);
}

// By home, within a home in level order, each home's messages in tasks of per_task: the tasks' starts in task_from_,
// each home's first task in group_first_; returns the messages' indices in that order. Homes are blocks of
// consecutive ids (Engine::home), so a level in order of source (a step of pairs, xor_levels) is grouped already:
// a pass finds where each home ends. Otherwise a counting sort, whose counts go to a few words one after another.
const std::uint32_t* Coordinator::group_by_home(std::size_t begin, std::size_t end, std::size_t per_task) {
  const auto homes = static_cast<std::size_t>(run_.engine.workers());
  cursor_.assign(homes + 1, 0);
  bool grouped = true;
  for (std::size_t k = begin, previous = 0; k < end && grouped; ++k) {
    const std::size_t h = home_[order_[k]];
    grouped = h >= previous;
    previous = h;
    cursor_[h + 1] = static_cast<std::uint32_t>(k - begin + 1);  // the end of home h, so far
  }
  if (grouped) {
    for (std::size_t g = 0; g < homes; ++g) cursor_[g + 1] = std::max(cursor_[g + 1], cursor_[g]);  // empty homes
  } else {
    std::fill(cursor_.begin(), cursor_.end(), 0);
    for (std::size_t k = begin; k < end; ++k) ++cursor_[home_[order_[k]] + 1];
    for (std::size_t g = 0; g < homes; ++g) cursor_[g + 1] += cursor_[g];
  }
  for (std::size_t g = 0; g < homes; ++g) {
    group_first_.push_back(static_cast<int>(task_from_.size()));
    for (std::uint32_t k = cursor_[g]; k < cursor_[g + 1]; k += static_cast<std::uint32_t>(per_task))
      task_from_.push_back(k);
  }
  group_first_.push_back(static_cast<int>(task_from_.size()));
  task_from_.push_back(static_cast<std::uint32_t>(end - begin));
  if (grouped) return order_.data() + begin;
  by_home_.resize(end - begin);
  for (std::size_t k = begin; k < end; ++k) by_home_[cursor_[home_[order_[k]]]++] = order_[k];
  return by_home_.data();
}

template <class SlotAt>
void Coordinator::place_slots(SlotAt at, std::size_t from, std::size_t to, Lane& lane) {
  WokenBy counting(&lane.woken);
  run_.engine.begin_batch();  // the nodes it wakes reach their workers in groups
  const auto message = [&](std::size_t k) { return static_cast<Message*>(at(k)); };
  for (std::size_t k = from; k < to && k < from + kMessagesAhead; ++k) fetch_message(message(k));
  const bool limited = place_below_ < timing::OrderKey::infinity();
  for (std::size_t k = from; k < to && !run_.control.aborted(); ++k) {
    if (k + kMessagesAhead < to) fetch_message(message(k + kMessagesAhead));
    if (k + kEndsAhead < to) fetch_ends(*message(k + kEndsAhead));
    auto& slot = at(k);
    Message* m = static_cast<Message*>(slot);
    if (limited && !(m->key < place_below_)) break;  // after a failure: the rest of the task comes later in key order
    slot = nullptr;
    if (!place_one(m, lane)) {
      if (keep_failed_) slot = m;  // unplaced, back to the queue
      break;
    }
  }
  run_.engine.end_batch();
}

// One task of a level: the messages batch_[items[k]] for k in [from, to), in order, on whichever worker runs it.
void Coordinator::place_task(const std::uint32_t* items, std::size_t from, std::size_t to, Lane& lane) {
  place_slots([&](std::size_t k) -> Message*& { return batch_[items[k]]; }, from, to, lane);
}

// A message's placing reads its header and route, and writes its sender's slot and parking and its receiver's
// parking, all last written on other cores or long ago: they are fetched a few messages ahead, the message first and
// the places it names later, once its line is in (a miss there would wait for the earlier ones' stores to drain at
// the parkings' sequentially consistent counts).
// fetch_message serves the levels' pass too, which reads the header and the route.
void Coordinator::fetch_message(const Message* m) {
  __builtin_prefetch(m);
  __builtin_prefetch(&m->transfer.route);
  __builtin_prefetch(&m->sender);
}

void Coordinator::fetch_ends(const Message& m) {
  __builtin_prefetch(m.sender, 1);
  __builtin_prefetch(&node(m.source), 1);
  if (is_local(m.destination)) __builtin_prefetch(&node(m.destination), 1);  // spread over ranks: maybe elsewhere
}

bool Coordinator::place_one(Message* m, Lane& lane) {
  const int link = hops_apart_ ? booked_link(*m) : -1;  // before the commit moves on to the next hop
  timing::CommitStep step;
  try {
    step = run_.timing.commit(m->transfer, m->key.ready);
  } catch (const std::exception& e) {  // the run leaves the model's range: the sender's transfer is the cause
    if (m->key < lane.failed_key) {
      lane.failed_key = m->key;
      lane.failed_source = m->source;
      lane.error = std::current_exception();
      lane.what = e.what();
    }
    if (!keep_failed_) Message::destroy(m);  // a booking that fails changes nothing (LinkTable::book)
    return false;
  }
  if (partitioned_) booked_for_ranks(*m, link, lane);
  const auto event = [&](bool woke, Time t, int node) {
    if (woke) lane.horizon = std::min(lane.horizon, timing::OrderKey::floor_of(t, node));
  };
  if (step.sender_released) {
    Time released = run_.timing.release_event(m->times(), m->key.ready);
    const bool woke = node(m->source).transfer_released(*m, released);
    event(woke, released, m->source);
  }
  if (step.arrived) {
    ++lane.placed;
    if (partitioned_ && arrived_for_ranks(m, lane)) return true;  // for another rank's node, delivered there
    const Time arrival = m->times().arrival;
    const int receiver = m->destination;
    event(node(receiver).deliver(m), arrival, receiver);  // m is the receiver's now
  } else if (step.more) {
    // A store-and-forward hop: the next one is queued once the level is placed (place_level), by the placer.
    m->key = m->transfer.key;
    lane.forwarded.push_back(queue_item(m));
  }
  return true;
}

}  // namespace hcemu::detail
