// Recursive halving histogram: Stout & Wagar (1990) §8, the unsymmetric version. (docs/kernels/histogram.md)
//
//   stage 1: the bottom-half nodes send their values for the upper half of the bins to their upper neighbours,
//            and vice versa; each node adds what it receives; then recurse on each half.
//
// Stage k = 1..d works across dimension d - k. Before it, a node holds partial sums for the blocks of the 2^(d-k+1)
// nodes that agree with it above that dimension, one contiguous run of bins: it sends the half that belongs to its
// neighbour's side and adds the other half from the neighbour. Stage k moves 2^(d-k) blocks: τ·bins/2^k + β each,
// (1 - 2^-d)τ·bins + dβ in all.
#include <vector>

#include "hcemu/kernels/histogram.hpp"
#include "histogram_common.hpp"

namespace hcemu::kernels {

void recursive_halving_histogram(Node& node, std::span<const std::uint32_t> values, std::size_t bins,
                                 std::span<std::uint32_t> owned) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  detail::check_histogram(node, values, bins, owned, "recursive_halving_histogram");
  const int d = node.dim();
  if (d == 0) {
    detail::count_alone(node, values, bins, owned);
    return;
  }
  const int self = node.id();
  const std::size_t b = model::histogram_block_bins(d, bins);  // every block padded to b bins

  Buffer<std::uint32_t> work = node.allocate<std::uint32_t>(static_cast<std::size_t>(node.size()) * b);
  Buffer<std::uint32_t> incoming = node.allocate<std::uint32_t>(static_cast<std::size_t>(node.size() / 2) * b);
  std::fill(work.begin(), work.end(), 0u);
  for (std::uint32_t v : values) ++work[v % bins];
  node.compute(values.size());

  for (int k = 1; k <= d; ++k) {
    const int e = d - k;
    const std::size_t half = (std::size_t{1} << e) * b;
    const int keep = (self & ~((2 << e) - 1)) | (self & (1 << e));  // first block of the half I keep
    const int give = keep ^ (1 << e);
    const std::span<std::uint32_t> mine = work.span().subspan(static_cast<std::size_t>(keep) * b, half);
    const std::span<std::uint32_t> in = incoming.span().first(half);
    node.exchange(node.neighbor(e), work.span().subspan(static_cast<std::size_t>(give) * b, half), in);
    if (k < d) {
      for (std::size_t t = 0; t < half; ++t) mine[t] += in[t];
    } else {  // the last addition writes this node's block out
      for (std::size_t t = 0; t < owned.size(); ++t) owned[t] = mine[t] + in[t];
    }
    node.compute(half);
  }
}

}  // namespace hcemu::kernels
