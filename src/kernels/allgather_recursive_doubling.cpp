// Recursive doubling all-to-all broadcast: Johnsson & Ho (1987) §4.2, SBT-b(1,N) of Table 2 ("at step i = 0..n-1
// exchange everything held so far across dimension i").
//
// After step i a node holds the messages of the 2^(i+1) nodes that agree with it above bit i; indexed by source
// they are one contiguous run of `all`, so each step is one exchange straight between the two halves of the run,
// with no copy: step i moves 2^i·m bytes each way.
#include "hcemu/errors.hpp"
#include "hcemu/kernels/allgather.hpp"

namespace hcemu::kernels {

void recursive_doubling_allgather(Node& node, std::span<std::byte> all, std::size_t m) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  if (all.size() != static_cast<std::size_t>(node.size()) * m)
    throw UsageError("recursive_doubling_allgather: `all` must hold 2^d blocks of m bytes");
  const int self = node.id();
  for (int i = 0; i < node.dim(); ++i) {
    const int partner = node.neighbor(i);
    const std::size_t run = (std::size_t{1} << i) * m;
    const auto held = static_cast<std::size_t>(self & ~((1 << i) - 1));       // first source of my run
    const auto theirs = static_cast<std::size_t>(partner & ~((1 << i) - 1));  // first source of my partner's run
    node.exchange(partner, std::span<const std::byte>(all.subspan(held * m, run)), all.subspan(theirs * m, run));
  }
}

}  // namespace hcemu::kernels
