#include "runtime/coordinator.hpp"

#include <algorithm>

#include "runtime/message.hpp"
#include "runtime/node_runtime.hpp"
#include "runtime/run_state.hpp"

namespace hcemu::detail {

namespace {
bool later(const Pending* a, const Pending* b) { return b->key < a->key; }
}  // namespace

void Coordinator::start(int nodes) {
  running_.store(nodes, std::memory_order_relaxed);
  unfinished_.store(nodes, std::memory_order_relaxed);
  submissions_.store(nullptr, std::memory_order_relaxed);
  placing_.store(false, std::memory_order_relaxed);
  recheck_.store(false, std::memory_order_relaxed);
  heap_.clear();
}

void Coordinator::submit(Pending* p) {
  Pending* head = submissions_.load(std::memory_order_relaxed);
  do {
    p->submit_next = head;
  } while (!submissions_.compare_exchange_weak(head, p, std::memory_order_release, std::memory_order_relaxed));
}

void Coordinator::node_parked() {
  if (running_.fetch_sub(1, std::memory_order_seq_cst) == 1) on_quiescent();
}

void Coordinator::node_done() {
  unfinished_.fetch_sub(1, std::memory_order_seq_cst);
  node_parked();
}

// Nobody runs. One node at a time places transfers; a node that finds another placing leaves a note, and the placer
// looks again before it lets go.
void Coordinator::on_quiescent() {
  recheck_.store(true, std::memory_order_seq_cst);
  while (recheck_.load(std::memory_order_seq_cst)) {
    if (placing_.exchange(true, std::memory_order_acq_rel)) return;  // the placer will see the note
    recheck_.store(false, std::memory_order_seq_cst);
    if (running_.load(std::memory_order_seq_cst) == 0 && !run_.aborted()) place_in_order();
    placing_.store(false, std::memory_order_seq_cst);
  }
}

void Coordinator::place_in_order() {
  take_submissions();
  // Every node that runs again because of a placement bounds what may be placed after it.
  timing::OrderKey horizon = timing::OrderKey::infinity();
  const auto woke = [&](NodeRuntime& node, std::optional<Time> floor) {
    if (floor) horizon = std::min(horizon, timing::OrderKey::floor_of(*floor, node.id()));
  };
  while (!heap_.empty() && heap_.front()->key < horizon && !run_.aborted()) {
    Pending* p = pop();
    if (p->kind == Pending::Kind::horizon) {
      // A node waits until everything ready by its time is placed: it is now.
      NodeRuntime& node = *run_.nodes[static_cast<std::size_t>(p->owner)];
      node.horizon_reached();
      woke(node, node.poke());
      continue;
    }
    auto* m = static_cast<Message*>(p);
    const timing::CommitStep step = run_.timing.commit(m->transfer, m->key.ready);
    if (step.sender_released) {
      NodeRuntime& sender = *run_.nodes[static_cast<std::size_t>(m->source)];
      sender.transfer_released(*m);
      woke(sender, sender.poke());
    }
    if (step.arrived) {
      NodeRuntime& receiver = *run_.nodes[static_cast<std::size_t>(m->destination)];
      receiver.deliver(m);  // m belongs to the receiver from here on
      woke(receiver, receiver.poke());
    } else if (step.more) {
      m->key = m->transfer.key;
      push(m);
    }
  }
  if (heap_.empty() && submissions_.load(std::memory_order_seq_cst) == nullptr &&
      running_.load(std::memory_order_seq_cst) == 0 && unfinished_.load(std::memory_order_seq_cst) > 0 &&
      !run_.aborted()) {
    // Every unfinished node is parked and nothing is left that could wake one.
    std::vector<BlockedOperation> blocked;
    for (const auto& node : run_.nodes)
      if (node->parked()) blocked.push_back(node->blocked_operation());
    run_.deadlock(std::move(blocked));
  }
}

void Coordinator::take_submissions() {
  Pending* p = submissions_.exchange(nullptr, std::memory_order_acquire);
  while (p != nullptr) {
    Pending* next = p->submit_next;
    push(p);
    p = next;
  }
}

void Coordinator::push(Pending* p) {
  heap_.push_back(p);
  std::push_heap(heap_.begin(), heap_.end(), later);
}

Pending* Coordinator::pop() {
  std::pop_heap(heap_.begin(), heap_.end(), later);
  Pending* p = heap_.back();
  heap_.pop_back();
  return p;
}

void Coordinator::discard_pending() {
  take_submissions();
  for (Pending* p : heap_)
    if (p->kind == Pending::Kind::message) Message::destroy(static_cast<Message*>(p));
  heap_.clear();
}

}  // namespace hcemu::detail
