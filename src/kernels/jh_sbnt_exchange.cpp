// All-to-all personalized communication along N translated Spanning Balanced n-Trees: Johnsson & Ho (1987) §4.4,
// SBnT-p(n,N). The block from source s to destination t goes down s's tree to t; in step k a node forwards every
// block it holds for a destination below a child on the port to that child, batched into one message per port.
// Blocks for the node itself are copied out as they arrive. Every node's loads are the same by translation
// (model::sbnt_personalized_loads), so every step lasts the time of its busiest port.
#include <algorithm>
#include <cstring>
#include <vector>

#include "hcemu/kernels/primitives.hpp"
#include "jh_cube.hpp"
#include "jh_sbnt_schedule.hpp"

namespace hcemu::kernels {

void sbnt_exchange(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const int n = node.dim();
  detail::start_personalized(node, send, recv, m, "sbnt_exchange");
  const auto self = static_cast<std::uint32_t>(node.id());
  if (n == 0) return;
  const detail::SbntSchedule schedule = detail::sbnt_personalized_schedule(self, n);
  const auto steps = static_cast<std::size_t>(n);

  std::vector<std::vector<Buffer<std::byte>>> outgoing(steps), incoming(steps);
  std::vector<std::vector<Request>> arriving(steps);
  for (std::size_t s = 0; s < steps; ++s)
    for (std::size_t i = 0; i < steps; ++i) {
      outgoing[s].push_back(node.allocate<std::byte>(schedule.out[s][i].size() * m));
      incoming[s].push_back(node.allocate<std::byte>(schedule.in[s][i].size() * m));
      if (!schedule.in[s][i].empty())
        arriving[s].push_back(node.post_recv(node.neighbor(static_cast<int>(i)), incoming[s][i].span()));
    }

  // Where a block to forward in step s + 1 sits: it arrived in step s on the port from its source's tree parent.
  auto held = [&](std::size_t s, const detail::Route& route) -> std::span<const std::byte> {
    if (route.source == self) return send.subspan(route.destination * m, m);
    for (std::size_t i = 0; i < steps; ++i) {
      const auto& list = schedule.in[s - 1][i];
      const auto at = std::lower_bound(list.begin(), list.end(), route);
      if (at != list.end() && *at == route)
        return incoming[s - 1][i].span().subspan(static_cast<std::size_t>(at - list.begin()) * m, m);
    }
    throw Error("sbnt_exchange: a block to forward never arrived (schedule inconsistent)");
  };

  std::vector<Request> sends;
  for (std::size_t s = 0; s < steps; ++s) {
    if (s > 0) {
      node.wait_all(arriving[s - 1]);
      for (std::size_t i = 0; i < steps; ++i)  // deliver what has reached its destination
        for (std::size_t b = 0; b < schedule.in[s - 1][i].size(); ++b)
          if (schedule.in[s - 1][i][b].destination == self)
            node.copy(incoming[s - 1][i].span().subspan(b * m, m), recv.subspan(schedule.in[s - 1][i][b].source * m, m));
    }
    for (std::size_t i = 0; i < steps; ++i) {
      const auto& list = schedule.out[s][i];
      for (std::size_t b = 0; b < list.size(); ++b) node.copy(held(s, list[b]), outgoing[s][i].span().subspan(b * m, m));
    }
    for (std::size_t i = 0; i < steps; ++i)
      if (!schedule.out[s][i].empty())
        sends.push_back(
            node.isend(node.neighbor(static_cast<int>(i)), std::span<const std::byte>(outgoing[s][i].span())));
  }
  node.wait_all(arriving[steps - 1]);
  for (std::size_t i = 0; i < steps; ++i)
    for (std::size_t b = 0; b < schedule.in[steps - 1][i].size(); ++b)  // all leaves now: every block is home
      node.copy(incoming[steps - 1][i].span().subspan(b * m, m), recv.subspan(schedule.in[steps - 1][i][b].source * m, m));
  node.wait_all(sends);
}

}  // namespace hcemu::kernels
