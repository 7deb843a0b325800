#include "hcemu/model/exchange.hpp"

#include <string>

#include "hcemu/errors.hpp"
#include "hcemu/model/even_spread.hpp"
#include "hcemu/model/transfer.hpp"
#include "model/transfer_table.hpp"

namespace hcemu::model {

void check_partition(int d, const Partition& partition) {
  long sum = 0;
  for (int part : partition) {
    if (part < 1) throw UsageError("multiphase exchange: every part must be >= 1, got " + std::to_string(part));
    sum += part;
  }
  if (sum != d) {
    throw UsageError("multiphase exchange: the parts sum to " + std::to_string(sum) + ", not to d = " +
                     std::to_string(d));
  }
}

Time phase_exchange_time(const MachineConfig& config, int part, std::size_t m, Sync sync) {
  const std::size_t block = m << (config.d - part);  // effective block, Bokhari 1993 §2.3
  // Step j = 1..2^part - 1 goes to id ^ (j << lo), popcount(j) hops away; the steps are grouped by distance, as
  // C(part, h) of them are h hops away.
  Time total = 0;
  for (int hops = 1; hops <= part; ++hops) {
    Time step = pairwise_exchange_time(config, block, hops);
    if (sync == Sync::pairwise)
      step = CostTable::add(step, pairwise_exchange_time(config, 0, hops));  // Nicol & Bokhari 1994 §4
    total = CostTable::add(total, CostTable::times(step, static_cast<Time>(binomial(part, hops))));
  }
  if (sync != Sync::none) total = CostTable::add(total, CostTable::from(config).barrier(config.d));
  return total;
}

Time shuffle_time(const MachineConfig& config, std::size_t m) { return CostTable::from(config).copy(m << config.d); }

Time multiphase_exchange_time(const MachineConfig& config, const Partition& partition, std::size_t m, Sync sync) {
  check_partition(config.d, partition);
  Time total = 0;
  for (int part : partition) total = CostTable::add(total, phase_exchange_time(config, part, m, sync));
  // Bokhari 1993 §2.3: a single phase (Direct) leaves every block in place, so its shuffle is not done.
  if (partition.size() > 1)
    total = CostTable::add(total, CostTable::times(shuffle_time(config, m), static_cast<long long>(partition.size())));
  return total;
}

Partition direct_partition(int d) { return d == 0 ? Partition{} : Partition{d}; }
Partition standard_partition(int d) { return Partition(static_cast<std::size_t>(d), 1); }

Time direct_exchange_time(const MachineConfig& config, std::size_t m, Sync sync) {
  return multiphase_exchange_time(config, direct_partition(config.d), m, sync);
}

Time standard_exchange_time(const MachineConfig& config, std::size_t m, Sync sync) {
  return multiphase_exchange_time(config, standard_partition(config.d), m, sync);
}

}  // namespace hcemu::model
