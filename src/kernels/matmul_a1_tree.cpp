// Algorithm 1 with one-dimensional column partitioning and an all-to-all broadcast of C by spanning trees: Johnsson
// & Ho (1987) §5.1, A1(1) with SBT-b(1,N) (recursive doubling) and A1(n) with SBnT-b(n,N) or nRSBT-b(n,N), the
// paper's "CALL SBnT(C, P⌈Q/N⌉, C2); A = Σ_i C2[i] × (block row i of D)". Every node gathers all of C (P × N⌈Q/N⌉,
// zero past Q), then A = E + C·D_x over the Q real columns: 2PQ⌈R/N⌉ flops, the paper's arithmetic exactly.
#include <algorithm>

#include "hcemu/kernels/allgather.hpp"
#include "hcemu/kernels/primitives.hpp"
#include "matmul_local.hpp"

namespace hcemu::kernels::detail {

template <class T>
void a1_tree(MatmulContext<T>& x) {
  Node& node = x.node;
  const std::size_t P = x.c.rows, r = x.a.cols, Q = x.shape.Q, block = x.blocks.c.size();
  Buffer<T> all = node.allocate<T>(static_cast<std::size_t>(node.size()) * block);
  std::copy(x.blocks.c.begin(), x.blocks.c.end(), all.begin() + static_cast<std::size_t>(node.id()) * block);
  const std::span<std::byte> gathered = bytes(all.span());
  switch (x.options.algorithm) {
    case MatmulAlgorithm::a1_sbnt:
      sbnt_allgather(node, gathered, sizeof(T) * block);
      break;
    case MatmulAlgorithm::a1_nrsbt:
      nrsbt_allgather(node, gathered, sizeof(T) * block);
      break;
    default:
      recursive_doubling_allgather(node, gathered, sizeof(T) * block);
  }
  std::copy(x.blocks.e.begin(), x.blocks.e.end(), x.blocks.a.begin());
  multiply(P, r, Q, ColumnMajor{all.span(), P}, ColumnMajor{x.blocks.d, Q}, x.blocks.a, P, true);
  node.compute(2 * P * Q * r);
}

template void a1_tree(MatmulContext<float>&);
template void a1_tree(MatmulContext<double>&);

}  // namespace hcemu::kernels::detail
