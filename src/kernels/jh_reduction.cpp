// Reductions on binomial trees: Johnsson & Ho (1987) §4.5. The one-to-all reduction runs the binomial spanning tree
// of sbt_broadcast backwards; the all-to-all reduction is recursive halving, the paper's algorithm 4 code (§5.1):
// "if the i-th bit of pid is 0, send the right half block columns of curr_A, keep the left half; otherwise the
// reverse; curr_A = curr_A + inbuf". Here the halves are taken from the highest dimension down, so that the blocks
// still held are always one contiguous run (the histogram of histogram_recursive_halving.cpp does the same).
#include <algorithm>
#include <vector>

#include "broadcast_cube.hpp"
#include "hcemu/kernels/reduction.hpp"
#include "jh_cube.hpp"

namespace hcemu::kernels {

void add_into(std::span<double> into, std::span<const double> from) {
  for (std::size_t k = 0; k < into.size(); ++k) into[k] += from[k];
}

void sbt_reduce(Node& node, std::span<double> data, int root, const Reduction& reduction) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  detail::check_root(root, node.size(), "sbt_reduce");
  const int d = node.dim();
  const auto relative = static_cast<std::uint32_t>(node.id() ^ root);
  const int top = detail::highest_bit(relative);
  const std::size_t b = data.size();

  // One buffer per child, all posted up front (FORCED-safe): the deepest child (across d - 1) sends first.
  std::vector<Buffer<double>> partial;
  std::vector<Request> arriving;
  for (int t = d - 1; t > top; --t) {
    partial.push_back(node.allocate<double>(b));
    arriving.push_back(node.post_recv(node.neighbor(t), partial.back().span()));
  }
  for (std::size_t c = 0; c < partial.size(); ++c) {
    node.wait(arriving[c]);
    reduction.combine(data, std::span<const double>(partial[c].span()));
    node.compute(reduction.flops_per_element * b);
  }
  if (relative != 0) node.send(node.neighbor(top), std::span<const double>(data));
}

namespace {

// Recursive halving on blocks of T, `combine(into, from)` then `flops` per element.
template <class T, class CombineFn>
void recursive_halving(Node& node, std::span<T> data, std::size_t block, std::span<T> out, CombineFn combine,
                       std::uint64_t flops, Subcube cube) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const detail::CubeView v = detail::view(node, cube, "recursive_halving_reduce_scatter");
  detail::check_blocks(data.size(), static_cast<std::size_t>(v.size()), block, "data", "recursive_halving_reduce_scatter");
  detail::check_blocks(out.size(), 1, block, "out", "recursive_halving_reduce_scatter");
  const auto self = v.coordinate;
  Buffer<T> incoming = node.allocate<T>(static_cast<std::size_t>(v.size() / 2) * block);
  for (int k = 1; k <= v.dims; ++k) {
    const int e = v.dims - k;
    const std::size_t half = (std::size_t{1} << e) * block;
    const std::uint32_t keep = (self & ~((std::uint32_t{2} << e) - 1)) | (self & (std::uint32_t{1} << e));
    const std::uint32_t give = keep ^ (std::uint32_t{1} << e);
    const std::span<T> mine = data.subspan(keep * block, half);
    const std::span<T> in = incoming.span().first(half);
    node.exchange(v.neighbor(node, e), std::span<const T>(data.subspan(give * block, half)), in);
    combine(mine, std::span<const T>(in));
    node.compute(flops * half);
  }
  const auto result = data.subspan(self * block, block);
  std::copy(result.begin(), result.end(), out.begin());  // the node's own block is the result: no move, no charge
}

}  // namespace

void recursive_halving_reduce_scatter(Node& node, std::span<double> data, std::size_t block, std::span<double> out,
                                      const Reduction& reduction, Subcube cube) {
  recursive_halving(node, data, block, out, reduction.combine, reduction.flops_per_element, cube);
}

void recursive_halving_reduce_scatter(Node& node, std::span<float> data, std::size_t block, std::span<float> out,
                                      Subcube cube) {
  const auto add = [](std::span<float> into, std::span<const float> from) {
    for (std::size_t k = 0; k < into.size(); ++k) into[k] += from[k];
  };
  recursive_halving(node, data, block, out, add, 1, cube);
}

}  // namespace hcemu::kernels
