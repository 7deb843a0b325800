#pragma once
// The pipelined outer products' makespan where no one chain of the schedule stays the longest (model/matmul_cost.cpp):
// the longest chain, evaluated over the schedule of kernels::outer_products rather than written out.
#include <cstdint>
#include <optional>

#include "hcemu/config.hpp"
#include "hcemu/time.hpp"

namespace hcemu::model {

// K multiplications through the same wave fronts on the s × s grid (Johnsson & Ho 1987 §5.2.1), on `ports` of kind
// one, k:N or all (not half), with a port overlap of `overlap` millionths (docs/model.md §14; CostTable::port_overlap):
// a block product takes `w`, C's block `tc` and D's `td` over one link. Every node takes its products in step order (the earlier multiplication first within a step), each after
// C's block from the left and D's from above have come (docs/model.md §4: a receive completes at
// max(arrival, input free + hold), the input resources taken in the order the node waits), then sends C right and D
// down (a transfer starts when it is issued and its output resource and its link are free, a node's transfers in
// the order it issues them). The ports queue by the emulator's own rules (timing::PortState). A product needs only products of earlier steps, so one pass in step order sees every
// block's arrival before it is waited for.
// One pass over the K·s products of each of the s² nodes, in O(s²) memory: none past kMostProducts of them (d = 18 with
// one multiplication), which would take seconds.
inline constexpr double kMostProducts = 1 << 27;
std::optional<Time> outer_products_longest_chain(const Ports& ports, std::int64_t overlap, std::uint32_t s,
                                                 int products, Time w, Time tc, Time td);

}  // namespace hcemu::model
