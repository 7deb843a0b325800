// Stout & Wagar (1990) §2, BROADCAST 2: BROADCAST 1 symmetrized.
//
//   split the message into P_0 .. P_{d-1}
//   stage k = 0..d-1: for every i and every j < 2^k, node rot_i(j) sends P_i to (+)_{(i+k) mod d}(rot_i(j))
//
// So P_i follows the binomial tree with dimension order i, i+1, ..., i+d-1 (mod d): node r (relative to the root)
// gets P_i in stage t_i(r), the highest 1-bit of rot_{-i}(r), and passes it on in every later stage k across
// dimension (i + k) mod d. In a stage the d packets cross d different dimensions, so a node sends at most one
// packet per link per stage, and on an all-port machine a stage lasts one packet time: d(τm/d + λ) = τm + dλ.
#include <vector>

#include "broadcast_cube.hpp"
#include "hcemu/kernels/broadcast.hpp"

namespace hcemu::kernels {

void symmetrized_broadcast(Node& node, std::span<std::byte> message, int root) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  detail::check_root(root, node.size(), "symmetrized_broadcast");
  const int d = node.dim();
  if (d == 0) return;
  const auto parts = static_cast<std::size_t>(d);
  const std::size_t m = message.size();
  const auto relative = static_cast<std::uint32_t>(node.id() ^ root);
  auto packet = [&](int i) {
    const auto ui = static_cast<std::size_t>(i);
    return message.subspan(detail::part_offset(m, parts, ui), detail::part_bytes(m, parts, ui));
  };

  // P_i reaches node r in stage t_i(r), the highest 1-bit of rot_{-i}(r), across dimension (i + t_i) mod d; the root
  // has every packet from the start (t_i = -1). All receives are posted up front.
  std::vector<int> arrives(parts, -1);
  std::vector<std::vector<Request>> arriving(parts);
  for (int i = 0; i < d && relative != 0; ++i) {
    const int t = detail::highest_bit(detail::rotate_left(relative, d - i, d));
    arrives[static_cast<std::size_t>(i)] = t;
    arriving[static_cast<std::size_t>(t)].push_back(node.post_recv(node.neighbor((i + t) % d), packet(i), i));
  }

  // Stage k: every packet that arrived by stage k - 1 goes on across dimension (i + k) mod d.
  std::vector<Request> sends;
  for (int k = 0; k < d; ++k) {
    if (k > 0) node.wait_all(arriving[static_cast<std::size_t>(k - 1)]);
    for (int i = 0; i < d; ++i)
      if (arrives[static_cast<std::size_t>(i)] < k)
        sends.push_back(node.isend(node.neighbor((i + k) % d), std::span<const std::byte>(packet(i)), i));
  }
  node.wait_all(arriving[parts - 1]);
  node.wait_all(sends);
}

}  // namespace hcemu::kernels
