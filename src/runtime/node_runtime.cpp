#include "runtime/node_runtime.hpp"

#include <algorithm>
#include <cstring>
#include <thread>

#include "runtime/futex.hpp"
#include "runtime/run_state.hpp"

namespace hcemu::detail {

namespace {

std::string describe(int node, const char* operation) {
  return "node " + std::to_string(node) + ": " + operation + ": ";
}
}  // namespace

NodeRuntime::NodeRuntime(RunState& run, int id)
    : run_(run),
      id_(id),
      node_(*this),
      arena_(id, run.settings.arena_bytes),
      clock_(run.settings.timing, run.settings.time_scale, run.origin),
      ports_(run.config.ports, run.config.d),
      yield_rng_(run.settings.yield_seed ^ static_cast<unsigned>(id * 2654435761u)),
      // Yielding before sleeping pays when a partner is likely running on another core; with many more
      // threads than cores it only burns system calls.
      spin_rounds_(run.config.nodes() <= static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))
                       ? 64
                       : 2) {
  inbox_.reserve(static_cast<std::size_t>(run.config.d) + 1);
  for (int k = 0; k <= run.config.d; ++k) inbox_.push_back(std::make_unique<boost::lockfree::queue<Message*>>(4));
}

NodeRuntime::~NodeRuntime() {
  for (auto& q : inbox_) q->consume_all([](Message* m) { Message::destroy(m); });
  for (auto& [k, q] : keys_) {
    for (Message* m = q.first_message; m != nullptr;) {
      Message* next = m->next;
      Message::destroy(m);
      m = next;
    }
  }
}

int NodeRuntime::dim() const { return run_.config.d; }
int NodeRuntime::size() const { return run_.config.nodes(); }
const MachineConfig& NodeRuntime::config() const { return run_.config; }
const EmulatorSettings& NodeRuntime::settings() const { return run_.settings; }
const timing::TimingModel& NodeRuntime::timing() const { return run_.timing; }

int NodeRuntime::neighbor(int k) const {
  if (k < 0 || k >= dim())
    throw UsageError(describe(id_, "neighbor") + "link " + std::to_string(k) + " does not exist in a " +
                     std::to_string(dim()) + "-cube");
  return id_ ^ (1 << k);
}

void NodeRuntime::run_kernel() {
  while (run_.go.load(std::memory_order_acquire) == 0) futex_wait(run_.go, 0);
  try {
    if (!run_.aborted.load(std::memory_order_acquire)) run_.kernel(node_);
  } catch (const Aborted&) {
  } catch (const std::exception& e) {
    run_.fail(id_, std::current_exception(), e.what());
  } catch (...) {
    run_.fail(id_, std::current_exception(), "unknown exception");
  }
  stats_.final_clock = clock_.now();
  published_clock_.store(kNever, std::memory_order_relaxed);
  state_.store(NodeState::done, std::memory_order_release);
  run_.finished.fetch_add(1, std::memory_order_acq_rel);
}

// ---------------------------------------------------------------------------------------------------------------
// Inbox and sleeping. Senders push then bump the signal; a node asleep on its signal is woken by that bump.

void NodeRuntime::deliver(Message* m) {
  const int last = m->times.in_link < 0 ? dim() : m->times.in_link;
  inbox_[static_cast<std::size_t>(last)]->push(m);
  const std::uint32_t delivered = inbox_signal_.fetch_add(1, std::memory_order_seq_cst) + 1;
  // Wake the node only once enough has arrived to possibly satisfy what it waits for: a node waiting for 255
  // messages is woken once, not 255 times.
  if (sleeping_.load(std::memory_order_seq_cst) &&
      static_cast<std::int32_t>(delivered - wake_at_.load(std::memory_order_seq_cst)) >= 0)
    futex_wake_one(inbox_signal_);
}

void NodeRuntime::wake() {
  wake_at_.store(inbox_signal_.load(std::memory_order_seq_cst) + 1, std::memory_order_seq_cst);
  inbox_signal_.fetch_add(1, std::memory_order_seq_cst);
  futex_wake_one(inbox_signal_);
}

bool NodeRuntime::stuck() const {
  if (state_.load(std::memory_order_acquire) != NodeState::blocked) return false;
  if (in_barrier_.load(std::memory_order_acquire))
    return run_.barrier.generation() == barrier_generation_.load(std::memory_order_acquire);
  // Asleep, and not enough delivered since to be woken.
  return static_cast<std::int32_t>(inbox_signal_.load(std::memory_order_acquire) -
                                   wake_at_.load(std::memory_order_acquire)) < 0;
}

// Waits until ready(); `needed()` is how many receives are still unmatched, so at least that many messages must
// arrive before ready() can change.
template <class Ready, class Needed>
void NodeRuntime::block_until(Ready ready, Needed needed, const BlockedOperation& op) {
  drain();
  if (ready()) return;
  for (int round = 0; round < spin_rounds_; ++round) {
    check_running();
    std::this_thread::yield();
    drain();
    if (ready()) return;
  }
  for (;;) {
    check_running();
    // Everything delivered up to `seen` is drained before counting what is still needed; whatever arrives
    // after `seen` counts towards the wake-up (at worst it wakes the node early, never late).
    const std::uint32_t seen = inbox_signal_.load(std::memory_order_seq_cst);
    drain();
    if (ready()) return;
    wake_at_.store(seen + static_cast<std::uint32_t>(needed()), std::memory_order_seq_cst);
    sleeping_.store(true, std::memory_order_seq_cst);
    if (inbox_signal_.load(std::memory_order_seq_cst) == seen && !run_.aborted.load(std::memory_order_acquire)) {
      blocked_ = op;
      state_.store(NodeState::blocked, std::memory_order_release);
      futex_wait(inbox_signal_, seen);
      state_.store(NodeState::running, std::memory_order_release);
      wakes_.fetch_add(1, std::memory_order_release);
    }
    sleeping_.store(false, std::memory_order_relaxed);
    drain();
    if (ready()) return;
  }
}

void NodeRuntime::check_running() {
  if (run_.aborted.load(std::memory_order_acquire)) throw Aborted{};
}

void NodeRuntime::maybe_yield() {
  if (run_.settings.yield_seed != 0 && (yield_rng_() & 3) == 0) std::this_thread::yield();
}

// ---------------------------------------------------------------------------------------------------------------
// Matching (MODEL.md section 5): by (source, tag), in posting order, never overtaking between the same pair.

void NodeRuntime::drain() {
  for (auto& queue : inbox_) {
    Message* m = nullptr;
    while (queue->pop(m)) {
      KeyQueue& q = keys_[Key{m->source, m->context, m->tag}];
      (q.last_message != nullptr ? q.last_message->next : q.first_message) = m;
      q.last_message = m;
      match(q);
    }
  }
}

void NodeRuntime::match(KeyQueue& q) {
  while (q.first_receive != kNoSlot && q.first_message != nullptr) {
    Slot& r = slots_[q.first_receive];
    Message* m = q.first_message;
    q.first_message = m->next;
    if (q.first_message == nullptr) q.last_message = nullptr;

    const bool early = m->times.first_byte < r.posted;
    if (early && run_.config.protocol == Protocol::forced) {
      // The iPSC/860 rule: the message arrived before its receive was posted and is lost; the receive stays
      // pending for a later message.
      discards_.push_back({m->source, id_, m->tag, m->bytes, m->times.first_byte, r.posted});
      Message::destroy(m);
      continue;
    }
    if (m->bytes > r.buffer.size()) {
      const std::string what = describe(id_, "recv") + "message of " + std::to_string(m->bytes) +
                               " bytes from node " + std::to_string(m->source) + " tag " + std::to_string(m->tag) +
                               " is longer than the " + std::to_string(r.buffer.size()) + "-byte buffer posted for it";
      Message::destroy(m);
      throw UsageError(what);
    }
    if (early) {
      // UNFORCED: it waited in the system buffer, which is this node's arena.
      arena_.charge(m->bytes);
      arena_.release(m->bytes);
    }
    if (m->bytes > 0) std::memcpy(r.buffer.data(), m->payload(), m->bytes);
    r.matched = true;
    r.late = early;
    r.bytes = m->bytes;
    r.times = m->times;
    ++stats_.messages_received;
    stats_.bytes_received += m->bytes;
    Message::destroy(m);
    q.first_receive = r.next_receive;
    if (q.first_receive == kNoSlot) q.last_receive = kNoSlot;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Requests

Request NodeRuntime::new_slot(Kind kind) {
  std::uint32_t index;
  if (!free_slots_.empty()) {
    index = free_slots_.back();
    free_slots_.pop_back();
  } else {
    index = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  Slot& s = slots_[index];
  const std::uint32_t generation = s.generation;
  s = Slot{};
  s.generation = generation;
  s.kind = kind;
  Request r;
  r.slot_ = index;
  r.generation_ = generation;
  return r;
}

void NodeRuntime::free_slot(std::uint32_t index) {
  Slot& s = slots_[index];
  s.kind = Kind::free;
  ++s.generation;
  free_slots_.push_back(index);
}

NodeRuntime::Slot& NodeRuntime::slot_of(const Request& r, const char* operation) {
  if (r.slot_ >= slots_.size() || slots_[r.slot_].generation != r.generation_ || slots_[r.slot_].kind == Kind::free)
    throw UsageError(describe(id_, operation) + "the request is not pending (never issued, or already completed)");
  return slots_[r.slot_];
}

void NodeRuntime::check_peer(int peer, const char* operation) const {
  if (peer < 0 || peer >= size())
    throw UsageError(describe(id_, operation) + "node " + std::to_string(peer) + " does not exist in a " +
                     std::to_string(size()) + "-node machine");
}

Request NodeRuntime::isend(int dest, std::span<const std::byte> data, int tag) {
  check_running();
  check_peer(dest, "send");
  if (data.size() > run_.settings.arena_bytes)
    throw UsageError(describe(id_, "send") + "a message of " + std::to_string(data.size()) +
                     " bytes cannot be received by any node: arenas hold " +
                     std::to_string(run_.settings.arena_bytes) + " bytes");
  maybe_yield();
  const Time issue = clock_.now();
  Message* m = Message::make(id_, dest, tag, context_, data.data(), data.size());
  m->times = run_.timing.send(ports_, id_, dest, data.size(), issue);
  ++stats_.messages_sent;
  stats_.bytes_sent += data.size();
  record("send", m->times.start, m->times.sender_done, dest, data.size(), tag);
  Request r = new_slot(Kind::send);
  Slot& s = slots_[r.slot_];
  s.peer = dest;
  s.tag = tag;
  s.bytes = data.size();
  s.done = m->times.sender_done;
  run_.nodes[static_cast<std::size_t>(dest)]->deliver(m);  // m belongs to the receiver from here on
  return r;
}

Request NodeRuntime::post_recv(int source, std::span<std::byte> buffer, int tag) {
  check_running();
  check_peer(source, "recv");
  maybe_yield();
  Request r = new_slot(Kind::recv);
  Slot& s = slots_[r.slot_];
  s.peer = source;
  s.tag = tag;
  s.buffer = buffer;
  s.posted = clock_.now();
  s.context = context_;
  KeyQueue& q = keys_[Key{source, context_, tag}];
  (q.last_receive != kNoSlot ? slots_[q.last_receive].next_receive : q.first_receive) = r.slot_;
  q.last_receive = r.slot_;
  match(q);
  return r;
}

Time NodeRuntime::complete_receive(Slot& s) {
  const Time completion = run_.timing.take_input(ports_, s.times);
  record("recv", completion - s.times.input_hold, completion, s.peer, s.bytes, s.tag);
  // MODEL.md section 5: max(clock when posted, completion); a late UNFORCED message is then copied out.
  return std::max(s.posted, completion) + (s.late ? run_.timing.late_copy(s.bytes) : 0);
}

Status NodeRuntime::wait(Request& request, const char* operation) {
  check_running();
  Slot& s = slot_of(request, operation);
  const std::uint32_t index = request.slot_;
  Status status{s.kind == Kind::send ? id_ : s.peer, s.tag, 0, 0};
  const Time before = clock_.now();
  if (s.kind == Kind::send) {
    status.bytes = s.bytes;
    status.completed = std::max(before, s.done);
  } else {
    if (!s.matched) {
      BlockedOperation op{id_, operation, s.peer, s.tag, {}};
      block_until([&] { return slots_[index].matched; }, [] { return 1; }, op);
    }
    Slot& r = slots_[index];  // drain may have grown slots_? no: only this thread adds slots
    status.bytes = r.bytes;
    status.completed = std::max(before, complete_receive(r));
  }
  advance_clock(status.completed);
  if (status.completed > before) record("wait", before, status.completed, status.source, status.bytes, status.tag);
  free_slot(index);
  request = Request{};
  return status;
}

void NodeRuntime::wait_all(std::span<Request> requests) {
  check_running();
  std::vector<std::uint32_t> receives;
  Time done = clock_.now();
  const Time before = done;
  for (Request& r : requests) {
    if (!r.valid()) continue;
    Slot& s = slot_of(r, "wait_all");
    if (s.kind == Kind::send) done = std::max(done, s.done);
    else receives.push_back(r.slot_);
  }
  const auto unmatched = [&] {
    return static_cast<int>(std::count_if(receives.begin(), receives.end(),
                                          [&](std::uint32_t i) { return !slots_[i].matched; }));
  };
  if (unmatched() > 0) {
    // Reported as waiting for the first receive still unmatched.
    const auto first = [&]() -> const Slot& {
      for (std::uint32_t i : receives)
        if (!slots_[i].matched) return slots_[i];
      return slots_[receives.front()];
    };
    BlockedOperation op{id_, "wait_all", first().peer, first().tag, {}};
    block_until([&] { return unmatched() == 0; }, unmatched, op);
  }
  // MODEL.md section 4: inside one wait_all, arrivals take the input port in order of arrival, ties by source.
  std::sort(receives.begin(), receives.end(), [&](std::uint32_t a, std::uint32_t b) {
    const Slot &x = slots_[a], &y = slots_[b];
    return x.times.arrival != y.times.arrival ? x.times.arrival < y.times.arrival : x.peer < y.peer;
  });
  for (std::uint32_t index : receives) done = std::max(done, complete_receive(slots_[index]));
  advance_clock(done);
  if (done > before) record("wait", before, done);
  for (Request& r : requests) {
    if (!r.valid()) continue;
    free_slot(r.slot_);
    r = Request{};
  }
}

bool NodeRuntime::test(Request& request) {
  check_running();
  Slot& s = slot_of(request, "test");
  const Time now = clock_.now();
  if (s.kind == Kind::send) {
    if (s.done > now) return false;
  } else {
    drain();
    Slot& r = slots_[request.slot_];
    if (!r.matched) return false;
    const Time completion = std::max(r.posted, run_.timing.peek_input(ports_, r.times)) +
                            (r.late ? run_.timing.late_copy(r.bytes) : 0);
    if (completion > now) return false;
    complete_receive(r);
  }
  free_slot(request.slot_);
  request = Request{};
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// Barrier and local work

void NodeRuntime::barrier() {
  check_running();
  maybe_yield();
  const Time entry = clock_.now();
  const auto e = run_.barrier.arrive(entry);
  if (!e.last) {
    blocked_ = BlockedOperation{id_, "barrier", -1, 0, {}};
    barrier_generation_.store(e.generation, std::memory_order_release);
    in_barrier_.store(true, std::memory_order_release);
    for (int round = 0; round < spin_rounds_ && !run_.barrier.released(e.generation); ++round)
      std::this_thread::yield();
    while (!run_.barrier.released(e.generation)) {
      state_.store(NodeState::blocked, std::memory_order_release);
      run_.barrier.wait(e.generation);
      state_.store(NodeState::running, std::memory_order_release);
      wakes_.fetch_add(1, std::memory_order_release);
    }
    in_barrier_.store(false, std::memory_order_release);
    check_running();
  }
  const Time release = run_.barrier.release_time();
  advance_clock(release);
  record("barrier", entry, release);
}

void NodeRuntime::copy(std::span<const std::byte> from, std::span<std::byte> to) {
  check_running();
  if (to.size() < from.size())
    throw UsageError(describe(id_, "copy") + "destination of " + std::to_string(to.size()) +
                     " bytes is shorter than the " + std::to_string(from.size()) + " bytes copied");
  if (!from.empty()) std::memmove(to.data(), from.data(), from.size());
  charge(run_.timing.copy(from.size()), "copy");
}

void NodeRuntime::permute(std::span<const std::byte> from, std::span<std::byte> to, std::size_t block_bytes,
                          std::span<const std::uint32_t> order) {
  check_running();
  const std::size_t moved = order.size() * block_bytes;
  if (to.size() < moved)
    throw UsageError(describe(id_, "permute") + "destination of " + std::to_string(to.size()) +
                     " bytes is shorter than the " + std::to_string(moved) + " bytes permuted");
  if (from.data() < to.data() + to.size() && to.data() < from.data() + from.size() && moved > 0)
    throw UsageError(describe(id_, "permute") + "source and destination overlap");
  for (std::size_t i = 0; i < order.size(); ++i) {
    if ((static_cast<std::size_t>(order[i]) + 1) * block_bytes > from.size())
      throw UsageError(describe(id_, "permute") + "block " + std::to_string(order[i]) + " is outside the " +
                       std::to_string(from.size()) + "-byte source");
    if (block_bytes > 0) std::memcpy(to.data() + i * block_bytes, from.data() + order[i] * block_bytes, block_bytes);
  }
  charge(run_.timing.copy(moved), "copy");
}

void NodeRuntime::charge(Time cost, const char* kind) {
  check_running();
  const Time start = clock_.now();
  advance_clock(start + cost);
  if (cost > 0) record(kind, start, start + cost);
}

void NodeRuntime::record(const char* kind, Time start, Time end, int peer, std::size_t bytes, int tag) {
  if (run_.settings.trace) trace_.push_back(TraceSpan{id_, kind, start, end, peer, bytes, tag});
}

// ---------------------------------------------------------------------------------------------------------------
// After the run

void NodeRuntime::drain_leftovers(std::vector<ForcedDiscard>& discards, std::vector<std::string>& unreceived) {
  for (auto& queue : inbox_) {
    Message* m = nullptr;
    while (queue->pop(m)) {
      KeyQueue& q = keys_[Key{m->source, m->context, m->tag}];
      (q.last_message != nullptr ? q.last_message->next : q.first_message) = m;
      q.last_message = m;
    }
  }
  for (auto& [k, q] : keys_) {
    for (Message* m = q.first_message; m != nullptr;) {
      Message* next = m->next;
      if (run_.config.protocol == Protocol::forced) {
        discards.push_back({m->source, id_, m->tag, m->bytes, m->times.first_byte, std::nullopt});
      } else {
        unreceived.push_back("node " + std::to_string(id_) + " never received " + std::to_string(m->bytes) +
                             " bytes from node " + std::to_string(m->source) + " tag " + std::to_string(m->tag));
      }
      Message::destroy(m);
      m = next;
    }
    q.first_message = q.last_message = nullptr;
  }
}

NodeStats NodeRuntime::stats() const {
  NodeStats s = stats_;
  s.arena_high_water = arena_.high_water();
  return s;
}

}  // namespace hcemu::detail
