// The plain send and Stout & Wagar (1990) §3 O.C. SEND 1: the whole message in one piece.
//
//   O.C. SEND 1: stage k = 0..n-1: node 2^k - 1 sends the message to (+)_k(2^k - 1)
//
// written for source 0 and destination 2^n - 1 and carried to the actual pair by detail::PairFrame.
#include <vector>

#include "hcemu/kernels/long_send.hpp"
#include "pair_frame.hpp"

namespace hcemu::kernels {

void direct_send(Node& node, std::span<std::byte> message, int src, int dst) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  dst = detail::resolve_destination(src, dst, node.dim());
  const detail::PairFrame frame(node.dim(), src, dst, "direct_send");
  if (src == dst) return;
  if (node.id() == src) node.send(dst, std::span<const std::byte>(message));
  if (node.id() == dst) node.recv(src, message);
}

void oc_send_1(Node& node, std::span<std::byte> message, int src, int dst) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  dst = detail::resolve_destination(src, dst, node.dim());
  const detail::PairFrame frame(node.dim(), src, dst, "oc_send_1");
  const int n = frame.n();
  const std::uint32_t v = frame.to_virtual(node.id());
  // The nodes of the path are 2^k - 1, k = 0..n: the k lowest virtual bits set, nothing else.
  const int k = std::countr_one(v);
  if (n == 0 || k > n || (v >> k) != 0) return;
  const auto previous = [&] { return frame.to_physical((std::uint32_t{1} << (k - 1)) - 1); };
  const auto next = [&] { return frame.to_physical((std::uint32_t{1} << (k + 1)) - 1); };
  if (k == 0) {
    node.send(next(), std::span<const std::byte>(message));
  } else if (k == n) {
    node.recv(previous(), message);
  } else {
    Buffer<std::byte> held = node.allocate<std::byte>(message.size());
    node.recv(previous(), held);
    node.send(next(), held);
  }
}

}  // namespace hcemu::kernels
