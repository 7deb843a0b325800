// Stout & Wagar (1990) §6, PERMUTED SEND: "two complete exchanges: one to disperse all the data evenly throughout
// the cube and another to collect them all at the appropriate destinations". No headers are needed: every node knows
// the permutation, so node j knows that the piece it holds from s is for π(s).
#include <cstring>
#include <string>
#include <vector>

#include "hcemu/errors.hpp"
#include "hcemu/kernels/exchange.hpp"
#include "hcemu/kernels/permutation.hpp"

namespace hcemu::kernels {

void permuted_send(Node& node, std::span<const std::byte> message, std::span<std::byte> out,
                   const Permutation& permutation) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const auto nodes = static_cast<std::size_t>(node.size());
  if (permutation.image.size() != nodes)
    throw UsageError("permuted_send: the permutation has " + std::to_string(permutation.image.size()) +
                     " entries for " + std::to_string(nodes) + " nodes");
  const std::size_t m = message.size();
  if (out.size() < m) throw UsageError("permuted_send: out holds fewer bytes than the message");
  const std::vector<std::uint32_t> inverse = model::inverse_permutation(permutation.image);
  if (node.dim() == 0) {  // one node, its own image: nothing travels
    if (m > 0) std::memcpy(out.data(), message.data(), m);
    return;
  }
  const std::size_t p = model::permuted_send_piece_bytes(node.dim(), m);
  const std::size_t padded = nodes * p;

  // The message as 2^d pieces; padded with zeros when 2^d does not divide it (bookkeeping, no ρ charge).
  Buffer<std::byte> send_copy, recv_copy;
  std::span<const std::byte> pieces = message;
  std::span<std::byte> result = out.subspan(0, m);
  if (padded != m) {
    send_copy = node.allocate<std::byte>(padded);
    std::fill(send_copy.begin(), send_copy.end(), std::byte{0});
    if (m > 0) std::memcpy(send_copy.data(), message.data(), m);
    pieces = send_copy.span();
    recv_copy = node.allocate<std::byte>(padded);
    result = recv_copy.span();
  }

  // Disperse: piece j to node j. Afterwards block s holds piece id of s's message.
  Buffer<std::byte> dispersed = node.allocate<std::byte>(padded);
  all_port_exchange(node, pieces, dispersed.span(), p);

  // Block t of the second exchange is the piece of the message bound for t, the one from π^-1(t).
  Buffer<std::byte> bound = node.allocate<std::byte>(padded);
  std::vector<std::uint32_t> order(nodes);
  for (std::size_t t = 0; t < nodes; ++t) order[t] = inverse[t];
  node.permute(dispersed.span(), bound.span(), p, order);

  // Collect: node j's piece j of the message for this node. Block j of the result is piece j: the message itself.
  all_port_exchange(node, bound.span(), result, p);
  if (padded != m && m > 0) std::memcpy(out.data(), recv_copy.data(), m);
}

}  // namespace hcemu::kernels
