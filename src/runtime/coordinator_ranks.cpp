// Placing transfers in model time when the nodes are spread over MPI ranks (docs/mpi.md).
//
// A round starts on a rank when none of its nodes runs; it is one all-gather, so it ends when every rank has come, and
// then no node runs anywhere: every node is parked, done, or waiting in the barrier. Each rank brings what its nodes
// submitted since the last round (transfers and horizon requests, in the order it took them), its count of
// unfinished nodes, whether its part of the barrier is complete, and its failure if it has one. Every rank then pushes
// all of it, in rank order, into its own copy of the queue and places from it exactly as every other rank does: the
// queues, the links and every transfer's times stay the same on every rank, so that no rank needs another's results.
// Whether a placed event wakes a node depends on that node's wait, which only its own rank knows; so every rank
// counts every event as waking (a lower bound on what may still be issued that is never above the one-process one),
// and stops the round where the earliest event of the round bounds it. On k:N ports a release counts only where its
// sender waited for one as the round began, which each rank brings for its own nodes (round_message). A round may
// then place less than one process would in one pass, never in another order: the results are the same, only the
// number of rounds grows.
#include <algorithm>
#include <chrono>
#include <thread>

#include "runtime/coordinator.hpp"
#include "runtime/message.hpp"
#include "runtime/parking.hpp"
#include "runtime/barrier.hpp"
#include "runtime/engine.hpp"
#include "runtime/run_control.hpp"
#include "runtime/transport.hpp"
#include "timing/timing_model.hpp"

namespace hcemu::detail {

namespace {

enum : std::uint8_t { kMessageRecord = 1, kHorizonRecord = 2 };

void put_submission(Wire& w, const Pending* p) {
  w.put(p->key);
  if (p->kind == Pending::Kind::horizon) {
    w.put(kHorizonRecord);
    w.put(p->owner);
    w.put(p->ticket);
    return;
  }
  const auto* m = static_cast<const Message*>(p);
  w.put(kMessageRecord);
  w.put(m->destination);
  w.put(m->tag);
  w.put(m->context);
  w.put<std::uint64_t>(m->bytes);
  w.put(m->transfer.channel);
  w.put(m->transfer.route.in_port);
  w.put<std::uint32_t>(static_cast<std::uint32_t>(m->transfer.route.links.size()));
  for (int link : m->transfer.route.links) w.put(link);
}

}  // namespace

void Coordinator::put_round_head(Wire& w) {
  int failed_node = -1;
  std::string failed_what;
  const bool failed = run_.control.failed_here(&failed_node, &failed_what);
  w.put<std::int32_t>(unfinished_.load(std::memory_order_seq_cst));
  w.put(failed);
  w.put(failed_key_);
  w.put<std::int32_t>(failed_node);
  w.put_string(failed_what);
  w.put(barrier_complete_.load(std::memory_order_seq_cst));
  w.put(barrier_latest_);
}

void Coordinator::RoundHeads::read(WireReader& in) {
  unfinished += in.get<std::int32_t>();
  const bool f = in.get<bool>();
  const auto key = in.get<timing::OrderKey>();
  const int node = in.get<std::int32_t>();
  std::string what = in.get_string();
  if (f && (!failed || key < failed_key)) {
    failed = true;
    failed_key = key;
    failed_node = node;
    failed_what = std::move(what);
  }
  if (in.get<bool>()) ++barrier_ranks;
  latest_entry = std::max(latest_entry, in.get<Time>());
}

Wire Coordinator::round_message(const std::vector<Pending*>& mine) {
  Wire w;
  put_round_head(w);
  if (run_.timing.several_outputs()) {  // every node of this rank is parked, and stays so until the round's placing
    std::vector<int> waiting;
    for (int i = run_.first_node; i < run_.first_node + run_.local_nodes; ++i)
      if (node(i).waits_for_release()) waiting.push_back(i);
    w.put<std::uint64_t>(waiting.size());
    for (int i : waiting) {
      w.put<std::int32_t>(i);
      w.put(node(i).parked_for_release_at());
    }
  }
  w.put<std::uint64_t>(mine.size());
  for (const Pending* p : mine) put_submission(w, p);
  return w;
}

void Coordinator::round() {
  Transport& transport = *run_.transport;
  ++rounds_;
  take_submissions(taken_);
  std::vector<Pending*> mine;
  for (const CommitQueue::Item& i : taken_) mine.push_back(i.p);
  taken_.clear();

  const std::vector<std::vector<std::byte>> parts =
      waiting([&] { return transport.all_gather(round_message(mine).bytes()); });

  RoundHeads heads;
  const bool several = run_.timing.several_outputs();
  if (several) {
    waited_release_.resize(run_.nodes.size(), kNever);
    for (int i : waiting_release_) waited_release_[static_cast<std::size_t>(i)] = kNever;
    waiting_release_.clear();
  }
  for (int r = 0; r < static_cast<int>(parts.size()); ++r) {
    WireReader in(parts[static_cast<std::size_t>(r)]);
    heads.read(in);
    if (several) {
      for (auto n = in.get<std::uint64_t>(); n > 0; --n) {
        const int i = in.get<std::int32_t>();
        waited_release_[static_cast<std::size_t>(i)] = in.get<Time>();
        waiting_release_.push_back(i);
      }
    }
    const auto count = in.get<std::uint64_t>();
    if (r == transport.rank()) {  // our own, in the order we wrote them
      for (Pending* p : mine) queue_.push(p);
      continue;
    }
    queue_submissions_of(in, count);
  }

  if (heads.failed) {  // every rank reports the first rank's failure
    stopped_ = true;
    run_.control.fail_as(heads.failed_node, heads.failed_what);
    return;
  }
  timing::OrderKey horizon = timing::OrderKey::infinity();
  bool released = false;
  if (heads.barrier_ranks == transport.ranks()) {
    if (!release_barrier(heads.latest_entry, horizon)) return;
    released = true;
  }
  if (queue_.empty() && !released) {
    // Nothing to place and nobody runs anywhere: the run is over, or deadlocked.
    stopped_ = true;
    if (heads.unfinished > 0) report_deadlock();
    return;
  }
  place_round(horizon);
}

// Another rank's submissions, `count` of them, as it wrote them: into the queue, as copies.
void Coordinator::queue_submissions_of(WireReader& in, std::uint64_t count) {
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto key = in.get<timing::OrderKey>();
    if (in.get<std::uint8_t>() == kHorizonRecord) {
      auto* p = new Pending();
      p->kind = Pending::Kind::horizon;
      p->owner = in.get<int>();
      p->ticket = in.get<std::uint64_t>();
      p->key = key;
      queue_.push(p);
      continue;
    }
    const int destination = in.get<int>();
    const int tag = in.get<int>();
    const auto context = in.get<std::uint32_t>();
    const auto bytes = static_cast<std::size_t>(in.get<std::uint64_t>());
    const int channel = in.get<int>();
    timing::Route route;
    route.in_port = in.get<int>();
    for (auto links = in.get<std::uint32_t>(); links > 0; --links) route.links.push_back(in.get<int>());
    Message* m = Message::make_copy(key.source, destination, tag, context, bytes, is_local(destination));
    run_.timing.copy_issued(m->transfer, key.source, destination, bytes, key.ready, channel, key.seq,
                            std::move(route));
    m->key = m->transfer.key;
    queue_.push(m);
  }
}

// Every rank's nodes are in the barrier: released at the timing model's time for the latest entry, which bounds
// `horizon` (a node it wakes issues no earlier). False when that time leaves the model's range (the run fails).
bool Coordinator::release_barrier(Time latest_entry, timing::OrderKey& horizon) {
  Time release = 0;
  try {
    release = run_.timing.barrier_release(latest_entry);
  } catch (const std::exception& e) {
    stopped_ = true;
    run_.control.fail_as(0, e.what());  // the same node on every rank: which node entered last is not known here
    return false;
  }
  barrier_complete_.store(false, std::memory_order_seq_cst);
  run_.barrier.release(release);
  for (int i = run_.first_node; i < run_.first_node + run_.local_nodes; ++i) node(i).notify(0);
  horizon = timing::OrderKey::floor_of(release, 0);
  return true;
}

void Coordinator::place_round(timing::OrderKey horizon) {
  Transport& transport = *run_.transport;
  const bool several = run_.timing.several_outputs();
  // The payloads that cross go in one MPI message per pair of ranks and round, in placing order: every rank places
  // every message, so a receiving rank knows how many bytes each other rank sends it, and whose they are.
  const auto ranks = static_cast<std::size_t>(transport.ranks());
  to_rank_.resize(ranks);
  for (Wire& out : to_rank_) out.bytes().clear();
  std::vector<std::size_t> from_rank(ranks, 0);  // bytes of payload from each rank
  std::vector<Message*> incoming;
  while (!queue_.empty() && queue_.top_key() < horizon) {
    Pending* p = queue_.pop();
    if (p->kind == Pending::Kind::horizon) {
      horizon = std::min(horizon, timing::OrderKey::floor_of(p->key.ready, p->owner));
      if (is_local(p->owner)) {
        ++horizons_answered_;
        node(p->owner).horizon_reached(*p);
      } else {
        delete p;
      }
      continue;
    }
    auto* m = static_cast<Message*>(p);
    timing::CommitStep step;
    try {
      step = run_.timing.commit(m->transfer, m->key.ready);
    } catch (const std::exception& e) {  // every rank meets it at the same transfer
      stopped_ = true;
      run_.control.fail_as(m->source, e.what());
      Message::destroy(m);
      break;
    }
    const bool from_here = is_local(m->source), to_here = is_local(m->destination);
    if (step.sender_released) {
      Time released = run_.timing.release_event(m->times(), m->key.ready);
      // Every rank's, alike. On k:N ports, only where the sender waited for a release as the round began, raised to
      // its clock then: elsewhere the release brings nothing before an event that bounds the round already
      // (docs/engine.md, "Placing in parallel"), while its ready time would end the round at nearly every transfer.
      if (!several)
        horizon = std::min(horizon, timing::OrderKey::floor_of(released, m->source));
      else if (const Time parked = waited_release_[static_cast<std::size_t>(m->source)]; parked != kNever)
        horizon = std::min(horizon, timing::OrderKey::floor_of(std::max(released, parked), m->source));
      if (from_here) node(m->source).transfer_released(*m, released);
    }
    if (step.arrived) {
      ++transfers_placed_;
      horizon = std::min(horizon, timing::OrderKey::floor_of(m->times().arrival, m->destination));
      if (from_here && to_here) {
        node(m->destination).deliver(m);
      } else if (to_here) {
        from_rank[static_cast<std::size_t>(rank_of(m->source))] += m->bytes;
        incoming.push_back(m);
      } else {
        if (from_here) to_rank_[static_cast<std::size_t>(rank_of(m->destination))].put_bytes(m->payload(), m->bytes);
        Message::destroy(m);
      }
    } else if (step.more) {
      m->key = m->transfer.key;
      queue_.push(m);
    }
  }
  std::vector<std::vector<std::byte>> payloads(ranks);
  for (std::size_t r = 0; r < ranks; ++r) {
    const std::vector<std::byte>& out = to_rank_[r].bytes();
    if (!out.empty()) transport.start_send(static_cast<int>(r), out.data(), out.size());
    if (from_rank[r] == 0) continue;
    payloads[r].resize(from_rank[r]);
    transport.start_receive(static_cast<int>(r), payloads[r].data(), from_rank[r]);
  }
  waiting([&] {
    transport.finish();
    return 0;
  });
  std::fill(from_rank.begin(), from_rank.end(), 0);  // now where each rank's next payload starts
  for (Message* m : incoming) {
    const auto r = static_cast<std::size_t>(rank_of(m->source));
    std::copy_n(payloads[r].data() + from_rank[r], m->bytes, m->payload());
    from_rank[r] += m->bytes;
    node(m->destination).deliver(m);
  }
}

void Coordinator::report_deadlock() {
  Wire w;
  std::vector<BlockedOperation> blocked;
  for (int i = run_.first_node; i < run_.first_node + run_.local_nodes; ++i)
    if (node(i).parked())
      blocked.push_back(node(i).blocked_operation());
  w.put<std::uint64_t>(blocked.size());
  for (const BlockedOperation& b : blocked) {
    w.put(b.node);
    w.put_string(b.operation);
    w.put(b.peer);
    w.put(b.tag);
    w.put_string(b.detail);
    w.put(b.sending);
  }
  blocked.clear();
  for (const std::vector<std::byte>& part : run_.transport->all_gather(w.bytes())) {
    WireReader in(part);
    for (auto n = in.get<std::uint64_t>(); n > 0; --n) {
      BlockedOperation b;
      b.node = in.get<int>();
      b.operation = in.get_string();
      b.peer = in.get<int>();
      b.tag = in.get<int>();
      b.detail = in.get_string();
      b.sending = in.get<bool>();
      blocked.push_back(std::move(b));
    }
  }
  run_.control.deadlock(std::move(blocked));
}

// Native timing places every transfer as it is issued (it holds nothing), so there is nothing to place in rounds: a
// message to another rank is sent at once, and a rank whose nodes all wait polls for what comes. Whether the run is
// over (or deadlocked) is found out by counting with the others, without blocking: each rank brings whether it did
// anything since its last count (ran a node, delivered a message), its unfinished nodes, its failure, and the
// messages it sent to and received from other ranks. A count where no rank did anything and every message sent was
// received shows a moment when every rank was idle with nothing in flight (each rank's two counts bracket such a
// moment, since a count starts only after the last one ended everywhere): nothing can move again. A count where
// every rank's part of the barrier is complete releases it (the latest entry comes with one all-gather).
void Coordinator::send_now(const Message& m) {
  Wire w;
  put_message(w, m);
  run_.transport->send_now(rank_of(m.destination), std::move(w.bytes()));
  native_sent_.fetch_add(1, std::memory_order_relaxed);
}

void Coordinator::deliver_native(const std::vector<std::byte>& message) {
  WireReader in(message);
  Message* m = read_message(in);
  // It arrived now, on this rank's clock: the sender's clock, on another host perhaps, is not comparable with the
  // receiver's (a FORCED receive is matched against this).
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - origin_);
  m->transfer.times.first_byte = m->transfer.times.arrival = static_cast<Time>(ns.count()) * 1000;
  ++native_received_;
  node(m->destination).deliver(m);
}

// A placed message as it goes to its receiver's rank (native timing's, or a round's with the links shared out): its
// header, its times and its payload.
void Coordinator::put_message(Wire& w, const Message& m) {
  w.put(m.source);
  w.put(m.destination);
  w.put(m.tag);
  w.put(m.context);
  w.put<std::uint64_t>(m.bytes);
  w.put(m.transfer.key);
  w.put(m.transfer.channel);
  w.put(m.transfer.times);
  w.put_bytes(m.payload(), m.bytes);
}

Message* Coordinator::read_message(WireReader& in) {
  const int source = in.get<int>(), destination = in.get<int>(), tag = in.get<int>();
  const auto context = in.get<std::uint32_t>();
  const auto bytes = static_cast<std::size_t>(in.get<std::uint64_t>());
  Message* m = Message::make_copy(source, destination, tag, context, bytes, true);
  m->transfer.key = m->key = in.get<timing::OrderKey>();
  m->transfer.channel = in.get<int>();
  m->transfer.times = in.get<timing::TransferTimes>();
  m->transfer.source = source;
  m->transfer.destination = destination;
  m->transfer.bytes = bytes;
  in.get_bytes(m->payload(), bytes);
  return m;
}

// Native timing, some rank has failed: every rank reports the first rank's failure.
void Coordinator::agree_on_failure() {
  int node = -1;
  std::string what;
  Wire w;
  const bool failed = run_.control.failed_here(&node, &what);
  w.put(failed);
  w.put(node);
  w.put_string(what);
  for (const std::vector<std::byte>& part : run_.transport->all_gather(w.bytes())) {
    WireReader r(part);
    const bool f = r.get<bool>();
    const int n = r.get<int>();
    std::string text = r.get_string();
    if (f) {
      run_.control.fail_as(n, text);
      return;
    }
  }
}

void Coordinator::native_progress() {
  Transport& transport = *run_.transport;
  native_changed_ = true;  // this rank's nodes ran since it was here last
  std::vector<std::byte> message;
  std::vector<std::int64_t> totals;
  while (!stopped_ && running_.load(std::memory_order_seq_cst) == 0) {
    if (transport.poll(message)) {
      deliver_native(message);
      native_changed_ = true;
      continue;
    }
    if (!native_counting_) {
      int node = -1;
      std::string what;
      transport.start_sum({native_changed_ ? 1 : 0, unfinished_.load(std::memory_order_seq_cst),
                           run_.control.failed_here(&node, &what) ? 1 : 0, native_sent_.load(std::memory_order_relaxed),
                           native_received_, barrier_complete_.load(std::memory_order_seq_cst) ? 1 : 0});
      native_changed_ = false;
      native_counting_ = true;
    }
    if (transport.sum_done(totals)) {
      native_counting_ = false;
      if (totals[2] > 0) {  // a failure: every rank reports the first rank's
        stopped_ = true;
        agree_on_failure();
        return;
      }
      if (totals[5] == transport.ranks()) {  // every node is in the barrier: released at the latest entry's time
        Wire w;
        w.put(barrier_latest_);
        Time latest = 0;
        for (const std::vector<std::byte>& part : transport.all_gather(w.bytes())) {
          WireReader r(part);
          latest = std::max(latest, r.get<Time>());
        }
        barrier_complete_.store(false, std::memory_order_seq_cst);
        run_.barrier.release(run_.timing.barrier_release(latest));
        for (int i = run_.first_node; i < run_.first_node + run_.local_nodes; ++i)
          node(i).notify(0);
        native_changed_ = true;
        continue;
      }
      if (totals[0] == 0 && totals[3] == totals[4]) {
        stopped_ = true;
        if (totals[1] > 0) report_deadlock();
        return;
      }
      continue;
    }
    std::this_thread::yield();
  }
}

}  // namespace hcemu::detail
