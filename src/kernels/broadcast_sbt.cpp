// Binomial spanning tree broadcast: Johnsson & Ho (1987) §3.2 and Table 1 (SBT-b(1,1)); Stout & Wagar (1990) §2
// BROADCAST 1.
//
// With r = id ^ root and h(r) its highest 1-bit (h(0) = -1): parent(r) = r ^ 2^h(r), children(r) = r ^ 2^t for
// t > h(r). In step t every node that has the message sends it across dimension t (recursive doubling), so node r
// receives in step h(r) and then serves its children in the order of the steps.
#include <vector>

#include "broadcast_cube.hpp"
#include "hcemu/kernels/broadcast.hpp"

namespace hcemu::kernels {

void sbt_broadcast(Node& node, std::span<std::byte> message, int root) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  detail::check_root(root, node.size(), "sbt_broadcast");
  const int d = node.dim();
  const auto relative = static_cast<std::uint32_t>(node.id() ^ root);
  const int top = detail::highest_bit(relative);

  // The receive is the node's first act, so it is posted before its parent can send (FORCED-safe).
  if (relative != 0) node.recv(node.id() ^ static_cast<int>(detail::dim_bit(top)), message);

  // One isend per child in step order: a one-port node sends them one after the other, which is the schedule;
  // a node with more ports overlaps them, which changes nothing on the critical path of d transfers.
  std::vector<Request> sends;
  sends.reserve(static_cast<std::size_t>(d));
  for (int t = top + 1; t < d; ++t) sends.push_back(node.isend(node.neighbor(t), std::span<const std::byte>(message)));
  node.wait_all(sends);
}

}  // namespace hcemu::kernels
