// Suh, Shin & An's torus complete exchanges T1, T2 and T1.x: one step loop over the family's schedule
// (model::torus_schedule), moving the blocks the data rule says (model::torus_transfer).
//
// Block bookkeeping. A node's blocks live in one pool in its arena: slots [0, P) hold a copy of `send` (P = the
// number of nodes), and every message the node receives lands, untouched, in a slot range of its own behind them.
// `slot[i]` says where the i-th block of the node's current holdings (model::torus_holdings, in canonical order)
// lies. Sending packs the outgoing blocks from their slots into one message in canonical order; the receiver knows
// that order, so it knows which block each slot of the message holds. At the end the node's holdings are the P
// blocks addressed to it, gathered into `recv` in order of source.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "hcemu/errors.hpp"
#include "hcemu/kernels/torus_exchange.hpp"
#include "hcemu/model/torus_exchange.hpp"

namespace hcemu::kernels {
namespace {

using model::TorusAction;
using model::TorusBlockSet;
using model::TorusRole;
using model::TorusSchedule;

// The side exponent d of the 2^d x 2^d torus this node is part of.
int square_torus_d(const Node& node, const TorusShape& shape) {
  model::validate(shape);
  if (shape.rows != shape.cols || shape.nodes() != node.size()) {
    throw UsageError("torus exchange on node " + std::to_string(node.id()) + ": needs a square torus of " +
                     std::to_string(node.size()) + " nodes, got " + std::to_string(shape.rows) + " x " +
                     std::to_string(shape.cols));
  }
  return std::countr_zero(static_cast<unsigned>(shape.cols));
}

// What this node does in one step, and which blocks move.
struct StepPlan {
  TorusAction action;
  int partner = -1;        // node id
  TorusBlockSet outgoing;  // what it sends (exchange, send)
  TorusBlockSet incoming;  // what it receives (exchange, receive)
  std::size_t slot = 0;    // where the incoming message lands in the pool, in blocks

  bool sends() const { return action.role == TorusRole::exchange || action.role == TorusRole::send; }
  bool receives() const { return action.role == TorusRole::exchange || action.role == TorusRole::receive; }
};

void run_family(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m, int x,
                const TorusShape& shape, const ExchangeOptions& options) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const int d = square_torus_d(node, shape);
  const auto nodes = static_cast<std::size_t>(node.size());
  if (send.size() < nodes * m || recv.size() < nodes * m) {
    throw UsageError("torus exchange on node " + std::to_string(node.id()) + ": buffers of " +
                     std::to_string(send.size()) + " and " + std::to_string(recv.size()) + " bytes, need " +
                     std::to_string(nodes * m));
  }
  const TorusSchedule schedule = model::torus_schedule(d, x);
  if (d == 0) {  // one node: the own block never moves (as in the hypercube exchanges, kernels/exchange.hpp)
    if (m > 0) std::memcpy(recv.data(), send.data(), m);
    return;
  }
  const Coordinates self = model::torus_coord(shape, node.id());
  const std::size_t steps = schedule.steps.size();

  // The node's holdings between steps, and its part in every step.
  std::vector<TorusBlockSet> held(steps + 1);
  for (std::size_t k = 0; k <= steps; ++k) held[k] = model::torus_holdings(schedule, k, self);
  std::vector<StepPlan> plan(steps);
  std::size_t pool_blocks = nodes;
  std::size_t largest_outgoing = 0;
  for (std::size_t k = 0; k < steps; ++k) {
    StepPlan& p = plan[k];
    p.action = model::torus_action(schedule, k, self);
    if (p.action.role == TorusRole::idle) continue;
    p.partner = model::torus_id(shape, p.action.partner);
    if (p.sends()) {
      p.outgoing = model::torus_transfer(schedule, k, self, p.action.partner);
      largest_outgoing = std::max(largest_outgoing, p.outgoing.size());
    }
    if (p.receives()) {
      p.incoming = model::torus_transfer(schedule, k, p.action.partner, self);
      p.slot = pool_blocks;
      pool_blocks += p.incoming.size();
    }
  }

  Buffer<std::byte> pool = node.allocate<std::byte>(pool_blocks * m);
  Buffer<std::byte> message = node.allocate<std::byte>(largest_outgoing * m);
  // Inside the exchange's own tag space: data and the zero-byte syncs apart.
  constexpr int data_tag = 0;
  constexpr int sync_tag = 1;
  std::vector<Request> data_recv(steps), sync_recv(steps);
  const auto post = [&](std::size_t k) {
    const StepPlan& p = plan[k];
    if (p.receives())
      data_recv[k] = node.post_recv(p.partner, pool.span().subspan(p.slot * m, p.incoming.size() * m), data_tag);
    if (options.sync == Sync::pairwise && p.action.role != TorusRole::idle)
      sync_recv[k] = node.post_recv(p.partner, std::span<std::byte>(), sync_tag);
  };
  if (options.sync == Sync::none)
    for (std::size_t k = 0; k < steps; ++k) post(k);

  node.copy(send.first(nodes * m), pool.span().first(nodes * m));
  // The initial holdings in canonical order are the blocks by destination id: exactly `send`'s order.
  std::vector<std::uint32_t> slot(nodes), next_slot, order;
  for (std::size_t i = 0; i < nodes; ++i) slot[i] = static_cast<std::uint32_t>(i);

  for (std::size_t k = 0; k < steps; ++k) {
    const StepPlan& p = plan[k];
    if (options.sync != Sync::none) {
      post(k);
      node.barrier();
    }
    if (p.action.role == TorusRole::idle) continue;
    std::vector<Request> sends;
    if (options.sync == Sync::pairwise) {
      sends.push_back(node.isend(p.partner, std::span<const std::byte>(), sync_tag));
      node.wait(sync_recv[k]);
    }
    if (p.sends()) {
      order.resize(p.outgoing.size());
      for (std::size_t i = 0; i < order.size(); ++i) {
        const auto b = p.outgoing.block(i);
        order[i] = slot[held[k].rank(b.source, b.dest)];
      }
      const auto bytes = message.span().first(order.size() * m);
      node.permute(pool.span(), bytes, m, order);
      sends.push_back(node.isend(p.partner, bytes, data_tag));
    }
    if (p.receives()) node.wait(data_recv[k]);
    node.wait_all(sends);

    // Where each block of the new holdings lies: in this step's message, or where it was.
    const TorusBlockSet& now = held[k + 1];
    next_slot.resize(now.size());
    for (std::size_t i = 0; i < now.size(); ++i) {
      const auto b = now.block(i);
      next_slot[i] = p.receives() && p.incoming.contains(b.source, b.dest)
                         ? static_cast<std::uint32_t>(p.slot + p.incoming.rank(b.source, b.dest))
                         : slot[held[k].rank(b.source, b.dest)];
    }
    slot.swap(next_slot);
  }

  // The gather: block s of `recv` is the one from node s.
  order.resize(nodes);
  for (std::size_t s = 0; s < nodes; ++s)
    order[s] = slot[held[steps].rank(model::torus_coord(shape, static_cast<int>(s)), self)];
  node.permute(pool.span(), recv.first(nodes * m), m, order);
}

}  // namespace

void torus_t1x_exchange(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m, int x,
                        const TorusShape& shape, const ExchangeOptions& options) {
  run_family(node, send, recv, m, x, shape, options);
}

void torus_t1_exchange(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m,
                       const TorusShape& shape, const ExchangeOptions& options) {
  run_family(node, send, recv, m, model::torus_max_x(square_torus_d(node, shape)), shape, options);
}

void torus_t2_exchange(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m,
                       const TorusShape& shape, const ExchangeOptions& options) {
  run_family(node, send, recv, m, 0, shape, options);
}

}  // namespace hcemu::kernels
