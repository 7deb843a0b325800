// Transpose of a block-distributed matrix on a 2^c x 2^c grid, one-port: Johnsson & Ho (1987) §4.6 (from their
// refs [10, 8]): 2 log Nmin exchange steps, each moving ⌈P/N1⌉⌈Q/N2⌉ elements, plus a local transpose
// (docs/kernels/transpose.md).
//
// Node a·2^c + b holds block (a, b). For each bit i the block must swap bit i of its row and column coordinates.
// Where they agree nothing moves; where they differ the block goes two hops, first across the row dimension i + c
// to the node whose row bit now agrees with its column bit, which forwards it across the column dimension i. Each
// step a node either sends or receives one block, and every directed link carries at most one block.
#include <cstdint>
#include <string>
#include <vector>

#include "hcemu/errors.hpp"
#include "hcemu/kernels/transpose.hpp"

namespace hcemu::kernels {

void johnsson_ho_transpose(Node& node, std::span<const std::byte> block, std::span<std::byte> out, std::size_t n,
                           std::size_t element_bytes) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const int d = node.dim();
  if (d % 2 != 0) throw UsageError("Johnsson-Ho transpose: needs an even d for a square grid, got d = " + std::to_string(d));
  const int c = d / 2;
  const std::size_t side = n >> c;
  if ((side << c) != n) throw UsageError("Johnsson-Ho transpose: n is not a multiple of 2^(d/2)");
  const std::size_t bytes = side * side * element_bytes;
  if (block.size() < bytes || out.size() < bytes) throw UsageError("Johnsson-Ho transpose: buffers smaller than a block");

  const int id = node.id();
  const int a = id >> c, b = id & ((1 << c) - 1);
  Buffer<std::byte> arriving[2] = {node.allocate<std::byte>(bytes), node.allocate<std::byte>(bytes)};
  Buffer<std::byte> forward = node.allocate<std::byte>(bytes);
  std::span<const std::byte> current = block.first(bytes);
  int next = 0;

  for (int i = c - 1; i >= 0; --i) {
    const int row_neighbour = node.neighbor(i + c), column_neighbour = node.neighbor(i);
    if (((a >> i) & 1) != ((b >> i) & 1)) {
      // My block leaves across the row dimension; the block whose coordinates swap into mine arrives, forwarded,
      // across the column dimension. The receive is posted first (FORCED).
      Request in = node.post_recv(column_neighbour, arriving[next].span());
      node.send(row_neighbour, current);
      node.wait(in);
      current = arriving[next].span();
      next = 1 - next;
    } else {
      // Mine stays; I relay the block of my row neighbour to my column neighbour.
      node.recv(row_neighbour, forward.span());
      node.send(column_neighbour, forward.span());
    }
  }

  // The local transpose of the block (Johnsson & Ho count it as free; hcemu charges ρ per byte).
  std::vector<std::uint32_t> order(side * side);
  for (std::size_t i = 0; i < side; ++i)
    for (std::size_t j = 0; j < side; ++j) order[i * side + j] = static_cast<std::uint32_t>(j * side + i);
  if (bytes > 0) node.permute(current, out.first(bytes), element_bytes, order);
}

}  // namespace hcemu::kernels
