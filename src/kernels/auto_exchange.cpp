// Multiphase exchange with the partition the planner finds optimal (Bokhari 1993 §4-5: only equipartitions can be
// optimal, and the optimal one for m is found on the hull of their cost lines).
#include "hcemu/kernels/exchange.hpp"
#include "hcemu/model/planner.hpp"

namespace hcemu::kernels {

std::vector<int> auto_exchange(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m,
                               const ExchangeOptions& options) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  // Every node computes the same plan from the same config (a pure function), so no communication is needed.
  const std::vector<int> partition = model::optimal_partition(node.config(), m, options.sync).partition;
  multiphase_exchange(node, send, recv, m, partition, options);
  return partition;
}

}  // namespace hcemu::kernels
