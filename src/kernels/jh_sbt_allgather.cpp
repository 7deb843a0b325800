// SBT-b(1,N) inside a subcube: Johnsson & Ho (1987) §4.2.2, recursive doubling, as recursive_doubling_allgather
// does it on the whole cube (allgather_recursive_doubling.cpp): after step i a node holds the blocks of the 2^(i+1)
// coordinates that agree with its own above bit i, one contiguous run, so each step exchanges one half of the run
// for the other.
#include "hcemu/kernels/primitives.hpp"
#include "jh_cube.hpp"

namespace hcemu::kernels {

void sbt_allgather(Node& node, std::span<std::byte> all, std::size_t m, Subcube cube) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const detail::CubeView v = detail::view(node, cube, "sbt_allgather");
  detail::check_blocks(all.size(), static_cast<std::size_t>(v.size()), m, "all", "sbt_allgather");
  for (int i = 0; i < v.dims; ++i) {
    const std::size_t run = (std::size_t{1} << i) * m;
    const std::uint32_t low = ~((std::uint32_t{1} << i) - 1);
    const std::size_t held = v.coordinate & low, theirs = (v.coordinate ^ (std::uint32_t{1} << i)) & low;
    node.exchange(v.neighbor(node, i), std::span<const std::byte>(all.subspan(held * m, run)),
                  all.subspan(theirs * m, run));
  }
}

}  // namespace hcemu::kernels
