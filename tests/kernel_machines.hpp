#pragma once
// The machines the collective kernels' tests run on.
#include "hcemu/config.hpp"

namespace hcemu::test {

// λ = 10 µs, τ = 0.01 µs/byte, δ = 2 µs per hop, δ' = 3 µs: every term of MODEL.md §9 shows.
inline MachineConfig circuit_machine() {
  MachineConfig c;
  c.lambda = 10;
  c.tau = 0.01;
  c.delta_hop = 2;
  c.delta_msg = 3;
  return c;
}

// Stout & Wagar's model: store-and-forward, no δ, β = λ.
inline MachineConfig link_bound_machine(double beta = 10, double tau = 0.01) {
  MachineConfig c;
  c.lambda = beta;
  c.tau = tau;
  c.switching = Switching::store_and_forward;
  return c;
}

}  // namespace hcemu::test
