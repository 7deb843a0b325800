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

namespace {

// The reduction on blocks of T, `combine(into, from)` then `flops` per element.
template <class T, class CombineFn>
void sbnt_reduce(Node& node, std::span<T> data, std::size_t block, std::span<T> out, CombineFn combine,
                 std::uint64_t flops, Subcube cube) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const detail::CubeView v = detail::view(node, cube, "sbnt_reduce_scatter");
  detail::check_blocks(data.size(), static_cast<std::size_t>(v.size()), block, "data", "sbnt_reduce_scatter");
  detail::check_blocks(out.size(), 1, block, "out", "sbnt_reduce_scatter");
  const auto steps = static_cast<std::size_t>(v.dims);
  const detail::SbntSchedule schedule = detail::sbnt_reduction_schedule(v.coordinate, v.dims);
  auto partial = [&](std::uint32_t destination) { return data.subspan(destination * block, block); };

  std::vector<std::vector<Buffer<T>>> outgoing(steps), incoming(steps);
  std::vector<std::vector<Request>> arriving(steps);
  for (std::size_t s = 0; s < steps; ++s)
    for (std::size_t i = 0; i < steps; ++i) {
      outgoing[s].push_back(node.allocate<T>(schedule.out[s][i].size() * block));
      incoming[s].push_back(node.allocate<T>(schedule.in[s][i].size() * block));
      if (!schedule.in[s][i].empty())
        arriving[s].push_back(node.post_recv(v.neighbor(node, static_cast<int>(i)), incoming[s][i].span()));
    }

  std::vector<Request> sends;
  for (std::size_t s = 0; s < steps; ++s) {
    for (std::size_t i = 0; i < steps; ++i) {
      const auto& list = schedule.out[s][i];
      if (list.empty()) continue;
      for (std::size_t b = 0; b < list.size(); ++b) {
        std::span<T> slot = outgoing[s][i].span().subspan(b * block, block);
        node.copy(Node::bytes_of(partial(list[b].destination)), Node::writable_bytes_of(slot));
      }
      sends.push_back(
          node.isend(v.neighbor(node, static_cast<int>(i)), std::span<const T>(outgoing[s][i].span())));
    }
    node.wait_all(arriving[s]);
    for (std::size_t i = 0; i < steps; ++i) {
      const auto& list = schedule.in[s][i];
      for (std::size_t b = 0; b < list.size(); ++b) {
        combine(partial(list[b].destination), std::span<const T>(incoming[s][i].span().subspan(b * block, block)));
        node.compute(flops * block);
      }
    }
  }
  node.wait_all(sends);
  const auto result = partial(v.coordinate);
  std::copy(result.begin(), result.end(), out.begin());
}

}  // namespace

void sbnt_reduce_scatter(Node& node, std::span<double> data, std::size_t block, std::span<double> out,
                         const Reduction& reduction, Subcube cube) {
  sbnt_reduce(node, data, block, out, reduction.combine, reduction.flops_per_element, cube);
}

void sbnt_reduce_scatter(Node& node, std::span<float> data, std::size_t block, std::span<float> out, Subcube cube) {
  const auto add = [](std::span<float> into, std::span<const float> from) {
    for (std::size_t k = 0; k < into.size(); ++k) into[k] += from[k];
  };
  sbnt_reduce(node, data, block, out, add, 1, cube);
}

}  // namespace hcemu::kernels
