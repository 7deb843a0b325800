#include "runtime/node_runtime.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <new>
#include <string_view>
#include <thread>
#include <tuple>

#include "runtime/run_state.hpp"
#include "timing/checked_time.hpp"

namespace hcemu::detail {

NodeRuntime::NodeRuntime(RunState& run, int id)
    : run_(run),
      id_(id),
      slot_(id - run.first_node),
      nodes_(run.config.nodes()),
      inbox_(run.timing.topology().input_ports()),
      requests_(&run.kept_blocks, &run.memory_guard),
      clock_(run.settings.timing, run.settings.time_scale),
      ports_(run.timing.make_ports()),
      matcher_(id, run.timing, requests_, arena_, run.config.protocol == Protocol::forced, &run.kept_blocks,
               &run.memory_guard),
      arena_(id, run.settings.arena_bytes, &run.blocks, &run.memory_guard) {
  std::tie(rows_, cols_) = run.config.topology.sides(run.config.d);
  stack_reach_ = run.settings.stack_bytes > 0 ? run.settings.stack_bytes : std::size_t{8} << 20;  // pthread's default
}

NodeRuntime::~NodeRuntime() {
  drain_leftovers_quietly();
}

void NodeRuntime::drain_leftovers_quietly() {
  inbox_.drain([](Message* m) { Message::destroy(m); });
  matcher_.clear();
}

int NodeRuntime::dim() const { return run_.config.d; }
int NodeRuntime::size() const { return run_.config.nodes(); }
const MachineConfig& NodeRuntime::config() const { return run_.config; }

std::string NodeRuntime::where(const char* operation) const {
  return "node " + std::to_string(id_) + ": " + operation + ": ";
}

static_assert(Inbox::kMaxPorts <= 256, "a matched receive keeps its message's input port in one byte (Slot::in_port)");

model::TorusShape NodeRuntime::grid(const char* operation) const {
  if (!run_.config.topology.grid())
    throw UsageError(where(operation) + "the machine is a hypercube, not a torus or mesh");
  return model::TorusShape{rows_, cols_, run_.config.topology.kind == Topology::Kind::torus};
}

Coordinates NodeRuntime::coordinates() const { return model::torus_coord(grid("coordinates"), id_); }

int NodeRuntime::neighbor(Direction direction) const {
  const int n = model::torus_neighbor(grid("neighbor"), id_, direction);
  if (n < 0) throw UsageError(where("neighbor") + "this node of the mesh has no neighbour that way");
  return n;
}

void NodeRuntime::route_ways(Way x, Way y) {
  grid("route_ways");
  ways_ = model::TorusRoutePreference{x, y};
}

int NodeRuntime::neighbor(int k) const {
  if (run_.config.topology.grid())
    throw UsageError(where("neighbor") + "a torus or mesh has no dimension links: use neighbor(Direction)");
  if (k < 0 || k >= dim())
    throw UsageError(where("neighbor") + "link " + std::to_string(k) + " does not exist in a " +
                     std::to_string(dim()) + "-cube");
  return id_ ^ (1 << k);
}

// ---------------------------------------------------------------------------------------------------------------
// The run

void NodeRuntime::start_run() {
  drain_leftovers_quietly();
  inbox_.reset();
  arena_.reset();
  requests_.clear();
  ports_.reset();
  park_state_.store(kRunning, std::memory_order_relaxed);
  tracing_ = run_.settings.trace;
  matcher_.keep_first_bytes(tracing_);
  wake_at_.store(0, std::memory_order_relaxed);
  wake_on_release_.store(false, std::memory_order_relaxed);
  wait_ = nullptr;
  issued_ = 0;
  released_.store(0, std::memory_order_relaxed);
  hold_slot_ = Slot::kNoSlot;
  read_hint_.store(nullptr, std::memory_order_relaxed);
  wait_hint_.store(nullptr, std::memory_order_relaxed);
  horizon_ticket_ = 0;
  horizon_reached_.store(0, std::memory_order_relaxed);
  context_ = contexts_entered_ = 0;
  ways_ = {};
  messages_sent_ = bytes_sent_ = 0;
  posted_sends_.clear();
  first_posted_send_ = 0;
  posted_sends_done_ = 0;
  latest_posted_send_ = Slot::kNoSlot;
  final_clock_ = 0;
  fruitless_tests_ = 0;
  trace_.clear();
  sent_.clear();
  yield_rng_.seed(run_.settings.yield_seed ^ static_cast<unsigned>(id_ * 2654435761u));
}

void NodeRuntime::run_kernel() {
  clock_.start(run_.origin);
  // Every call of the node API from the kernel has its frame below this one, within the node's stack.
  stack_top_ = static_cast<const char*>(__builtin_frame_address(0));
  try {
    check_running();
    (*run_.kernel)(node());
  } catch (const Aborted&) {
  } catch (const std::bad_alloc&) {
    run_.fail(id_, std::current_exception(),
              run_.memory_guard.refused()
                  ? run_.memory_guard.explain()
                  : "out of host memory: the nodes' buffers and the emulator's requests and messages in flight need "
                    "more than this process can have (lower d or the message size, or spread the machine over MPI "
                    "ranks)");
  } catch (const std::exception& e) {
    run_.fail(id_, std::current_exception(), e.what());
  } catch (...) {
    run_.fail(id_, std::current_exception(), "unknown exception");
  }
  final_clock_ = clock_.now();
  stack_top_ = nullptr;
  park_state_.store(kDone, std::memory_order_release);
  run_.coordinator.node_done();
}

void NodeRuntime::finish_run(RunReport& report) {
  // Messages that arrived after the node finished wait with the others; whatever is left is reported.
  inbox_.drain([&](Message* m) { matcher_.arrive_after_end(m); });
  report.forced_discards.insert(report.forced_discards.end(), matcher_.discards().begin(), matcher_.discards().end());
  matcher_.collect_leftovers(report.forced_discards, report.unreceived);
  NodeStats s;
  s.final_clock = final_clock_;
  s.messages_sent = messages_sent_;
  s.bytes_sent = bytes_sent_;
  s.messages_received = matcher_.messages_received();
  s.bytes_received = matcher_.bytes_received();
  s.arena_high_water = arena_.high_water();
  s.host_time = clock_.host_time();
  report.nodes.push_back(s);
  if (run_.settings.trace) {
    report.trace.insert(report.trace.end(), std::make_move_iterator(trace_.begin()),
                        std::make_move_iterator(trace_.end()));
    report.trace.insert(report.trace.end(), std::make_move_iterator(sent_.begin()),
                        std::make_move_iterator(sent_.end()));
  }
}

const std::vector<double>& NodeRuntime::lateness_us() const { return clock_.lateness_us(); }

// ---------------------------------------------------------------------------------------------------------------
// Parking and waking

void NodeRuntime::block_until(Wait& w) {
  for (;;) {
    check_running();
    drain();
    if (w.ready()) return;
    // Say which events can end the wait, then park; an event that came meanwhile cancels the park. The stores and
    // loads here and in the wakers are sequentially consistent, so that one side always sees the other.
    wait_ = &w;
    const std::uint64_t needed = !w.on_delivery ? 0 : w.deliveries ? w.deliveries() : 1;
    // Counted from what this node has taken, not from what was delivered: a delivery can be counted while its
    // message is not yet visible in its queue (a push half done, or one behind it on the same queue), and a count
    // from deliveries would then wait for one message more than will ever come.
    wake_at_.store(needed > 0 ? inbox_.taken() + needed : ~std::uint64_t{0}, std::memory_order_seq_cst);
    wake_on_release_.store(w.on_release, std::memory_order_seq_cst);
    park_state_.store(kParked, std::memory_order_seq_cst);
    const bool came = inbox_.delivered() >= wake_at_.load(std::memory_order_seq_cst) ||
                      w.ready() || run_.aborted();
    int expected = kParked;
    if (!(came && park_state_.compare_exchange_strong(expected, kRunning, std::memory_order_acq_rel))) {
      // Parked (or claimed already by a waker, who counts this node as running again before it lets it go on).
      clock_.pause();
      run_.coordinator.node_parked();  // the last node to park places transfers, here, on this stack
      while (park_state_.load(std::memory_order_acquire) != kRunning) run_.engine->park(slot_);
      clock_.resume();
    }
    wake_at_.store(~std::uint64_t{0}, std::memory_order_relaxed);
    wake_on_release_.store(false, std::memory_order_relaxed);
    wait_ = nullptr;
  }
}

bool NodeRuntime::notify() {
  // Claim, count, then let go: the node may run the moment it reads kRunning (it need not have suspended yet, and a
  // park may return spuriously), and a node that ran before it was counted could park again and bring the count of
  // running nodes to zero while its waker still runs, so that the coordinator would place, or report a deadlock,
  // under a node that can still issue a transfer or enter a barrier.
  int expected = kParked;
  if (!park_state_.compare_exchange_strong(expected, kWaking, std::memory_order_acq_rel)) return false;
  run_.coordinator.node_woken();
  park_state_.store(kRunning, std::memory_order_seq_cst);
  run_.engine->unpark(slot_);
  return true;
}

void NodeRuntime::warm(int stage) const {
  if (stage == 0) {
    // The lines a resume touches: the shared words, the request table, the clock, the ports, the matcher's own.
    constexpr std::size_t kHotBytes = 640;
    const auto* self = reinterpret_cast<const char*>(this);
    for (std::size_t line = 0; line < std::min(sizeof(NodeRuntime), kHotBytes); line += 64)
      __builtin_prefetch(self + line, 1);
    return;
  }
  // The line its kernel said it reads first (Node::will_read): data the runtime cannot foresee, such as the block
  // a kernel sends next.
  if (const void* h = read_hint_.load(std::memory_order_relaxed)) __builtin_prefetch(h);
  if (const void* h = wait_hint_.load(std::memory_order_relaxed)) __builtin_prefetch(h, 1);
  inbox_.prefetch();
  for (const auto& hint : resume_hints_)
    if (const void* h = hint.load(std::memory_order_relaxed)) __builtin_prefetch(h, 1);
}

bool NodeRuntime::hint_next_arrival(int peer, int tag) {
  // A group's elements (post_recvs): a kernel that exchanges with one partner after another mostly hears next from
  // the node it is about to send to.
  std::uint32_t k = 0;
  if (peer >= 0) {
    if (const RecvGroupState* g = matcher_.waiting_group(peer, context_, tag, k)) {
      const bool held = hold_slot_ != Slot::kNoSlot;
      // And the slot of the send it waits for, which the placer has written, and the group's own lines, which the
      // arrival and the wait after it read first.
      set_resume_hints({&g->elements[k], g->data(k), g->lookup_address(peer),
                        held ? &requests_.at(hold_slot_) : nullptr, held ? requests_.chunk_entry(hold_slot_) : nullptr,
                        g, matcher_.active_address(), matcher_.entry_address(*g)});
      return true;
    }
  }
  const std::uint32_t last = matcher_.last_arrival_match();
  if (last == Slot::kNoSlot || last + 1 >= requests_.size()) return false;
  const std::uint32_t index = last + 1;
  const Slot& s = requests_.at(index);
  if (s.kind != Slot::Kind::recv || s.matched || s.peer == kAnySource) return false;
  set_resume_hints({&s, requests_.chunk_entry(index), s.recv.data,
                    matcher_.home_address(MatchKey{s.peer, s.context, s.tag}),
                    index + 1 < requests_.size() ? &requests_.at(index + 1) : nullptr, nullptr, nullptr, nullptr});
  return true;
}

void NodeRuntime::set_resume_hints(const std::array<const void*, kResumeHints>& hints) {
  for (int i = 0; i < kResumeHints; ++i) resume_hints_[i].store(hints[i], std::memory_order_relaxed);
}

bool NodeRuntime::deliver(Message* m) {
  const std::uint64_t count = inbox_.push(m->times().in_port, m);  // m belongs to this node from here on
  return count >= wake_at_.load(std::memory_order_seq_cst) && notify();
}

bool NodeRuntime::horizon_reached(Pending& p) {
  std::uint64_t seen = horizon_reached_.load(std::memory_order_relaxed);
  while (seen < p.ticket &&
         !horizon_reached_.compare_exchange_weak(seen, p.ticket, std::memory_order_seq_cst)) {
  }
  p.queued.store(false, std::memory_order_release);  // the node may reuse it
  return notify();
}

BlockedOperation NodeRuntime::blocked_operation() const {
  if (wait_ == nullptr || !wait_->describe) return BlockedOperation{id_, "wait", -1, 0, {}};
  BlockedOperation b = wait_->describe();
  // A receive whose message was lost under FORCED can never complete: say so.
  for (const auto& d : matcher_.discards())
    if (b.peer >= 0 && d.source == b.peer && d.tag == b.tag) b.detail = "its message was discarded under FORCED";
  // A receive that waits while a message from its source waits under another tag: a mismatch, most likely.
  if (b.peer >= 0 && !b.sending && b.detail.empty())
    if (const Message* m = matcher_.first_waiting_from(b.peer); m != nullptr && (m->tag != b.tag || m->context != context_))
      b.detail = "a message from " + std::to_string(b.peer) + " waits unreceived under tag " + std::to_string(m->tag) +
                 (m->context != context_ ? " in another collective scope" : "");
  return b;
}

void NodeRuntime::drain() {
  if (inbox_.maybe_nonempty()) inbox_.drain([&](Message* m) { matcher_.arrive(m); });
}

void NodeRuntime::check_running() {
  // The node API belongs to the node's own thread of control, inside Machine::run: a call whose frame lies outside the
  // node's stack comes from another thread (one the kernel started), or after the kernel returned (stack_top_ null).
  const auto* frame = static_cast<const char*>(__builtin_frame_address(0));
  if (frame > stack_top_ || frame + stack_reach_ < stack_top_) [[unlikely]]
    called_from_outside();
  if (run_.aborted()) throw Aborted{};
}

void NodeRuntime::called_from_outside() const {
  if (stack_top_ == nullptr)
    throw UsageError("node " + std::to_string(id_) +
                     ": the node API was called after the node's kernel returned: a Node& is valid only inside "
                     "Machine::run, while its kernel runs");
  throw UsageError("node " + std::to_string(id_) +
                   ": the node API was called from a thread that is not the node's own (one the kernel started?): "
                   "only the kernel's own thread of control may use its Node& (docs/engine.md, \"What a kernel must "
                   "not do\")");
}

void NodeRuntime::maybe_yield() {
  if (run_.settings.yield_seed != 0 && (yield_rng_() & 3) == 0) {
    clock_.pause();
    run_.engine->yield(slot_);
    clock_.resume();
  }
}

void NodeRuntime::advance_clock(Time target) {
  if (auto deadline = clock_.advance_to(target)) {
    run_.engine->sleep_until(slot_, *deadline);
    clock_.reached(target);
  }
}

void NodeRuntime::no_such_peer(int peer, const char* operation) const {
  throw UsageError(where(operation) + "node " + std::to_string(peer) + " does not exist in a " +
                   std::to_string(size()) + "-node machine");
}

// ---------------------------------------------------------------------------------------------------------------
// Sending

Request NodeRuntime::isend(int dest, std::span<const std::byte> data, int tag) {
  check_running();
  check_peer(dest, "send");
  if (data.size() > run_.settings.arena_bytes)
    throw UsageError(where("send") + "a message of " + std::to_string(data.size()) +
                     " bytes cannot be received by any node: arenas hold " +
                     std::to_string(run_.settings.arena_bytes) + " bytes");
  maybe_yield();
  // docs/model.md §4: the transfer starts when the output resource is free, so the node's earlier transfers
  // must have been placed (with `all` ports there is no output resource to wait for).
  if (ports_.has_output()) place_own_transfers(dest, tag);
  const Time issue = clock_.now();
  // Owned here until it is placed or queued: a transfer that leaves the model's range throws, and frees it.
  std::unique_ptr<Message, void (*)(Message*)> owned(Message::make(id_, dest, tag, context_, data.data(), data.size()),
                                                     &Message::destroy);
  Message* m = owned.get();
  run_.timing.issue(m->transfer, ports_, id_, dest, data.size(), issue, issued_, ways_);
  const Request r = requests_.add(Slot::Kind::send);
  const std::uint32_t index = RequestAccess::slot(r);
  Slot& s = requests_.at(index);
  s.peer = dest;
  s.tag = tag;
  s.context = context_;
  s.bytes = data.size();
  m->sender = &s.send;
  if (ports_.has_output()) hold_slot_ = index;
  const bool alone = released_.load(std::memory_order_acquire) == issued_;  // none of ours is still unplaced
  ++issued_;
  ++messages_sent_;
  bytes_sent_ += data.size();
  // Spread over ranks every rank keeps its own copy of the links, the same on each only if each places every
  // transfer that books one: there only a message to oneself is placed at once (runtime/coordinator_ranks.cpp).
  const bool at_once = !run_.ordered || (alone && run_.timing.books_alone(m->transfer) &&
                                         (!run_.distributed() || m->transfer.route.hops() == 0));
  if (at_once) {
    for (;;) {
      const timing::CommitStep step = run_.timing.commit(m->transfer, m->transfer.key.ready);
      if (step.sender_released) transfer_released(*m);
      if (step.arrived || !step.more) break;
    }
    if (run_.is_local(m->destination))
      run_.nodes[static_cast<std::size_t>(m->destination)]->deliver(owned.release());
    else
      run_.coordinator.send_now(*m);  // native timing, spread over ranks: owned frees m here
  } else {
    m->key = m->transfer.key;
    run_.coordinator.submit(owned.release());  // placed in model-time order
  }
  return r;
}

bool NodeRuntime::transfer_released(const Message& m) {
  SendSlot* s = m.sender;
  // Before the release: the node may place its next transfer itself (and record it) once it sees this one released.
  if (tracing_)
    sent_.push_back(
        TraceSpan{id_, "send", m.times().start, m.times().sender_done, m.destination, m.bytes, m.tag, m.number(), {}});
  s->start = m.times().start;
  s->done = m.times().sender_done;
  s->channel = m.transfer.channel;
  s->released.store(true, std::memory_order_release);
  released_.fetch_add(1, std::memory_order_seq_cst);
  return wake_on_release_.load(std::memory_order_seq_cst) && notify();
}

void NodeRuntime::place_own_transfers(int peer, int tag) {
  if (released_.load(std::memory_order_acquire) != issued_) {
    const auto ready = [&] { return released_.load(std::memory_order_acquire) == issued_; };
    const auto describe = [&] {
      const Slot* s = hold_slot_ != Slot::kNoSlot ? &requests_.at(hold_slot_) : nullptr;
      return BlockedOperation{id_, "send", s ? s->peer : -1, s ? s->tag : 0, "its earlier transfer is not placed", true};
    };
    Wait w{ready, describe, {}, true, false};
    // While it waits for its last transfer to be placed, a message may come for one of its receives posted ahead:
    // most likely the one posted after the receive the last arrival met (a kernel that posts every receive first,
    // then sends one after another). Its slot, entry and buffer are cold by the time the node resumes.
    const bool hinted = hint_next_arrival(peer, tag);
    block_until(w);
    if (hinted) set_resume_hints({});
  }
  if (hold_slot_ != Slot::kNoSlot) {
    const SendSlot& s = requests_.at(hold_slot_).send;
    ports_.take_output(s.channel, s.start, s.done);
    hold_slot_ = Slot::kNoSlot;
  }
}

void NodeRuntime::complete_send(std::uint32_t index) {
  Slot& s = requests_.at(index);
  if (index == hold_slot_) {
    ports_.take_output(s.send.channel, s.send.start, s.send.done);
    hold_slot_ = Slot::kNoSlot;
  }
}

// A send without a handle keeps its slot only until it has been placed: a kernel that sends to every other node
// would otherwise hold 2^d - 1 slots to the end. One whose output hold is still owed keeps it until that is taken
// (place_own_transfers, or wait_sends), so that the hold comes when it would have come for a request.
void NodeRuntime::post_send(int dest, std::span<const std::byte> data, int tag) {
  posted_sends_.reserve(posted_sends_.size() + 1);  // so that the push below cannot lose an issued send
  if (latest_posted_send_ != Slot::kNoSlot && ports_.has_output()) {
    // The wait for the latest send's placement, which isend would make first, made here, so that its slot, whose
    // line that wait has just read, goes back to the free list before the new send takes a slot: the new one
    // reuses it, where it took the slot freed a step before, cold by now.
    check_running();
    check_peer(dest, "send");
    place_own_transfers(dest, tag);
    if (reap_posted_send(latest_posted_send_)) latest_posted_send_ = Slot::kNoSlot;
  }
  const Request r = isend(dest, data, tag);
  // The latest stays in the node's own lines: on a one-port node, the one before it has been placed by now (isend
  // waited for that) and is freed here, and the list, a cache miss by the time the node runs again, stays empty.
  const std::uint32_t previous = latest_posted_send_;
  latest_posted_send_ = RequestAccess::slot(r);
  if (previous != Slot::kNoSlot && !reap_posted_send(previous)) posted_sends_.push_back(previous);
  if (!posted_sends_.empty()) reap_posted_sends();
}

bool NodeRuntime::reap_posted_send(std::uint32_t index) {
  const Slot& s = requests_.at(index);
  if (index == hold_slot_ || !s.send.released.load(std::memory_order_acquire)) return false;
  posted_sends_done_ = std::max(posted_sends_done_, s.send.done);
  requests_.release(index);
  return true;
}

void NodeRuntime::reap_posted_sends() {
  while (first_posted_send_ < posted_sends_.size() && reap_posted_send(posted_sends_[first_posted_send_]))
    ++first_posted_send_;
  if (first_posted_send_ == posted_sends_.size() || first_posted_send_ >= 64) {
    posted_sends_.erase(posted_sends_.begin(), posted_sends_.begin() + static_cast<std::ptrdiff_t>(first_posted_send_));
    first_posted_send_ = 0;
  }
}

void NodeRuntime::wait_sends() {
  check_running();
  if (latest_posted_send_ != Slot::kNoSlot) {
    posted_sends_.push_back(latest_posted_send_);
    latest_posted_send_ = Slot::kNoSlot;
  }
  std::size_t first_unreleased = first_posted_send_;
  const auto unreleased = [&] {
    while (first_unreleased < posted_sends_.size() &&
           requests_.at(posted_sends_[first_unreleased]).send.released.load(std::memory_order_acquire))
      ++first_unreleased;
    return first_unreleased < posted_sends_.size();
  };
  if (unreleased()) {
    const auto ready = [&] { return !unreleased(); };
    const auto describe = [&] {
      const Slot& s = requests_.at(posted_sends_[first_unreleased]);
      return BlockedOperation{id_, "wait_sends", s.peer, s.tag, "a send whose transfer is not placed", true};
    };
    Wait w{ready, describe, {}, true, false};
    block_until(w);
  }
  // As wait_all on their requests: every output hold owed is taken, and the clock goes to the latest end.
  const Time before = clock_.now();
  for (std::size_t i = first_posted_send_; i < posted_sends_.size(); ++i) {
    complete_send(posted_sends_[i]);     // takes the output hold, if this one still owes it
    reap_posted_send(posted_sends_[i]);  // placed and owing nothing now: freed, its end taken
  }
  const Time done = std::max(before, posted_sends_done_);
  posted_sends_.clear();
  first_posted_send_ = 0;
  posted_sends_done_ = 0;
  advance_clock(done);
  if (done > before) record_call("wait_sends", before, done);
}

// ---------------------------------------------------------------------------------------------------------------
// Receiving

Request NodeRuntime::post_recv(int source, std::span<std::byte> buffer, int tag) {
  check_running();
  if (source != kAnySource) check_peer(source, "recv");
  maybe_yield();
  const Request r = requests_.add(Slot::Kind::recv);
  const std::uint32_t index = RequestAccess::slot(r);
  Slot& s = requests_.at(index);
  s.peer = source;
  s.tag = tag;
  s.context = context_;
  s.bytes = buffer.size();
  s.recv.data = buffer.data();
  s.recv.posted = clock_.now();
  drain();  // so that what has arrived meets this receive in arrival order
  if (source != kAnySource) matcher_.post(index);
  return r;
}

RecvGroup NodeRuntime::post_recvs(std::span<const int> sources, std::span<std::byte> buffer, std::size_t block,
                                  int tag) {
  check_running();
  constexpr const char* op = "post_recvs";
  if (sources.size() >= 0x80000000u) throw UsageError(where(op) + "more than 2^31 sources in one group");
  if (block > 0xffffffffu)
    throw UsageError(where(op) + "blocks of " + std::to_string(block) + " bytes: a group's blocks must be below 4 GiB");
  if (block > 0 && buffer.size() / block < sources.size())
    throw UsageError(where(op) + "a buffer of " + std::to_string(buffer.size()) + " bytes for " +
                     std::to_string(sources.size()) + " blocks of " + std::to_string(block) + " bytes");
  for (int source : sources) {
    if (source == kNoSource) continue;
    if (source == kAnySource)
      throw UsageError(where(op) + "a group cannot receive from any source (kAnySource): use post_recv");
    check_peer(source, op);
  }
  maybe_yield();
  drain();  // so that what has arrived meets these receives in arrival order
  return matcher_.post_group(sources, buffer.data(), block, context_, tag, clock_.now(), nodes_,
                             run_.settings.trace, op);
}

Time NodeRuntime::complete_element(const RecvGroupState& g, std::uint32_t k) {
  const RecvGroupState::Element& e = g.elements[k];
  return take_input(g.arrival_times(k), e.bytes, g.posted, (e.flags & RecvGroupState::kLate) != 0, e.source, g.tag,
                    g.messages != nullptr ? g.messages[k] : 0);
}

void NodeRuntime::will_wait(const RecvGroup& group, std::size_t k) {
  const RecvGroupState& g = matcher_.group(group, "will_wait");
  if (k >= g.count) refuse_element(g, k, "will_wait");
  wait_hint_.store(&g.elements[k], std::memory_order_relaxed);
}

// Out of line, so that the messages' strings take no room in the frame of wait, which a node resumes through and
// whose lines the worker loads first (Fiber::prefetch_stack).
[[gnu::cold, gnu::noinline, noreturn]] void NodeRuntime::refuse_element(const RecvGroupState& g, std::size_t k,
                                                                         const char* operation) const {
  const std::string element = where(operation) + "element " + std::to_string(k);
  if (k >= g.count) throw UsageError(element + " of a group of " + std::to_string(g.count) + " receives");
  if ((g.elements[k].flags & RecvGroupState::kNothing) != 0)
    throw UsageError(element + " of the group receives nothing (kNoSource)");
  throw UsageError(element + " of the group has completed already");
}

Status NodeRuntime::wait(RecvGroup& group, std::size_t k) {
  check_running();
  RecvGroupState& g = matcher_.group(group, "wait");
  if (k >= g.count || (g.elements[k].flags & (RecvGroupState::kNothing | RecvGroupState::kDone)) != 0)
    refuse_element(g, k, "wait");
  const auto e = static_cast<std::uint32_t>(k);
  const Time before = clock_.now();
  if (!g.matched(e)) {
    drain();
    if (!g.matched(e)) {
      const auto ready = [&] { return g.matched(e); };
      const auto describe = [&] { return BlockedOperation{id_, "wait", g.elements[e].source, g.tag, {}}; };
      Wait w{ready, describe, {}, false, true};
      // As for a request: what the arrival and the completion touch first (the list of waiting groups, the group's
      // own line, its lookup by source, the element and its block), where the handle finds the group, and the slot
      // of the node's last send, which the placer writes meanwhile and the kernel's next send reads first (on
      // one-port nodes).
      const bool held = hold_slot_ != Slot::kNoSlot;
      set_resume_hints({&g.elements[e], g.data(e), g.lookup_address(g.elements[e].source),
                        held ? &requests_.at(hold_slot_) : nullptr, held ? requests_.chunk_entry(hold_slot_) : nullptr,
                        &g, matcher_.entry_address(g), matcher_.active_address()});
      block_until(w);
      set_resume_hints({});
    }
  }
  const Status status{g.elements[e].source, g.tag, g.elements[e].bytes, std::max(before, complete_element(g, e))};
  advance_clock(status.completed);
  if (status.completed > before)
    record_call("wait recv", before, status.completed, status.source, status.bytes, status.tag);
  matcher_.element_done(group, g, e);
  return status;
}

void NodeRuntime::wait_all(RecvGroup& group) {
  check_running();
  if (!group.valid()) return;
  RecvGroupState& g = matcher_.group(group, "wait_all");
  if (g.unmatched > 0) {
    const auto ready = [&] { return g.unmatched == 0; };
    const auto describe = [&] {
      for (std::uint32_t k = 0; k < g.count; ++k)
        if ((g.elements[k].flags & (RecvGroupState::kMatched | RecvGroupState::kNothing)) == 0)
          return BlockedOperation{id_, "wait_all", g.elements[k].source, g.tag, {}};
      return BlockedOperation{id_, "wait_all", -1, g.tag, {}};
    };
    // Every element still unmatched needs a message of its own.
    const auto deliveries = [&] { return static_cast<std::uint64_t>(g.unmatched); };
    Wait w{ready, describe, deliveries, false, true};
    block_until(w);
  }
  std::vector<std::uint32_t> left;
  left.reserve(g.unfinished);
  for (std::uint32_t k = 0; k < g.count; ++k)
    if ((g.elements[k].flags & (RecvGroupState::kDone | RecvGroupState::kNothing)) == 0) left.push_back(k);
  // docs/model.md §4, as wait_all on requests: arrivals take the input resource in order of arrival, ties by source.
  std::sort(left.begin(), left.end(), [&](std::uint32_t a, std::uint32_t b) {
    return timing::TimingModel::takes_input_before(g.arrival_times(a), g.elements[a].source, g.arrival_times(b),
                                                   g.elements[b].source);
  });
  const Time before = clock_.now();
  Time done = before;
  for (std::uint32_t k : left) done = std::max(done, complete_element(g, k));
  advance_clock(done);
  if (done > before) record_call("wait_all", before, done);
  for (std::uint32_t k : left) matcher_.element_done(group, g, k);  // the last frees the group
}

Time NodeRuntime::complete_receive(Slot& s) {
  return take_input(s.arrival_times(), s.bytes, s.recv.posted, s.late, s.peer, s.tag, s.recv.message);
}

Time NodeRuntime::take_input(const timing::TransferTimes& arrival, std::size_t bytes, Time posted, bool late,
                             int source, int tag, std::uint64_t message) {
  if (ports_.input_shares_output()) place_own_transfers();
  const Time completion = run_.timing.take_receive(ports_, arrival, bytes, posted, late);
  // The trace's receive: from when the message reached the node (its first byte; later if the input resource was
  // still held by another message) to its completion, so that it never starts with its send (docs/traces.md).
  Time start = completion - arrival.input_hold;
  if (tracing_) start = std::clamp(matcher_.take_first_byte(message, start), start, completion);
  record("recv", start, completion, source, bytes, tag, message);
  return completion;
}

Time NodeRuntime::peek_receive(const Slot& s) const {
  return run_.timing.peek_receive(ports_, s.arrival_times(), s.bytes, s.recv.posted, s.late);
}

// A receive from any source takes, among the first waiting message of every source, the one that completes first;
// ties by lower source id. Under FORCED a message that arrived before the receive was posted is lost to it.
Message* NodeRuntime::best_for_any_source(const Slot& r, Time* completion) {
  matcher_.discard_lost(r.context, r.tag, r.recv.posted);
  Message* best = nullptr;
  Time best_time = kNever;
  matcher_.for_each_first_waiting(r.context, r.tag, [&](Message& m) {
    const auto outcome = run_.timing.on_match(m.times(), r.recv.posted);
    if (outcome == timing::MatchOutcome::discard) return;
    const Time t = run_.timing.peek_receive(ports_, m.times(), m.bytes, r.recv.posted,
                                            outcome == timing::MatchOutcome::deliver_late);
    if (best == nullptr || t < best_time || (t == best_time && m.source < best->source)) best = &m, best_time = t;
  });
  if (completion != nullptr) *completion = best_time;
  return best;
}

// Which message a receive from any source takes must not depend on which sender's thread ran first: it is the one
// that completes first in model time. Once every transfer ready by the best known completion has been placed, no
// message still unknown can complete earlier (docs/model.md §7 places transfers by ready time), so the receive
// waits for that horizon, and asks again for an earlier one whenever a better message arrives meanwhile.
void NodeRuntime::resolve_any_source(std::uint32_t index, const char* operation) {
  const auto describe = [&] {
    return BlockedOperation{id_, operation, -1, requests_.at(index).tag, "a receive from any source"};
  };
  Time asked = kNever;
  std::uint64_t ticket = 0;
  for (;;) {
    drain();
    Time best_time = kNever;
    Message* best = best_for_any_source(requests_.at(index), &best_time);
    if (best != nullptr && (!run_.ordered || (best_time == asked && horizon_passed(ticket)))) {
      if (matcher_.take_for(index, best)) return;
      continue;  // a FORCED discard: look again
    }
    if (best != nullptr && best_time != asked) {
      asked = best_time;
      ticket = request_horizon(best_time);
    }
    const auto ready = [&] {
      Time t = kNever;
      return best_for_any_source(requests_.at(index), &t) != nullptr && (t != asked || horizon_passed(ticket));
    };
    Wait w{ready, describe, {}, false, true};
    block_until(w);
  }
}

std::uint64_t NodeRuntime::request_horizon(Time t) {
  Pending* p = nullptr;
  for (auto& r : horizon_requests_)
    if (!r->queued.load(std::memory_order_acquire)) p = r.get();
  if (p == nullptr) {
    horizon_requests_.push_back(std::make_unique<Pending>());
    p = horizon_requests_.back().get();
    p->kind = Pending::Kind::horizon;
    p->owner = id_;
  }
  p->ticket = ++horizon_ticket_;
  p->key = timing::OrderKey::after(t);
  p->queued.store(true, std::memory_order_relaxed);
  run_.coordinator.submit(p);
  return p->ticket;
}

// ---------------------------------------------------------------------------------------------------------------
// Waiting

Status NodeRuntime::wait(Request& request, const char* operation) {
  check_running();
  requests_.get(request, id_, operation);
  const std::uint32_t index = RequestAccess::slot(request);
  Slot& s = requests_.at(index);
  const Time before = clock_.now();
  Status status;
  if (s.kind == Slot::Kind::send) {
    if (!s.send.released.load(std::memory_order_acquire)) {
      const auto ready = [&] { return s.send.released.load(std::memory_order_acquire); };
      const auto describe = [&] {
        return BlockedOperation{id_, operation, s.peer, s.tag, "its transfer is not placed", true};
      };
      Wait w{ready, describe, {}, true, false};
      block_until(w);
    }
    complete_send(index);
    status = Status{id_, s.tag, s.bytes, std::max(before, s.send.done)};
  } else {
    if (s.peer == kAnySource && !s.matched) resolve_any_source(index, operation);
    if (!s.matched) {
      const auto ready = [&] { return s.matched; };
      const auto describe = [&] { return BlockedOperation{id_, operation, s.peer, s.tag, {}}; };
      Wait w{ready, describe, {}, false, true};
      // And the slots beside its own: a kernel that posted its receives together waits for them in turn, and the
      // handle it waits on next is checked against its slot before anything else. And the slot of its last send, as
      // for a group.
      const bool held = hold_slot_ != Slot::kNoSlot && hold_slot_ != index;
      set_resume_hints({&s, requests_.chunk_entry(index), s.recv.data,
                        matcher_.home_address(MatchKey{s.peer, s.context, s.tag}),
                        index + 1 < requests_.size() ? &requests_.at(index + 1) : nullptr,
                        index > 0 ? &requests_.at(index - 1) : nullptr, held ? &requests_.at(hold_slot_) : nullptr,
                        nullptr});
      block_until(w);
      set_resume_hints({});
    }
    status = Status{s.peer, s.tag, s.bytes, std::max(before, complete_receive(s))};
  }
  advance_clock(status.completed);
  if (status.completed > before) {
    const bool on_send = s.kind == Slot::Kind::send;
    const char* call = std::string_view(operation) != "wait" ? operation : on_send ? "wait send" : "wait recv";
    record_call(call, before, status.completed, on_send ? s.peer : status.source, status.bytes, status.tag);
  }
  requests_.release(index);
  request = Request{};
  return status;
}

void NodeRuntime::wait_all(std::span<Request> requests) {
  check_running();
  std::vector<std::uint32_t> sends, receives;
  const auto unmark = [&] {
    for (std::uint32_t i : sends) requests_.at(i).in_wait = false;
    for (std::uint32_t i : receives) requests_.at(i).in_wait = false;
  };
  for (Request& r : requests) {
    if (!r.valid()) continue;
    Slot* s = nullptr;
    try {
      s = &requests_.get(r, id_, "wait_all");
    } catch (...) {
      unmark();
      throw;
    }
    const std::uint32_t index = RequestAccess::slot(r);
    if (s->in_wait) {
      unmark();
      throw UsageError(where("wait_all") + "the same request is given twice");
    }
    s->in_wait = true;
    (s->kind == Slot::Kind::send ? sends : receives).push_back(index);
  }
  unmark();
  for (std::uint32_t i : receives)
    if (requests_.at(i).peer == kAnySource && !requests_.at(i).matched) resolve_any_source(i, "wait_all");

  // A wait_all on thousands of requests may be woken once for each of them (on n-port nodes every send's placing
  // wakes it), so what it asks after each wake-up must not read every slot again: matching and placing only ever
  // complete requests, so each list is passed from the front once, and between two counts the unmatched receives
  // are bounded below by the last count less the matches this node has made since (some may have been of
  // receives outside this wait, so only a bound: it is counted again when it reaches zero).
  std::size_t first_unmatched = 0;
  std::size_t first_unreleased = 0;
  std::uint64_t counted = 0;
  std::uint64_t matches_when_counted = 0;
  const auto count_unmatched = [&] {
    while (first_unmatched < receives.size() && requests_.at(receives[first_unmatched]).matched) ++first_unmatched;
    counted = 0;
    for (std::size_t k = first_unmatched; k < receives.size(); ++k) counted += !requests_.at(receives[k]).matched;
    matches_when_counted = matcher_.messages_received();
    return counted;
  };
  const auto unmatched = [&] {  // a lower bound, exact when zero
    const std::uint64_t since = matcher_.messages_received() - matches_when_counted;
    return counted > since ? counted - since : count_unmatched();
  };
  const auto unreleased = [&] {
    while (first_unreleased < sends.size() &&
           requests_.at(sends[first_unreleased]).send.released.load(std::memory_order_acquire))
      ++first_unreleased;
    return first_unreleased < sends.size();
  };
  count_unmatched();
  for (;;) {
    drain();
    const std::uint64_t missing = unmatched();
    if (missing == 0 && !unreleased()) break;
    const auto ready = [&] { return unmatched() == 0 && !unreleased(); };
    const auto describe = [&] {  // what is still missing
      for (std::uint32_t i : receives)
        if (!requests_.at(i).matched)
          return BlockedOperation{id_, "wait_all", requests_.at(i).peer, requests_.at(i).tag, {}};
      for (std::uint32_t i : sends)
        if (!requests_.at(i).send.released.load(std::memory_order_acquire))
          return BlockedOperation{id_, "wait_all", requests_.at(i).peer, requests_.at(i).tag,
                                  "a send whose transfer is not placed", true};
      return BlockedOperation{id_, "wait_all", -1, 0, {}};
    };
    // Every receive still unmatched needs a message of its own: wake no earlier than that many deliveries.
    Wait w{ready, describe, unmatched, unreleased(), missing > 0};
    block_until(w);
  }

  const Time before = clock_.now();
  Time done = before;
  for (std::uint32_t i : sends) {
    complete_send(i);
    done = std::max(done, requests_.at(i).send.done);
  }
  // docs/model.md §4: inside one wait, arrivals take the input resource in order of arrival, ties by source.
  std::sort(receives.begin(), receives.end(), [&](std::uint32_t a, std::uint32_t b) {
    const Slot &x = requests_.at(a), &y = requests_.at(b);
    return timing::TimingModel::takes_input_before(x.arrival_times(), x.peer, y.arrival_times(), y.peer);
  });
  for (std::uint32_t i : receives) done = std::max(done, complete_receive(requests_.at(i)));
  advance_clock(done);
  if (done > before) record_call("wait_all", before, done);
  for (Request& r : requests) {
    if (!r.valid()) continue;
    requests_.release(RequestAccess::slot(r));
    r = Request{};
  }
}

std::size_t NodeRuntime::wait_any(std::span<Request> requests, Status* status) {
  check_running();
  bool any = false;
  for (Request& r : requests)
    if (r.valid()) {
      requests_.get(r, id_, "wait_any");
      any = true;
    }
  if (!any)
    throw UsageError(where("wait_any") + "no pending request among the " + std::to_string(requests.size()) +
                     " given");

  struct Best {
    std::size_t index = 0;
    Time completion = kNever;
    int source = 0;
    Message* message = nullptr;  // a receive from any source: the message it would take
    bool found = false;
  };
  // The request that completes first among those whose completion is known, ties by lower source id (a send counts
  // as this node's), then by position.
  const auto best_known = [&] {
    Best best;
    for (std::size_t i = 0; i < requests.size(); ++i) {
      if (!requests[i].valid()) continue;
      const Slot& s = requests_.at(RequestAccess::slot(requests[i]));
      Best c;
      c.index = i;
      if (s.kind == Slot::Kind::send) {
        if (!s.send.released.load(std::memory_order_acquire)) continue;
        c.completion = s.send.done;
        c.source = id_;
      } else if (s.matched) {
        c.completion = peek_receive(s);
        c.source = s.peer;
      } else if (s.peer == kAnySource) {
        c.message = best_for_any_source(s, &c.completion);
        if (c.message == nullptr) continue;
        c.source = c.message->source;
      } else {
        continue;
      }
      c.found = true;
      if (!best.found || c.completion < best.completion ||
          (c.completion == best.completion && c.source < best.source))
        best = c;
    }
    return best;
  };
  const auto describe = [&] {
    for (const Request& r : requests)
      if (r.valid()) {
        const Slot& s = requests_.at(RequestAccess::slot(r));
        return BlockedOperation{id_, "wait_any", s.peer, s.tag, {}};
      }
    return BlockedOperation{id_, "wait_any", -1, 0, {}};
  };

  // As for a receive from any source (resolve_any_source): the first completion is known once every transfer ready
  // by the best known completion has been placed.
  Time asked = kNever;
  std::uint64_t ticket = 0;
  for (;;) {
    drain();
    const Best best = best_known();
    if (best.found && (!run_.ordered || (best.completion == asked && horizon_passed(ticket)))) {
      Request& r = requests[best.index];
      const std::uint32_t index = RequestAccess::slot(r);
      Slot& s = requests_.at(index);
      if (best.message != nullptr && !matcher_.take_for(index, best.message)) continue;  // FORCED discard
      const Time before = clock_.now();
      Status st;
      if (s.kind == Slot::Kind::send) {
        complete_send(index);
        st = Status{id_, s.tag, s.bytes, std::max(before, s.send.done)};
      } else {
        st = Status{s.peer, s.tag, s.bytes, std::max(before, complete_receive(s))};
      }
      advance_clock(st.completed);
      if (st.completed > before)
        record_call(s.kind == Slot::Kind::send ? "wait_any send" : "wait_any recv", before, st.completed,
                    s.kind == Slot::Kind::send ? s.peer : st.source, st.bytes, st.tag);
      requests_.release(index);
      r = Request{};
      if (status != nullptr) *status = st;
      return best.index;
    }
    if (best.found && best.completion != asked) {
      asked = best.completion;
      ticket = request_horizon(asked);
    }
    const auto ready = [&] {
      const Best b = best_known();
      return b.found && (b.completion != asked || horizon_passed(ticket));
    };
    Wait w{ready, describe, {}, true, true};
    block_until(w);
  }
}

bool NodeRuntime::test(Request& request) {
  check_running();
  requests_.get(request, id_, "test");
  const std::uint32_t index = RequestAccess::slot(request);
  Slot& s = requests_.at(index);
  const Time now = clock_.now();
  // What is not known yet is known once every transfer ready by now has been placed.
  const auto settle = [&] {
    if (!run_.ordered) return;
    const std::uint64_t ticket = request_horizon(now);
    const auto ready = [&] { return horizon_passed(ticket); };
    const auto describe = [&] { return BlockedOperation{id_, "test", s.peer, s.tag, {}}; };
    Wait w{ready, describe, {}, false, false};
    block_until(w);
    drain();
  };
  if (s.kind == Slot::Kind::send) {
    if (!s.send.released.load(std::memory_order_acquire)) settle();
    if (!s.send.released.load(std::memory_order_acquire) || s.send.done > now) return fruitless_test(s, now);
    complete_send(index);
  } else {
    drain();
    if (!s.matched) {
      settle();
      if (s.peer == kAnySource) {
        Time t = kNever;
        Message* best = best_for_any_source(s, &t);
        if (best == nullptr || t > now || !matcher_.take_for(index, best)) return fruitless_test(s, now);
      }
    }
    if (!s.matched || peek_receive(s) > now) return fruitless_test(s, now);
    complete_receive(s);
  }
  requests_.release(index);
  request = Request{};
  fruitless_tests_ = 0;
  return true;
}

// Once test() has found a request incomplete at model time t, every transfer ready by t has been placed (its horizon),
// and whatever is still to come completes after t: until the node's clock moves, every test of any request gives the
// same answer. A kernel that polls without advancing its clock (no wait, no elapse) would spin for ever; after more
// fruitless tests in a row than it has requests, many times over, it is told so, as a deadlock is.
bool NodeRuntime::fruitless_test(const Slot& s, Time now) {
  if (!run_.ordered) return false;  // native timing: real time passes, and a poll may succeed later
  if (fruitless_tests_ == 0 || now != fruitless_clock_) {
    fruitless_clock_ = now;
    fruitless_tests_ = 0;
  }
  if (++fruitless_tests_ > 10000 + 2 * static_cast<std::uint64_t>(requests_.size()))
    throw Error(where("test") + "livelock: polled " + std::to_string(fruitless_tests_) +
                " times at model time " + std::to_string(now) + " ps (the " +
                (s.kind == Slot::Kind::send ? "send to " : "receive from ") + std::to_string(s.peer) + ", tag " +
                std::to_string(s.tag) +
                "), and nothing can change until the node's clock moves: test() does not advance it (use wait(), or "
                "elapse() between tests)");
  return false;
}

// ---------------------------------------------------------------------------------------------------------------
// Barrier and local work

void NodeRuntime::barrier() {
  check_running();
  maybe_yield();
  const Time entry = clock_.now();
  const GlobalBarrier::Entry e = run_.barrier.arrive(entry);
  if (e.last && !run_.distributed()) {
    run_.barrier.release(run_.timing.barrier_release(e.latest_entry));
    for (const auto& n : run_.nodes)
      if (n.get() != this) n->notify();
  } else {
    // Spread over ranks, the last node in on this rank leaves the release to a round with every rank.
    if (e.last) run_.coordinator.local_barrier_complete(e.latest_entry);
    const auto ready = [&] { return run_.barrier.released(e.generation); };
    const auto describe = [&] { return BlockedOperation{id_, "barrier", -1, 0, {}}; };
    Wait w{ready, describe, {}, false, false};
    block_until(w);
  }
  const Time release = run_.barrier.release_time();
  advance_clock(release);
  record("barrier", entry, release);
}

std::uint32_t NodeRuntime::enter_collective() {
  const std::uint32_t previous = context_;
  context_ = ++contexts_entered_;
  return previous;
}

void NodeRuntime::copy(std::span<const std::byte> from, std::span<std::byte> to) {
  check_running();
  if (to.size() < from.size())
    throw UsageError(where("copy") + "destination of " + std::to_string(to.size()) +
                     " bytes is shorter than the " + std::to_string(from.size()) + " bytes copied");
  if (!from.empty()) std::memmove(to.data(), from.data(), from.size());
  charge(run_.timing.copy(from.size()), "copy");
}

void NodeRuntime::permute(std::span<const std::byte> from, std::span<std::byte> to, std::size_t block_bytes,
                          std::span<const std::uint32_t> order) {
  check_running();
  const std::size_t moved = order.size() * block_bytes;
  if (to.size() < moved)
    throw UsageError(where("permute") + "destination of " + std::to_string(to.size()) +
                     " bytes is shorter than the " + std::to_string(moved) + " bytes permuted");
  if (from.data() < to.data() + to.size() && to.data() < from.data() + from.size() && moved > 0)
    throw UsageError(where("permute") + "source and destination overlap");
  for (std::size_t i = 0; i < order.size(); ++i) {
    if ((static_cast<std::size_t>(order[i]) + 1) * block_bytes > from.size())
      throw UsageError(where("permute") + "block " + std::to_string(order[i]) + " is outside the " +
                       std::to_string(from.size()) + "-byte source");
    if (block_bytes > 0) std::memcpy(to.data() + i * block_bytes, from.data() + order[i] * block_bytes, block_bytes);
  }
  charge(run_.timing.copy(moved), "copy");
}

void NodeRuntime::compute(std::uint64_t flops) {
  check_running();
  charge(run_.timing.compute(flops), "compute");
}

void NodeRuntime::elapse(Time t) {
  check_running();
  charge(run_.timing.elapse(t), "elapse");
}

void NodeRuntime::charge(Time cost, const char* kind) {
  const Time start = clock_.now();
  advance_clock(timing::add_time(start, cost, kind));
  if (cost > 0) record(kind, start, start + cost);
}

void NodeRuntime::record(const char* kind, Time start, Time end, int peer, std::size_t bytes, int tag,
                         std::uint64_t message) {
  if (run_.settings.trace) trace_.push_back(TraceSpan{id_, kind, start, end, peer, bytes, tag, message, {}});
}

void NodeRuntime::record_call(const char* call, Time start, Time end, int peer, std::size_t bytes, int tag) {
  if (run_.settings.trace) trace_.push_back(TraceSpan{id_, "wait", start, end, peer, bytes, tag, 0, call});
}

}  // namespace hcemu::detail
