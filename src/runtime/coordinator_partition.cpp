// Placing transfers in model time over MPI ranks, with the links partitioned among the ranks (docs/mpi.md).
//
// Which senders reach a link. On the d-cube a route corrects the bits where its ends differ from the lowest up
// (e-cube routing), so the link of dimension k from node a is crossed only by routes whose source agrees with a in
// bits k and up: the aligned block of 2^k ids around a. Spread over ranks in blocks of consecutive ids, the link is
// shared when that block holds nodes of several ranks (Coordinator::find_shared_links). Over R = 2^j ranks a rank's
// nodes are those of one value of the top j bits, so a link of dimension k <= d - j is reached by the senders of one
// rank only, the rank of its node, and a link of a higher dimension by the senders of 2^(k - d + j) ranks (on 2
// ranks, none is shared); over other counts, blocks that straddle a rank's ends share lower dimensions too. Each rank
// places its own senders' transfers, on its copy of the links they reach; it counts the contention of what it
// places, and the report adds every rank's links up. Of the others' bookings it needs only those of shared links.
//
// Under store-and-forward each hop is a booking of its own, of one link of the route; every link of a route from s
// lies in one of s's aligned blocks, so a message's hops are all placed by its sender's rank, one round after another,
// and a hop's booking of a shared link goes to the others with its link.
//
// A round starts, as in coordinator_ranks.cpp, when no node runs on any rank (it is one all-gather). Under circuit
// switching every event of a transfer ready at r (its arrival, its sender's release) comes at r + its duration or later
// (its least lead), to its sender or its receiver; under store-and-forward every event of a hop (the next hop, the
// sender's release, the arrival) comes at r + its first packet's time on a link or later, so no transfer that a node
// issues after the round comes before B = the least, over every rank's waiting transfers, of (ready + lead, the lower
// of its ends). Each rank brings its part of B, its least key (a transfer with no lead is placed alone, as one process
// places the least key before it looks at its events) and its least horizon request (answered once everything before it
// is placed, which then bounds the round, as in one process). The window is what comes before all three, the same on
// every rank.
//
// Every rank places its part of the window in key order; what remains is that a link's bookings go in key order
// across ranks. On a rank's own links they do. For shared links, each rank brings the key and receiver of every
// transfer of its window that reaches one, so every rank knows each shared link's bookings of the round, in key
// order. Where a shared link has bookings from two ranks, a rank places a transfer only once every booking before it
// on its shared links is known here, and nothing before it on its own links waits; the ranks then exchange the
// bookings they made (one all-gather, a phase) and go on, until the whole window is placed. The least unplaced
// transfer of all is always free to go, so every phase places something. Where no shared link has bookings from two
// ranks, no phase is needed: the bookings travel with the next round. Last, each rank sends the messages it placed
// for another's nodes (header, times and payload) to that rank, which delivers them.
#include <algorithm>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "runtime/barrier.hpp"
#include "runtime/coordinator.hpp"
#include "runtime/message.hpp"
#include "runtime/parking.hpp"
#include "runtime/run_control.hpp"
#include "runtime/transport.hpp"
#include "timing/timing_model.hpp"
#include "timing/wiring.hpp"

namespace hcemu::detail {

struct Coordinator::SharedUse {
  int link;
  timing::OrderKey key;
  int rank;
  friend bool operator<(const SharedUse& a, const SharedUse& b) {
    return std::tie(a.link, a.key) < std::tie(b.link, b.key);
  }
};

namespace {

using timing::OrderKey;

// No event the transfer's placing brings comes before this, and so no transfer that a node it wakes issues. With
// `leads` = its wake_leads: no event that can wake a node, its next hops' included.
OrderKey lead_bound(const CommitQueue::Item& i, std::uint32_t leads = 1) {
  const Time ready = i.key.ready;
  const Time at = i.lead > 0 && leads > (kNever - ready) / i.lead ? kNever : ready + i.lead * leads;
  return OrderKey::floor_of(at, std::min(i.key.source, i.destination));
}


}  // namespace

// The route's link of dimension k lies in the source's block of 2^k ids, like the source's own link of dimension k:
// it is shared when k >= the source's shared_from_. The route's highest dimension is that of the ends' highest
// differing bit.
bool Coordinator::reaches_shared(int source, int destination) const {
  if (!books_links_) return false;
  const unsigned from = shared_from_[static_cast<std::size_t>(source)];
  return from < static_cast<unsigned>(cube_d_) && (static_cast<unsigned>(source ^ destination) >> from) != 0;
}

int Coordinator::booked_link(const Message& m) {
  const timing::Forwarding& f = m.transfer.forwarding;
  return f.active() ? m.transfer.route.links[f.hop] : -1;
}

std::span<const int> Coordinator::booked_links(const Message& m) {
  const auto& links = m.transfer.route.links;
  const timing::Forwarding& f = m.transfer.forwarding;
  return f.active() ? std::span<const int>(&links[f.hop], 1) : std::span<const int>(links.data(), links.size());
}

template <class F>
void Coordinator::for_each_shared(int source, int destination, int link, F&& f) const {
  if (link >= 0) {
    if (shared_link(link)) f(link);
    return;
  }
  timing::for_each_ecube_link(cube_d_, source, destination, [&](int l) {
    if (shared_link(l)) f(l);
  });
}

void Coordinator::copy_shared(const SharedBooking& b) {
  for_each_shared(b.key.source, b.destination, b.link, [&](int link) {
    if (run_.timing.keeps_link(link))  // one this rank's senders reach
      run_.timing.copy_booking(link, b.start, b.end, b.key.source, b.key.ready);
  });
}

// What a round brings, read from every rank's part of the all-gather.
struct Coordinator::PartitionRound {
  RoundHeads heads;
  OrderKey first = OrderKey::infinity();         // the least key of all
  OrderKey lead_horizon = OrderKey::infinity();  // the least (ready + lead, lower end) of all
  OrderKey wake = OrderKey::infinity();  // the least (ready + lead * wake_leads, lower end) of all
  OrderKey first_request = OrderKey::infinity();
  OrderKey barrier_horizon = OrderKey::infinity();  // a barrier released in the round: what its nodes may issue
  std::vector<OrderKey> least_to, least_from;  // per rank: the least key of a message taken for its nodes, of ours
  std::vector<SharedBooking> copies;            // the other ranks' bookings of shared links since the last round
  struct Header {
    OrderKey key;
    int destination, link, rank;  // link: as in SharedBooking
  };
  std::vector<Header> headers;  // every rank's bookings taken that reach a shared link
  bool in_window(const OrderKey& k) const {
    return (k < lead_horizon || k == first) && k <= first_request && k < barrier_horizon;
  }
  // Below this no node can be woken on any rank, nor ask for anything: under store-and-forward a rank goes on placing
  // its hops on its own links up to it, once the window is placed (continue_on_own_links). Under circuit switching it
  // is no later than the window's end.
  OrderKey own_bound() const { return std::min({wake, first_request, barrier_horizon}); }
  // Whether a message for another rank's node with this key may be placed in the round: the two ranks then exchange
  // the round's messages.
  bool delivers(const OrderKey& k) const { return in_window(k) || k < own_bound(); }
};

void Coordinator::partitioned_round() {
  Transport& transport = *run_.transport;
  ++rounds_;
  queue_submissions();
  PartitionRound round;
  Wire mine = window_message(round);
  read_round(waiting([&] { return transport.all_gather(mine.bytes()); }), round);
  const auto put_back = [&] {  // the window, untouched, for discard_pending to free
    for (const CommitQueue::Item& i : window_) queue_.push(i);
    window_.clear();
  };
  if (round.heads.failed) {  // every rank reports the first rank's failure
    put_back();
    stopped_ = true;
    run_.control.fail_as(round.heads.failed_node, round.heads.failed_what);
    return;
  }
  bool released = false;
  if (round.heads.barrier_ranks == transport.ranks()) {
    if (!release_barrier(round.heads.latest_entry, round.barrier_horizon)) return put_back();
    released = true;
  }
  if (round.first == OrderKey::infinity() && !released) {
    // Nothing to place and nobody runs anywhere: the run is over, or deadlocked.
    stopped_ = true;
    if (round.heads.unfinished > 0) report_deadlock();
    return;
  }
  // The other ranks' bookings of shared links since the last round, in key order.
  std::sort(round.copies.begin(), round.copies.end(),
            [](const SharedBooking& a, const SharedBooking& b) { return a.key < b.key; });
  for (const SharedBooking& b : round.copies) copy_shared(b);
  // This rank's part of the window: a prefix of what it took (the window is a prefix of the order).
  std::size_t taken = 0;
  while (taken < window_.size() && round.in_window(window_[taken].key)) ++taken;
  std::vector<CommitQueue::Item> rest(window_.begin() + static_cast<std::ptrdiff_t>(taken), window_.end());
  queue_.push_batch(rest);
  window_.resize(taken);
  std::vector<Pending*> requests;
  std::vector<CommitQueue::Item> own;
  for (const CommitQueue::Item& i : window_) {
    if (i.lead == CommitQueue::kHorizon)
      requests.push_back(i.p);
    else
      own.push_back(i);
  }
  window_.clear();

  const bool failed = !place_window(round, own);
  for (const CommitQueue::Item& i : own) queue_.push(i);  // what a failure left
  if (!failed && hops_apart_) continue_on_own_links(round.own_bound());

  // The messages for other ranks' nodes, and theirs for ours.
  std::vector<std::pair<int, std::vector<std::byte>>> out;
  std::vector<int> from;
  for (int r = 0; r < transport.ranks(); ++r) {
    if (r == transport.rank()) continue;
    const auto at = static_cast<std::size_t>(r);
    if (round.delivers(round.least_to[at])) out.emplace_back(r, std::move(to_rank_[at].bytes()));
    if (round.delivers(round.least_from[at])) from.push_back(r);
  }
  if (!out.empty() || !from.empty())
    for (const std::vector<std::byte>& part : waiting([&] { return transport.exchange(out, from); }))
      deliver_placed(part);
  // A horizon once every transfer before it has been delivered.
  for (Pending* p : requests) {
    if (failed) {
      queue_.push(p);
      continue;
    }
    ++horizons_answered_;
    node(p->owner).horizon_reached(*p);
  }
}

// Takes this rank's part of the window from the front of its queue, while it comes before the bound that the leads
// of those taken set (what is left comes after the window), and says so to the other ranks. Under store-and-forward
// it takes on up to the bound of what can wake a node: what this rank may place after the window, whose receivers'
// ranks must know that messages may come.
Wire Coordinator::window_message(PartitionRound& round) {
  const int ranks = run_.transport->ranks();
  window_.clear();
  const OrderKey least = queue_.empty() ? OrderKey::infinity() : queue_.top_key();
  OrderKey bound = OrderKey::infinity(), wake = OrderKey::infinity(), request = OrderKey::infinity();
  while (!queue_.empty() && queue_.top_key() < wake) {
    window_.push_back(queue_.top());
    queue_.pop();
    CommitQueue::Item& i = window_.back();
    if (i.lead == CommitQueue::kHorizon) {
      request = i.key;
      break;
    }
    // The lead as taken, for the bounds and the lookahead reported. What goes back to the queue unplaced keeps it:
    // a lead of none is always safe, and at most narrows a later window.
    i.lead = lead_as_taken(i);
    bound = std::min(bound, lead_bound(i));
    wake = std::min(wake, lead_bound(i, i.wake_leads));
  }
  Wire w;
  put_round_head(w);
  w.put(least);
  w.put(bound);
  w.put(wake);
  w.put(request);
  w.put<std::uint64_t>(booked_shared_.size());
  for (const SharedBooking& b : booked_shared_) w.put(b);
  booked_shared_.clear();
  // Per other rank, the least key of a message taken for its nodes: the two ranks exchange the round's messages when
  // that key is in the window.
  round.least_to.assign(static_cast<std::size_t>(ranks), OrderKey::infinity());
  for (const CommitQueue::Item& i : window_) {
    if (i.lead == CommitQueue::kHorizon) continue;
    OrderKey& to = round.least_to[static_cast<std::size_t>(rank_of(i.destination))];
    to = std::min(to, i.key);
  }
  round.least_to[static_cast<std::size_t>(run_.transport->rank())] = OrderKey::infinity();
  // The bookings that take a shared link: a circuit's whole route, or a hop's link where it is shared.
  shared_.clear();
  for (const CommitQueue::Item& i : window_) {
    if (!(i.key < bound) || i.lead == CommitQueue::kHorizon || !books_shared(i)) continue;
    const int link = hops_apart_ ? booked_link(*static_cast<const Message*>(i.p)) : -1;
    shared_.push_back({i.key, i.destination, link, 0, 0});
  }
  std::vector<int> to_ranks;
  for (int r = 0; r < ranks; ++r)
    if (round.least_to[static_cast<std::size_t>(r)] != OrderKey::infinity()) to_ranks.push_back(r);
  w.put<std::uint64_t>(to_ranks.size());
  for (int r : to_ranks) {
    w.put<std::int32_t>(r);
    w.put(round.least_to[static_cast<std::size_t>(r)]);
  }
  w.put<std::uint64_t>(shared_.size());
  for (const SharedBooking& b : shared_) {
    w.put(b.key);
    w.put<std::int32_t>(b.destination);
    w.put<std::int32_t>(b.link);
  }
  return w;
}

void Coordinator::read_round(const std::vector<std::vector<std::byte>>& parts, PartitionRound& round) {
  const int me = run_.transport->rank();
  round.least_from.assign(parts.size(), OrderKey::infinity());
  for (int r = 0; r < static_cast<int>(parts.size()); ++r) {
    WireReader in(parts[static_cast<std::size_t>(r)]);
    round.heads.read(in);
    round.first = std::min(round.first, in.get<OrderKey>());
    round.lead_horizon = std::min(round.lead_horizon, in.get<OrderKey>());
    round.wake = std::min(round.wake, in.get<OrderKey>());
    round.first_request = std::min(round.first_request, in.get<OrderKey>());
    for (auto n = in.get<std::uint64_t>(); n > 0; --n) {
      const auto b = in.get<SharedBooking>();
      if (r != me) round.copies.push_back(b);
    }
    for (auto n = in.get<std::uint64_t>(); n > 0; --n) {
      const int to = in.get<std::int32_t>();
      const auto key = in.get<OrderKey>();
      if (to == me) round.least_from[static_cast<std::size_t>(r)] = key;
    }
    for (auto n = in.get<std::uint64_t>(); n > 0; --n) {
      const auto key = in.get<OrderKey>();
      const int destination = in.get<std::int32_t>();
      round.headers.push_back({key, destination, in.get<std::int32_t>(), r});
    }
  }
}

// Places this rank's messages of the window (`own`, in key order; what a failure leaves stays there); false when the
// run failed here or, in phases, on any rank.
bool Coordinator::place_window(const PartitionRound& round, std::vector<CommitQueue::Item>& own) {
  // The window's bookings of shared links, by link and key; whether two ranks book one.
  std::vector<SharedUse> uses;
  for (const PartitionRound::Header& h : round.headers)
    if (round.in_window(h.key))
      for_each_shared(h.key.source, h.destination, h.link, [&](int link) { uses.push_back({link, h.key, h.rank}); });
  std::sort(uses.begin(), uses.end());
  bool phases = false;
  for (std::size_t i = 1; i < uses.size() && !phases; ++i)
    phases = uses[i].link == uses[i - 1].link && uses[i].rank != uses[i - 1].rank;
  to_rank_.resize(static_cast<std::size_t>(run_.transport->ranks()));
  for (Wire& out : to_rank_) out.bytes().clear();
  if (!phases) {
    if (own.empty()) return true;
    // Nothing of another rank's comes between them: a batch as one process places it, in levels that the workers
    // share where it is large enough (coordinator_batch.cpp).
    batch_.clear();
    ends_.clear();
    for (const CommitQueue::Item& i : own) {
      least_lead_ = std::min(least_lead_, i.lead);
      ends_.push_back({i.key.source, i.destination, i.key.step});
      batch_.push_back(static_cast<Message*>(i.p));
    }
    own.clear();
    OrderKey unused = OrderKey::infinity();
    return place_batch(unused);  // what a failure leaves goes back to the queue
  }
  std::unordered_map<int, std::size_t> next;  // per shared link: its first booking not made here
  for (std::size_t i = 0; i < uses.size(); ++i)
    if (i == 0 || uses[i].link != uses[i - 1].link) next[uses[i].link] = i;
  // After a booking failed on any rank, the phases go on with what comes before it in key order, which may fail too:
  // every rank then reports the first failure in model-time order, as one process does (RoundHeads).
  Lane failed;  // this rank's first
  OrderKey below = OrderKey::infinity();  // every rank's first
  place_in_phase(own, uses, next, below, failed);
  const int me = run_.transport->rank();
  std::vector<SharedBooking> copies;
  for (;;) {
    Wire w;
    w.put(failed.failed_key);
    w.put(own.empty() ? OrderKey::infinity() : own.front().key);  // in key order
    w.put<std::uint64_t>(booked_shared_.size());
    for (const SharedBooking& b : booked_shared_) w.put(b);
    booked_shared_.clear();
    ++phases_;
    const std::vector<std::vector<std::byte>> parts =
        waiting([&] { return run_.transport->all_gather(w.bytes()); });
    OrderKey least_left = OrderKey::infinity();
    copies.clear();
    for (int r = 0; r < static_cast<int>(parts.size()); ++r) {
      WireReader in(parts[static_cast<std::size_t>(r)]);
      below = std::min(below, in.get<OrderKey>());
      least_left = std::min(least_left, in.get<OrderKey>());
      for (auto n = in.get<std::uint64_t>(); n > 0; --n) {
        const auto b = in.get<SharedBooking>();
        if (r != me) copies.push_back(b);
      }
    }
    std::sort(copies.begin(), copies.end(),
              [](const SharedBooking& a, const SharedBooking& b) { return a.key < b.key; });
    for (const SharedBooking& b : copies) {
      copy_shared(b);
      for_each_shared(b.key.source, b.destination, b.link, [&](int link) { ++next[link]; });
    }
    if (!(least_left < below)) break;  // the least unplaced transfer of all can go: each phase places one at least
    place_in_phase(own, uses, next, below, failed);
  }
  if (failed.failed_source >= 0) fail_placing(failed);  // the next round tells every rank
  return below == OrderKey::infinity();
}

void Coordinator::place_in_phase(std::vector<CommitQueue::Item>& items, const std::vector<SharedUse>& uses,
                                 std::unordered_map<int, std::size_t>& next, const OrderKey& below, Lane& failed) {
  std::unordered_set<int> held;  // links of a message left for a later phase: what comes after it there waits too
  Lane lane;
  std::size_t kept = 0;
  // The messages' lines and then their ends' come from other cores' caches, or memory: asked for ahead, as a level's
  // task does (coordinator_batch.cpp).
  for (std::size_t k = 0; k < items.size() && k < kMessagesAhead; ++k)
    fetch_message(static_cast<const Message*>(items[k].p));
  for (std::size_t k = 0; k < items.size(); ++k) {
    if (k + kMessagesAhead < items.size()) fetch_message(static_cast<const Message*>(items[k + kMessagesAhead].p));
    if (k + kEndsAhead < items.size()) fetch_ends(*static_cast<const Message*>(items[k + kEndsAhead].p));
    const CommitQueue::Item item = items[k];
    auto* m = static_cast<Message*>(item.p);
    const std::span<const int> route = booked_links(*m);
    bool wait = lane.failed_source >= 0 || !(item.key < below);
    for (int link : route)
      wait = wait || held.contains(link) || (shared_link(link) && uses[next.at(link)].key != item.key);
    if (wait) {
      held.insert(route.begin(), route.end());
      items[kept++] = item;
      continue;
    }
    for (int link : route)
      if (shared_link(link)) ++next[link];
    least_lead_ = std::min(least_lead_, item.lead);
    place_one(m, lane);  // a failure is the lane's, and frees the message
  }
  items.resize(kept);
  transfers_placed_ += lane.placed;
  gather_lane(lane);
  // Next hops (store-and-forward): ready no earlier than the round's window ends, they go to a later round.
  queue_.push_batch(lane.forwarded);
  if (lane.failed_key < failed.failed_key) failed.take_failure(lane);
}

bool Coordinator::books_shared(const CommitQueue::Item& i) const {
  if (!reaches_shared(i.key.source, i.destination)) return false;
  const int link = hops_apart_ ? booked_link(*static_cast<const Message*>(i.p)) : -1;
  return link < 0 || shared_link(link);
}

void Coordinator::continue_on_own_links(const OrderKey& below) {
  keep_failed_ = true;
  OrderKey unused = OrderKey::infinity();
  while (!queue_.empty() && queue_.top_key() < below && !run_.control.aborted()) {
    take_batch(below, true);
    if (batch_.empty() || !place_batch(unused)) break;  // a shared link next, or a booking out of range
  }
  keep_failed_ = false;
}

void Coordinator::booked_for_ranks(const Message& m, int link, Lane& lane) {
  if (!reaches_shared(m.source, m.destination)) return;
  if (link < 0) {
    lane.booked.push_back({m.key, m.destination, -1, m.times().start, m.times().start + m.transfer.duration});
  } else if (shared_link(link)) {
    const timing::Forwarding& f = m.transfer.forwarding;
    lane.booked.push_back({m.key, m.destination, link, f.hop_start, f.hop_end});
  }
}

bool Coordinator::arrived_for_ranks(Message* m, Lane& lane) {
  if (is_local(m->destination)) return false;
  if (lane.to_rank.empty()) lane.to_rank.resize(to_rank_.size());
  put_message(lane.to_rank[static_cast<std::size_t>(rank_of(m->destination))], *m);
  Message::destroy(m);
  return true;
}

void Coordinator::gather_lane(const Lane& lane) {
  for (std::size_t r = 0; r < lane.to_rank.size(); ++r) {
    const std::vector<std::byte>& part = lane.to_rank[r].bytes();
    to_rank_[r].put_bytes(part.data(), part.size());
  }
  booked_shared_.insert(booked_shared_.end(), lane.booked.begin(), lane.booked.end());
}

// Another rank's messages for this rank's nodes, placed there, as put_message wrote them.
void Coordinator::deliver_placed(const std::vector<std::byte>& part) {
  WireReader in(part);
  while (!in.done()) {
    Message* m = read_message(in);
    node(m->destination).deliver(m);
  }
}

}  // namespace hcemu::detail
