#pragma once
// The machines the kernel tests run on.
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

// Nicol & Bokhari's iPSC/860 figures (§4), with a per-hop δ so that the XOR schedule's distances show.
inline MachineConfig ipsc_like() {
  MachineConfig c;
  c.lambda = 95.0;
  c.lambda0 = 85.5;
  c.tau = 0.394;
  c.delta_msg = 5.15;
  c.delta_hop = 1.5;
  c.rho = 0.54;
  c.barrier_b = 150;
  return c;
}

}  // namespace hcemu::test
