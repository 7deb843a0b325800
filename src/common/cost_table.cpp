#include "common/cost_table.hpp"

namespace hcemu {

CostTable CostTable::from(const MachineConfig& c) {
  CostTable t;
  t.lambda = from_us(c.lambda);
  t.lambda0 = from_us(c.lambda0.value_or(c.lambda));
  t.tau = from_us(c.tau);
  t.delta_hop = from_us(c.delta_hop);
  t.delta_msg = from_us(c.delta_msg);
  t.rho = from_us(c.rho);
  t.barrier_a = from_us(c.barrier_a);
  t.barrier_b = from_us(c.barrier_b);
  t.flop = from_us(c.flop);
  t.sys_copy = from_us(c.sys_copy);
  t.packet = c.packet;
  t.short_limit = c.short_limit;
  t.lambda_short = from_us(c.lambda_short.value_or(c.lambda));
  t.tau_short = from_us(c.tau_short.value_or(c.tau));
  return t;
}

}  // namespace hcemu
