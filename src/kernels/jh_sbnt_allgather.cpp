// All-to-all broadcast along N translated Spanning Balanced n-Trees: Johnsson & Ho (1987) §4.2.3, SBnT-b(n,N), after
// the paper's pseudo-code: in every step each port sends the blocks (source || data) that go the same way, and a
// node appends every block it receives to the outgoing buffer of each port leading to a child in the source's tree.
// Here the node knows from the trees which blocks arrive where (jh_sbnt_schedule.hpp), so the messages carry no
// source ids. The loads of a step are the same at every node (translation), so every step lasts the time of its
// busiest port, and the node set being split into n nearly equal subtrees makes the total nearly (N - 1)M/n.
#include <vector>

#include "hcemu/kernels/primitives.hpp"
#include "jh_sbnt_allgather.hpp"

namespace hcemu::kernels {
namespace detail {

SbntAllgather::SbntAllgather(Node& node, std::span<std::byte> all, std::size_t m, Subcube cube, int tag)
    : node_(node), all_(all), m_(m), view_(view(node, cube, "sbnt_allgather")), tag_(tag) {
  check_blocks(all.size(), static_cast<std::size_t>(view_.size()), m, "all", "sbnt_allgather");
  schedule_ = sbnt_broadcast_schedule(view_.coordinate, view_.dims);
  const auto n = static_cast<std::size_t>(view_.dims);
  outgoing_.resize(n);
  incoming_.resize(n);
  arriving_.resize(n);
  for (std::size_t s = 0; s < n; ++s)
    for (std::size_t i = 0; i < n; ++i) {
      outgoing_[s].push_back(node.allocate<std::byte>(schedule_.out[s][i].size() * m));
      incoming_[s].push_back(node.allocate<std::byte>(schedule_.in[s][i].size() * m));
      if (!schedule_.in[s][i].empty())
        arriving_[s].push_back(node.post_recv(view_.neighbor(node, static_cast<int>(i)), incoming_[s][i].span(), tag));
    }
}

void SbntAllgather::pack(int s) {
  const auto& ports = schedule_.out[static_cast<std::size_t>(s - 1)];
  for (std::size_t i = 0; i < ports.size(); ++i)
    for (std::size_t b = 0; b < ports[i].size(); ++b)
      node_.copy(all_.subspan(ports[i][b].source * m_, m_), buffer(outgoing_, s, i).subspan(b * m_, m_));
}

void SbntAllgather::send(int s) {
  const auto& ports = schedule_.out[static_cast<std::size_t>(s - 1)];
  for (std::size_t i = 0; i < ports.size(); ++i)
    if (!ports[i].empty())
      sends_.push_back(node_.isend(view_.neighbor(node_, static_cast<int>(i)),
                                   std::span<const std::byte>(buffer(outgoing_, s, i)), tag_));
}

void SbntAllgather::unpack(int s) {
  const auto& ports = schedule_.in[static_cast<std::size_t>(s - 1)];
  for (std::size_t i = 0; i < ports.size(); ++i)
    for (std::size_t b = 0; b < ports[i].size(); ++b)
      node_.copy(buffer(incoming_, s, i).subspan(b * m_, m_), all_.subspan(ports[i][b].source * m_, m_));
}

void SbntAllgather::finish() { node_.wait_all(sends_); }

}  // namespace detail

void sbnt_allgather(Node& node, std::span<std::byte> all, std::size_t m, Subcube cube) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  detail::SbntAllgather broadcast(node, all, m, cube, 0);
  for (int s = 1; s <= broadcast.steps(); ++s) {
    broadcast.pack(s);
    broadcast.send(s);
    node.wait_all(broadcast.arrivals(s));
    broadcast.unpack(s);
  }
  broadcast.finish();
}

}  // namespace hcemu::kernels
