// Johnsson & Ho (1987) §4.3, SBT-p(1,1): scatter down the spanning binomial tree by recursive halving, and the gather
// by the same tree, backwards (their §4.5 reduction without the arithmetic).
//
// Scatter, relative address x, e(x) its lowest 1-bit (d for the root): x receives from x ^ 2^e(x) the 2^e(x) blocks
// of the nodes that agree with it on the bits from e(x) up, then for e = e(x) - 1 down to 0 sends the half of them
// that lies across dimension e. In absolute addresses those blocks are an aligned range of 2^e consecutive blocks
// (the bits from e up are fixed), so everything is sent straight from where it was received. The root's first send
// goes to the largest subtree; the sends follow one another, Σ_i T(2^i·m), on every port model.
#include <bit>
#include <cstring>

#include "hcemu/kernels/scatter.hpp"
#include "scatter_waves.hpp"

namespace hcemu::kernels {
namespace {

// The 2^e blocks around `node` (the aligned range of absolute addresses sharing its bits from e up).
std::size_t range_start(int id, int e) { return static_cast<std::size_t>(id) & ~((std::size_t{1} << e) - 1); }

}  // namespace

void sbt_scatter(Node& node, std::span<const std::byte> blocks, std::span<std::byte> block, int root) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const std::size_t m = block.size();
  detail::check_scatter_buffers(node, root, blocks, m, "sbt_scatter");
  const int d = node.dim(), id = node.id();
  const auto x = static_cast<std::uint32_t>(id ^ root);
  if (x == 0) {
    if (m > 0) std::memcpy(block.data(), blocks.data() + static_cast<std::size_t>(root) * m, m);
    for (int e = d - 1; e >= 0; --e) {
      const int to = id ^ (1 << e);
      node.send(to, blocks.subspan(range_start(to, e) * m, (std::size_t{1} << e) * m));
    }
    return;
  }
  const int top = std::countr_zero(x);  // e(x)
  Buffer<std::byte> held = node.allocate<std::byte>((std::size_t{1} << top) * m);
  const std::size_t base = range_start(id, top);
  node.recv(id ^ (1 << top), held);
  for (int e = top - 1; e >= 0; --e) {
    const int to = id ^ (1 << e);
    node.send(to, held.span().subspan((range_start(to, e) - base) * m, (std::size_t{1} << e) * m));
  }
  if (m > 0) std::memcpy(block.data(), held.data() + (static_cast<std::size_t>(id) - base) * m, m);
}

void sbt_gather(Node& node, std::span<const std::byte> block, std::span<std::byte> blocks, int root) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const std::size_t m = block.size();
  detail::check_scatter_buffers(node, root, blocks, m, "sbt_gather");
  const int d = node.dim(), id = node.id();
  const auto x = static_cast<std::uint32_t>(id ^ root);
  // The node gathers the blocks of the nodes that agree with it from bit low up, low = its lowest 1-bit (d for the
  // root), receiving from its partners across dimensions 0, 1, ..., low - 1, then passes them across dimension low.
  const int low = x == 0 ? d : std::countr_zero(x);
  Buffer<std::byte> gathered;
  std::span<std::byte> into = blocks;
  std::size_t base = 0;
  if (x != 0) {
    gathered = node.allocate<std::byte>((std::size_t{1} << low) * m);
    into = gathered.span();
    base = range_start(id, low);
  }
  if (m > 0) std::memcpy(into.data() + (static_cast<std::size_t>(id) - base) * m, block.data(), m);
  for (int e = 0; e < low; ++e) {
    const int from = id ^ (1 << e);
    node.recv(from, into.subspan((range_start(from, e) - base) * m, (std::size_t{1} << e) * m));
  }
  if (x != 0) node.send(id ^ (1 << low), std::span<const std::byte>(gathered));
}

}  // namespace hcemu::kernels
