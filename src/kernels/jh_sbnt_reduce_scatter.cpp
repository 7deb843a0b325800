// All-to-all reduction along N translated Spanning Balanced n-Trees: Johnsson & Ho (1987) §4.5 ("the reverse of
// all-to-all broadcast ... the same algorithms in the other direction") applied to SBnT-b(n,N) (§4.2.3), as the
// n-port matrix multiplications use it (Table 5, A4(n): SBnT-b(n,N)[A]). In step s = 1..n a node sends, for every
// destination n + 1 - s links away in that destination's tree, the sum of its own block and what its children sent,
// to its parent; the root of every tree ends with the sum of all.
#include <algorithm>
#include <vector>

#include "hcemu/kernels/reduction.hpp"
#include "jh_cube.hpp"
#include "jh_sbnt_schedule.hpp"

namespace hcemu::kernels {

void sbnt_reduce_scatter(Node& node, std::span<double> data, std::size_t block, std::span<double> out,
                         const Reduction& reduction, Subcube cube) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const detail::CubeView v = detail::view(node, cube, "sbnt_reduce_scatter");
  detail::check_blocks(data.size(), static_cast<std::size_t>(v.size()), block, "data", "sbnt_reduce_scatter");
  detail::check_blocks(out.size(), 1, block, "out", "sbnt_reduce_scatter");
  const auto steps = static_cast<std::size_t>(v.dims);
  const detail::SbntSchedule schedule = detail::sbnt_reduction_schedule(v.coordinate, v.dims);
  auto partial = [&](std::uint32_t destination) { return data.subspan(destination * block, block); };

  std::vector<std::vector<Buffer<double>>> outgoing(steps), incoming(steps);
  std::vector<std::vector<Request>> arriving(steps);
  for (std::size_t s = 0; s < steps; ++s)
    for (std::size_t i = 0; i < steps; ++i) {
      outgoing[s].push_back(node.allocate<double>(schedule.out[s][i].size() * block));
      incoming[s].push_back(node.allocate<double>(schedule.in[s][i].size() * block));
      if (!schedule.in[s][i].empty())
        arriving[s].push_back(node.post_recv(v.neighbor(node, static_cast<int>(i)), incoming[s][i].span()));
    }

  std::vector<Request> sends;
  for (std::size_t s = 0; s < steps; ++s) {
    for (std::size_t i = 0; i < steps; ++i) {
      const auto& list = schedule.out[s][i];
      if (list.empty()) continue;
      for (std::size_t b = 0; b < list.size(); ++b) {
        std::span<double> slot = outgoing[s][i].span().subspan(b * block, block);
        node.copy(Node::bytes_of(partial(list[b].destination)), Node::writable_bytes_of(slot));
      }
      sends.push_back(
          node.isend(v.neighbor(node, static_cast<int>(i)), std::span<const double>(outgoing[s][i].span())));
    }
    node.wait_all(arriving[s]);
    for (std::size_t i = 0; i < steps; ++i) {
      const auto& list = schedule.in[s][i];
      for (std::size_t b = 0; b < list.size(); ++b) {
        reduction.combine(partial(list[b].destination), std::span<const double>(incoming[s][i].span().subspan(b * block, block)));
        node.compute(reduction.flops_per_element * block);
      }
    }
  }
  node.wait_all(sends);
  const auto result = partial(v.coordinate);
  std::copy(result.begin(), result.end(), out.begin());
}

}  // namespace hcemu::kernels
