// All-to-all broadcast by the Gray Code Exchange Algorithm: Johnsson & Ho (1987) §4.2.1, GCEA(1,N) and GCEA(n,N).
//
//   GCEA(i, buf): j = the rightmost 0-bit of i - 1; exchange buf across dimension j     (i = 1..N-1)
//
// Every node uses the same dimension sequence, that of a Gray-code walk (0,1,0,2,0,1,0 for n = 3), so the paths of
// the N blocks are translations of each other; after step i a node holds the block of its coordinate ^ G(i).
// GCEA_n splits the block into n parts and exchanges part k across dimension (j + k) mod n: n rotated walks whose
// n exchanges of a step use n different links.
#include <vector>

#include "broadcast_cube.hpp"
#include "hcemu/kernels/primitives.hpp"
#include "hcemu/model/spanning_trees.hpp"
#include "jh_cube.hpp"

namespace hcemu::kernels {

void gcea_allgather(Node& node, std::span<std::byte> all, std::size_t m, Subcube cube) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const detail::CubeView v = detail::view(node, cube, "gcea_allgather");
  const int n = v.size();
  detail::check_blocks(all.size(), static_cast<std::size_t>(n), m, "all", "gcea_allgather");
  auto block = [&](std::uint32_t c) { return all.subspan(c * m, m); };

  // Every receive posted up front (FORCED-safe): step i brings the block of coordinate ^ G(i).
  std::vector<Request> arriving;
  for (int i = 1; i < n; ++i) {
    const int j = model::gray_transition(static_cast<std::uint32_t>(i - 1), v.dims);
    arriving.push_back(
        node.post_recv(v.neighbor(node, j), block(v.coordinate ^ model::gray(static_cast<std::uint32_t>(i)))));
  }
  std::vector<Request> sends;
  for (int i = 1; i < n; ++i) {
    const int j = model::gray_transition(static_cast<std::uint32_t>(i - 1), v.dims);
    const std::uint32_t held = v.coordinate ^ model::gray(static_cast<std::uint32_t>(i - 1));
    sends.push_back(node.isend(v.neighbor(node, j), std::span<const std::byte>(block(held))));
    node.wait(arriving[static_cast<std::size_t>(i - 1)]);
  }
  node.wait_all(sends);
}

void rotated_gcea_allgather(Node& node, std::span<std::byte> all, std::size_t m) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const int n = node.size(), d = node.dim();
  detail::check_blocks(all.size(), static_cast<std::size_t>(n), m, "all", "rotated_gcea_allgather");
  const auto parts = static_cast<std::size_t>(d);
  const auto self = static_cast<std::uint32_t>(node.id());
  // After step i part k is the one of source self ^ rot_k(G(i)).
  auto part = [&](int i, int k) {
    const std::uint32_t source = self ^ detail::rotate_left(model::gray(static_cast<std::uint32_t>(i)), k, d);
    const auto uk = static_cast<std::size_t>(k);
    return all.subspan(source * m + detail::part_offset(m, parts, uk), detail::part_bytes(m, parts, uk));
  };
  auto dimension = [&](int i, int k) { return (model::gray_transition(static_cast<std::uint32_t>(i - 1), d) + k) % d; };

  std::vector<std::vector<Request>> arriving(static_cast<std::size_t>(n));
  for (int i = 1; i < n; ++i)
    for (int k = 0; k < d; ++k)
      arriving[static_cast<std::size_t>(i)].push_back(node.post_recv(node.neighbor(dimension(i, k)), part(i, k), k));
  std::vector<Request> sends;
  for (int i = 1; i < n; ++i) {
    for (int k = 0; k < d; ++k)
      sends.push_back(node.isend(node.neighbor(dimension(i, k)), std::span<const std::byte>(part(i - 1, k)), k));
    node.wait_all(arriving[static_cast<std::size_t>(i)]);  // lock step: the next step sends what this one brought
  }
  node.wait_all(sends);
}

}  // namespace hcemu::kernels
