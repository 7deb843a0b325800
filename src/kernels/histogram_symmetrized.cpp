// Stout & Wagar (1990) §8, HISTOGRAM: recursive halving symmetrized. The paper leaves the
// symmetrization abstract; this is the concrete one (docs/kernels/histogram.md):
//
//   split each node-block i into d sub-blocks; group g owns sub-block g of every block
//   stage s = 1..d: group g uses dimension e = (g - s) mod d; node x sends the partial sums of the still-held
//   blocks j with bit_e(j) != bit_e(x) and keeps the others
//
// In a stage the d groups use d different links, each carrying 2^(d-s) sub-blocks of bins/(d·2^d) bins, so stage s
// takes τ·bins/(d·2^s) + β and all d stages (1 - 2^-d)τ·bins/d + dβ.
//
// Working layout, one array per group so that what a stage sends is contiguous: block j of group g sits at
// position u_g(j), the bits of j ^ x read in the order of group g's dimensions, the first one (g - 1) as the most
// significant bit. Before stage s group g holds positions [0, 2^(d-s+1)); it sends [2^(d-s), 2^(d-s+1)), whose
// bit for dimension e is 1, and the neighbour across e sends back, in the same order, the sums for x's
// [0, 2^(d-s)). After stage d, position 0 of every group is x's own block. The values are counted straight into
// this layout, so no bin is ever moved locally.
#include <vector>

#include "hcemu/kernels/histogram.hpp"
#include "histogram_common.hpp"

namespace hcemu::kernels {

void symmetrized_histogram(Node& node, std::span<const std::uint32_t> values, std::size_t bins,
                           std::span<std::uint32_t> owned) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  detail::check_histogram(node, values, bins, owned, "symmetrized_histogram");
  const int d = node.dim();
  if (d == 0) {
    detail::count_alone(node, values, bins, owned);
    return;
  }
  const auto self = static_cast<std::uint32_t>(node.id());
  const auto n = static_cast<std::size_t>(node.size());
  const auto groups = static_cast<std::size_t>(d);
  const std::size_t b = model::histogram_block_bins(d, bins);
  const std::size_t c = model::histogram_subblock_bins(d, bins);  // blocks padded to d·c bins
  auto dimension = [d](int g, int s) { return ((g - s) % d + d) % d; };

  // u_g(j) for every group and block.
  std::vector<std::uint32_t> position(groups * n);
  for (int g = 0; g < d; ++g) {
    for (std::uint32_t j = 0; j < n; ++j) {
      std::uint32_t u = 0;
      for (int s = 1; s <= d; ++s)
        if ((j ^ self) & (1u << dimension(g, s))) u |= 1u << (d - s);
      position[static_cast<std::size_t>(g) * n + j] = u;
    }
  }

  Buffer<std::uint32_t> work = node.allocate<std::uint32_t>(groups * n * c);
  auto group = [&](int g, std::size_t first, std::size_t count) {
    return work.span().subspan((static_cast<std::size_t>(g) * n + first) * c, count * c);
  };
  std::fill(work.begin(), work.end(), 0u);
  for (std::uint32_t v : values) {
    const std::size_t j = v % bins / b, o = v % bins % b;
    const int g = static_cast<int>(o / c);
    ++group(g, position[static_cast<std::size_t>(g) * n + j], 1)[o % c];
  }
  node.compute(values.size());

  // Every receive posted up front; stage s brings, per group, 2^(d-s) sub-blocks across dimension (g - s) mod d.
  Buffer<std::uint32_t> incoming = node.allocate<std::uint32_t>(groups * (n - 1) * c);
  std::vector<std::vector<Request>> arriving(groups + 1);
  std::vector<std::vector<std::span<std::uint32_t>>> into(groups + 1);
  std::size_t used = 0;
  for (int s = 1; s <= d; ++s) {
    for (int g = 0; g < d; ++g) {
      const std::size_t count = (n >> s) * c;
      into[static_cast<std::size_t>(s)].push_back(incoming.span().subspan(used, count));
      used += count;
      arriving[static_cast<std::size_t>(s)].push_back(
          node.post_recv(node.neighbor(dimension(g, s)), into[static_cast<std::size_t>(s)].back(), g));
    }
  }

  std::vector<Request> sends;
  for (int s = 1; s <= d; ++s) {
    if (s > 1) {  // add what stage s - 1 brought to the half kept then
      const auto prev = static_cast<std::size_t>(s - 1);
      node.wait_all(arriving[prev]);
      for (int g = 0; g < d; ++g) {
        const auto in = into[prev][static_cast<std::size_t>(g)];
        const auto mine = group(g, 0, n >> (s - 1));
        for (std::size_t t = 0; t < in.size(); ++t) mine[t] += in[t];
      }
      node.compute(groups * (n >> (s - 1)) * c);
    }
    for (int g = 0; g < d; ++g)
      sends.push_back(node.isend(node.neighbor(dimension(g, s)), group(g, n >> s, n >> s), g));
  }
  // The last addition writes this node's block out: sub-block g is bins [g·c, (g+1)·c) of it.
  node.wait_all(arriving[groups]);
  for (int g = 0; g < d; ++g) {
    const auto in = into[groups][static_cast<std::size_t>(g)];
    const auto mine = group(g, 0, 1);
    for (std::size_t t = 0; t < c && static_cast<std::size_t>(g) * c + t < owned.size(); ++t)
      owned[static_cast<std::size_t>(g) * c + t] = mine[t] + in[t];
  }
  node.compute(groups * c);
  node.wait_all(sends);
}

}  // namespace hcemu::kernels
