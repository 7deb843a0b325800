#include "hcemu/model/costs.hpp"

#include "common/cost_table.hpp"

namespace hcemu::model {

// Each as the timing layer charges it (src/timing): the per-unit time of the CostTable times the count (and a compute
// call's fixed overhead, docs/model.md §14), checked against the model's range.
Time compute_time(const MachineConfig& config, std::uint64_t flops) {
  return CostTable::from(config).compute(flops);
}

Time port_overlap_time(const MachineConfig& config, Time hold) {
  return CostTable::from(config).overlap(hold);
}

Time copy_time(const MachineConfig& config, std::size_t bytes) { return CostTable::from(config).copy(bytes); }

Time barrier_time(const MachineConfig& config) { return CostTable::from(config).barrier(config.d); }

Time late_receive_copy_time(const MachineConfig& config, std::size_t bytes) {
  return CostTable::within_range(CostTable::Wide{CostTable::from(config).sys_copy} * bytes, "a late copy");
}

}  // namespace hcemu::model
