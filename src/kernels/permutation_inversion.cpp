// Stout & Wagar (1990) §6, INVERSION: O.C. SEND 2 run from every node at once ("complete O.C. SEND 2").
//
// Packet i of the message from y crosses dimensions i, i+1, ..., i+d-1 (mod d), one per stage; in stage k it sits at
// y ^ rot_i(2^k - 1) and crosses dimension (i + k) mod d. So in stage k node x sends on link e the packet i = (e - k)
// mod d of the message from y = x ^ rot_i(2^k - 1): one packet per link per stage, none ever waiting for a link. What
// a node sends on link e in stage k it received on link e - 1 in stage k - 1; in the last stage, packet i of the
// message from x's opposite corner arrives on link i - 1 and goes straight into place. Each stage waits for the
// previous stage's packets, and every stage has one of the longest (packet 0) on some link, so the time is
// d·T(⌈m/d⌉). Empty packets (m < d) are not sent.
#include <cstring>
#include <string>
#include <vector>

#include "broadcast_cube.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/kernels/permutation.hpp"

namespace hcemu::kernels {

void inversion(Node& node, std::span<const std::byte> message, std::span<std::byte> out) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const int d = node.dim();
  const std::size_t m = message.size();
  if (out.size() < m) throw UsageError("inversion: out holds fewer bytes than the message");
  if (d == 0) {  // the one node is its own opposite corner: a fixed point, which does not travel
    if (m > 0) std::memcpy(out.data(), message.data(), m);
    return;
  }
  const auto parts = static_cast<std::size_t>(d);
  auto size = [&](int i) { return detail::part_bytes(m, parts, static_cast<std::size_t>(i)); };
  auto offset = [&](int i) { return detail::part_offset(m, parts, static_cast<std::size_t>(i)); };
  auto index = [d](int e, int k) { return ((e - k) % d + d) % d; };

  // held[k][e]: the packet received on link e in stage k (k < d - 1), sent on link e + 1 in stage k + 1.
  std::vector<std::vector<Buffer<std::byte>>> held(parts);
  std::vector<std::vector<Request>> arriving(parts);
  for (int k = 0; k < d; ++k)
    for (int e = 0; e < d; ++e) {
      const int i = index(e, k);
      if (size(i) == 0) continue;
      std::span<std::byte> into;
      if (k == d - 1) {
        into = out.subspan(offset(i), size(i));
      } else {
        held[static_cast<std::size_t>(k)].push_back(node.allocate<std::byte>(size(i)));
        into = held[static_cast<std::size_t>(k)].back().span();
      }
      arriving[static_cast<std::size_t>(k)].push_back(node.post_recv(node.neighbor(e), into));
    }

  std::vector<Request> sends;
  for (int k = 0; k < d; ++k) {
    if (k > 0) node.wait_all(arriving[static_cast<std::size_t>(k - 1)]);
    std::size_t slot = 0;  // held[k - 1] lists the non-empty packets by link, ascending
    for (int e = 0; e < d; ++e) {
      const int i = index(e, k);
      if (size(i) == 0) continue;
      std::span<const std::byte> packet;
      if (k == 0) {
        packet = message.subspan(offset(i), size(i));
      } else {
        // It came in on link e - 1 in stage k - 1; find its slot among that stage's non-empty packets.
        slot = 0;
        for (int f = 0; f < (e + d - 1) % d; ++f)
          if (size(index(f, k - 1)) != 0) ++slot;
        packet = held[static_cast<std::size_t>(k - 1)][slot].span();
      }
      sends.push_back(node.isend(node.neighbor(e), packet));
    }
  }
  node.wait_all(arriving[parts - 1]);
  node.wait_all(sends);
}

}  // namespace hcemu::kernels
