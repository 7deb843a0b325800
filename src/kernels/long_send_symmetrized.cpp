// Stout & Wagar (1990) §3, O.C. SEND 2: O.C. SEND 1 symmetrized.
//
//   split the message into P_0 .. P_{n-1}
//   stage k = 0..n-1: for every i, node rot_i(2^k - 1) sends P_i to (+)_{(i+k) mod n}(rot_i(2^k - 1))
//
// (rot_i rotates the n virtual bits). P_i crosses dimensions i, i+1, ..., i+n-1 (mod n), so after t steps it sits at
// the node whose virtual bits are the cyclic interval {i, ..., i+t-1}. Two packets never meet on a link or at an
// intermediate node: a cyclic interval of length 0 < t < n has one start. Each packet therefore travels at its own
// pace, and the longest (⌈m/n⌉ bytes) arrives after n·T(⌈m/n⌉). Empty packets (m < n) are not sent.
#include <optional>
#include <vector>

#include "broadcast_cube.hpp"
#include "hcemu/kernels/long_send.hpp"
#include "pair_frame.hpp"

namespace hcemu::kernels {
namespace {

struct Position {
  int packet;  // i
  int step;    // t: how many dimensions it has crossed
};

// Where on the packet paths the node with n-bit virtual address v sits, if it is an intermediate node of one.
std::optional<Position> intermediate_position(std::uint32_t v, int n) {
  const int t = std::popcount(v);
  if (t == 0 || t >= n) return std::nullopt;
  for (int i = 0; i < n; ++i)
    if (detail::rotate_left((std::uint32_t{1} << t) - 1, i, n) == v) return Position{i, t};
  return std::nullopt;  // not a cyclic interval: no path passes here
}

}  // namespace

void oc_send_2(Node& node, std::span<std::byte> message, int src, int dst) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  dst = detail::resolve_destination(src, dst, node.dim());
  const detail::PairFrame frame(node.dim(), src, dst, "oc_send_2");
  const int n = frame.n();
  const std::uint32_t v = frame.to_virtual(node.id());
  if (n == 0 || (v >> n) != 0) return;
  const std::size_t m = message.size();
  const auto parts = static_cast<std::size_t>(n);
  auto packet = [&](int i) {
    const auto ui = static_cast<std::size_t>(i);
    return message.subspan(detail::part_offset(m, parts, ui), detail::part_bytes(m, parts, ui));
  };
  auto neighbor = [&](int virtual_dim) { return node.neighbor(frame.dim(virtual_dim % n)); };

  if (v == 0) {
    std::vector<Request> sends;
    for (int i = 0; i < n; ++i)
      if (!packet(i).empty()) sends.push_back(node.isend(neighbor(i), std::span<const std::byte>(packet(i))));
    node.wait_all(sends);
  } else if (v == (std::uint32_t{1} << n) - 1) {
    // P_i arrives across its last dimension, i + n - 1.
    std::vector<Request> receives;
    for (int i = 0; i < n; ++i)
      if (!packet(i).empty()) receives.push_back(node.post_recv(neighbor(i + n - 1), packet(i)));
    node.wait_all(receives);
  } else if (const auto at = intermediate_position(v, n)) {
    const std::size_t bytes = detail::part_bytes(m, parts, static_cast<std::size_t>(at->packet));
    if (bytes == 0) return;
    Buffer<std::byte> held = node.allocate<std::byte>(bytes);
    node.recv(neighbor(at->packet + at->step - 1), held);
    node.send(neighbor(at->packet + at->step), held);
  }
}

}  // namespace hcemu::kernels
