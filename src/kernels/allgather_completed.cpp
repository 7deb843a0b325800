// Stout & Wagar (1990) §6, COMPLETE BROADCAST: BROADCAST 2 (§2) run from every node at once, "stage by stage, with
// batching" (docs/kernels/allgather.md).
//
// In BROADCAST 2 from source s, packet P_i is held after stage k-1 by the nodes s ^ rot_i(j), j < 2^k, and in
// stage k each of them sends it across dimension (i + k) mod d. Run from every source, node x sends across
// dimension e in stage k the pieces P_i, i = (e - k) mod d, of the 2^k sources x ^ rot_i(j), j < 2^k: one packet of
// 2^k·m/d bytes per link. Stage k thus takes τ·2^k·m/d + β, and all d stages (2^d - 1)τm/d + dβ.
//
// Working layout, in relative addresses so that every node runs the same schedule: W_i[j] = piece i of the message
// of source x ^ rot_i(j). What x sends in stage k is W_i[0 .. 2^k); what its neighbour y = x ^ 2^((i+k) mod d)
// sends back are the pieces of sources y ^ rot_i(j) = x ^ rot_i(2^k + j), which are x's W_i[2^k .. 2^(k+1)). So
// every stage sends and receives contiguous runs and nothing moves between stages. The own message is copied
// into W_i[0] at the start and every other piece out to `all` at the end, both charged ρ.
#include <vector>

#include "broadcast_cube.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/kernels/allgather.hpp"

namespace hcemu::kernels {

void completed_allgather(Node& node, std::span<std::byte> all, std::size_t m) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const std::size_t n = static_cast<std::size_t>(node.size());
  if (all.size() != n * m) throw UsageError("completed_allgather: `all` must hold 2^d blocks of m bytes");
  const int d = node.dim();
  if (d == 0) return;
  const auto parts = static_cast<std::size_t>(d);
  const auto self = static_cast<std::uint32_t>(node.id());

  Buffer<std::byte> work = node.allocate<std::byte>(n * m);
  // W_i is n pieces of part_bytes(i) bytes, starting where piece i starts times n.
  auto pieces = [&](int i, std::size_t first, std::size_t count) {
    const auto ui = static_cast<std::size_t>(i);
    const std::size_t len = detail::part_bytes(m, parts, ui);
    return work.span().subspan(n * detail::part_offset(m, parts, ui) + first * len, count * len);
  };
  auto piece_of = [&](std::uint32_t source, int i) {
    const auto ui = static_cast<std::size_t>(i);
    return all.subspan(source * m + detail::part_offset(m, parts, ui), detail::part_bytes(m, parts, ui));
  };

  for (int i = 0; i < d; ++i) node.copy(piece_of(self, i), pieces(i, 0, 1));

  // Every receive posted up front: stage k brings W_i[2^k .. 2^(k+1)) across dimension (i + k) mod d.
  std::vector<std::vector<Request>> arriving(parts);
  for (int k = 0; k < d; ++k)
    for (int i = 0; i < d; ++i)
      arriving[static_cast<std::size_t>(k)].push_back(
          node.post_recv(node.neighbor((i + k) % d), pieces(i, std::size_t{1} << k, std::size_t{1} << k), i));

  std::vector<Request> sends;
  for (int k = 0; k < d; ++k) {
    if (k > 0) node.wait_all(arriving[static_cast<std::size_t>(k - 1)]);
    for (int i = 0; i < d; ++i)
      sends.push_back(
          node.isend(node.neighbor((i + k) % d), std::span<const std::byte>(pieces(i, 0, std::size_t{1} << k)), i));
  }
  node.wait_all(arriving[parts - 1]);
  node.wait_all(sends);

  for (std::uint32_t j = 1; j < n; ++j)
    for (int i = 0; i < d; ++i) node.copy(pieces(i, j, 1), piece_of(self ^ detail::rotate_left(j, i, d), i));
}

}  // namespace hcemu::kernels
