#include "common/cost_table.hpp"

#include <cmath>

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
  t.compute_overhead = from_us(c.compute_overhead);
  t.split_copy = from_us(c.split_copy);
  // docs/model.md §14: only the shared ports of one, half and k:N overlap, and LogGP (§12) keeps its own holds.
  const bool shared_port = c.ports.kind != Ports::Kind::all && c.switching != Switching::loggp;
  t.port_overlap = shared_port ? std::llround(c.port_overlap * static_cast<double>(kOverlapUnit)) : 0;
  return t;
}

}  // namespace hcemu
