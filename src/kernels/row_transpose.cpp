// Transpose of a row-distributed matrix by a complete exchange (Nicol & Bokhari 1994 Figure 1; Stout & Wagar
// 1990 §7.1: "for any even assignment, every node must send exactly N^2/2^(2d) entries to each other node").
#include <cstdint>
#include <string>
#include <vector>

#include "hcemu/errors.hpp"
#include "hcemu/kernels/transpose.hpp"

namespace hcemu::kernels {

void row_transpose(Node& node, std::span<const std::byte> rows, std::span<std::byte> out, std::size_t n,
                   std::size_t element_bytes, const ExchangeFn& exchange) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const auto nodes = static_cast<std::size_t>(node.size());
  if (n % nodes != 0) {
    throw UsageError("row transpose: n = " + std::to_string(n) + " is not a multiple of 2^d = " +
                     std::to_string(nodes));
  }
  const std::size_t r = n / nodes;  // rows per node, and the side of each sub-block
  const std::size_t share = r * n * element_bytes;
  if (rows.size() < share || out.size() < share) throw UsageError("row transpose: buffers smaller than n/2^d rows");
  const std::size_t m = r * r * element_bytes;

  Buffer<std::byte> packed = node.allocate<std::byte>(share);
  Buffer<std::byte> received = node.allocate<std::byte>(share);

  // Block q = (my rows x the columns of node q), transposed, so that it arrives ready to be laid into rows.
  std::vector<std::uint32_t> order(r * n);
  for (std::size_t q = 0; q < nodes; ++q)
    for (std::size_t i = 0; i < r; ++i)      // column within q's columns = row of the transposed block
      for (std::size_t j = 0; j < r; ++j)    // my row = column of the transposed block
        order[q * r * r + i * r + j] = static_cast<std::uint32_t>(j * n + q * r + i);
  if (m > 0) node.permute(rows.first(share), packed.span(), element_bytes, order);

  exchange(node, packed.span(), received.span(), m);

  // Row i of my share of the transpose is row i of the block from each node p in turn.
  order.assign(r * nodes, 0);
  for (std::size_t i = 0; i < r; ++i)
    for (std::size_t p = 0; p < nodes; ++p) order[i * nodes + p] = static_cast<std::uint32_t>(p * r + i);
  if (m > 0) node.permute(received.span(), out.first(share), r * element_bytes, order);
}

}  // namespace hcemu::kernels
