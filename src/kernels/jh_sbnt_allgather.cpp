// All-to-all broadcast along N translated spanning trees. The SBnT's: Johnsson & Ho (1987) §4.2.3, SBnT-b(n,N), after
// the paper's pseudo-code: in every step each port sends the blocks (source || data) that go the same way, and a
// node appends every block it receives to the outgoing buffer of each port leading to a child in the source's tree.
// Here the node knows from the trees which blocks arrive where (jh_sbnt_schedule.hpp), so the messages carry no
// source ids. The loads of a step are the same at every node (translation), so every step lasts the time of its
// busiest port, and the node set being split into n nearly equal subtrees makes the total nearly (N - 1)M/n.
// The same executor runs the binomial trees pipelined on all ports (SBT-b(n,N), Table 2) and the one-port schedules
// of SBnT-b(1,N) and nRSBT-b(1,N) (model::TreeSchedule: one dimension a step, two sweeps), whose steps each use one
// port, so that every step is one pairwise exchange.
#include <vector>

#include "broadcast_cube.hpp"
#include "hcemu/kernels/primitives.hpp"
#include "jh_sbnt_allgather.hpp"

namespace hcemu::kernels {
namespace detail {

TreeAllgather::TreeAllgather(Node& node, std::span<std::byte> all, std::size_t m, Subcube cube, int tag,
                             model::TreeSchedule (*schedule_of)(int n))
    : node_(node), all_(all), m_(m), view_(view(node, cube, "sbnt_allgather")), tag_(tag) {
  check_blocks(all.size(), static_cast<std::size_t>(view_.size()), m, "all", "sbnt_allgather");
  const model::TreeSchedule trees = schedule_of(view_.dims);
  steps_ = trees.steps;
  parts_ = static_cast<std::size_t>(trees.trees);
  schedule_ = tree_broadcast_schedule(view_.coordinate, trees);
  const auto n = static_cast<std::size_t>(view_.dims);
  const auto steps = static_cast<std::size_t>(steps_);
  outgoing_.resize(steps);
  incoming_.resize(steps);
  arriving_.resize(steps);
  for (std::size_t s = 0; s < steps; ++s)
    for (std::size_t i = 0; i < n; ++i) {
      outgoing_[s].push_back(node.allocate<std::byte>(bytes(schedule_.out[s][i])));
      incoming_[s].push_back(node.allocate<std::byte>(bytes(schedule_.in[s][i])));
      if (!schedule_.in[s][i].empty())
        arriving_[s].push_back(node.post_recv(view_.neighbor(node, static_cast<int>(i)), incoming_[s][i].span(), tag));
    }
}

std::span<std::byte> TreeAllgather::place(const Route& route) const {
  return all_.subspan(route.source * m_ + part_offset(m_, parts_, route.part), part_bytes(m_, parts_, route.part));
}

std::size_t TreeAllgather::bytes(const std::vector<Route>& routes) const {
  std::size_t total = 0;
  for (const Route& route : routes) total += part_bytes(m_, parts_, route.part);
  return total;
}

void TreeAllgather::pack(int s) {
  const auto& ports = schedule_.out[static_cast<std::size_t>(s - 1)];
  for (std::size_t i = 0; i < ports.size(); ++i) {
    std::size_t at = 0;
    for (const Route& route : ports[i]) {
      const std::span<std::byte> from = place(route);
      node_.copy(from, buffer(outgoing_, s, i).subspan(at, from.size()));
      at += from.size();
    }
  }
}

void TreeAllgather::send(int s) {
  const auto& ports = schedule_.out[static_cast<std::size_t>(s - 1)];
  for (std::size_t i = 0; i < ports.size(); ++i)
    if (!ports[i].empty())
      sends_.push_back(node_.isend(view_.neighbor(node_, static_cast<int>(i)),
                                   std::span<const std::byte>(buffer(outgoing_, s, i)), tag_));
}

void TreeAllgather::unpack(int s) {
  const auto& ports = schedule_.in[static_cast<std::size_t>(s - 1)];
  for (std::size_t i = 0; i < ports.size(); ++i) {
    std::size_t at = 0;
    for (const Route& route : ports[i]) {
      const std::span<std::byte> to = place(route);
      node_.copy(buffer(incoming_, s, i).subspan(at, to.size()), to);
      at += to.size();
    }
  }
}

void TreeAllgather::finish() { node_.wait_all(sends_); }

// Every step of the schedule in turn: pack, send, wait for what arrives, unpack.
void tree_allgather(Node& node, std::span<std::byte> all, std::size_t m, Subcube cube,
                    model::TreeSchedule (*schedule_of)(int n)) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  TreeAllgather broadcast(node, all, m, cube, 0, schedule_of);
  for (int s = 1; s <= broadcast.steps(); ++s) {
    broadcast.pack(s);
    broadcast.send(s);
    node.wait_all(broadcast.arrivals(s));
    broadcast.unpack(s);
  }
  broadcast.finish();
}

}  // namespace detail

void sbnt_allgather(Node& node, std::span<std::byte> all, std::size_t m, Subcube cube) {
  detail::tree_allgather(node, all, m, cube, model::sbnt_all_port_schedule);
}

void pipelined_sbt_allgather(Node& node, std::span<std::byte> all, std::size_t m) {
  detail::tree_allgather(node, all, m, {}, model::sbt_all_port_schedule);
}

void sbnt_one_port_allgather(Node& node, std::span<std::byte> all, std::size_t m) {
  detail::tree_allgather(node, all, m, {}, model::sbnt_one_port_schedule);
}

void nrsbt_one_port_allgather(Node& node, std::span<std::byte> all, std::size_t m) {
  detail::tree_allgather(node, all, m, {}, model::nrsbt_one_port_schedule);
}

}  // namespace hcemu::kernels
