#pragma once
// The machines the kernel tests run on, and what their sweeps check besides.
#include <string>

#include "hcemu/config.hpp"
#include "hcemu/testing/kernel_check.hpp"

namespace hcemu::test {

// λ = 10 µs, τ = 0.01 µs/byte, δ = 2 µs per hop, δ' = 3 µs: every term of docs/model.md §9 shows.
inline MachineConfig circuit_machine() {
  MachineConfig c;
  c.lambda = 10;
  c.tau = 0.01;
  c.delta_hop = 2;
  c.delta_msg = 3;
  return c;
}

// The matrix multiplications' machine on d dimensions and `ports`: circuit_machine's terms, t_a, ρ, and packets of
// 64 doubles, so that every term of their closed forms shows.
inline MachineConfig matmul_machine(int d, const char* ports) {
  MachineConfig c = circuit_machine();
  c.d = d;
  c.ports = Ports::parse(ports);
  c.flop = 0.001;
  c.rho = 0.0005;
  c.packet = 512;
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

// L = 5 µs, o = 1.5 µs, g = 4 µs, G = 0.01 µs/byte: g <= 2o + L, as loggp_gap requires, and g + (k-1)G passes o
// from k = 1 on, so the gap, not the overhead, spaces a node's messages. λ, τ and ρ are set and must not count.
inline MachineConfig loggp_machine(int d, const char* ports = "one") {
  MachineConfig c;
  c.d = d;
  c.switching = Switching::loggp;
  c.loggp_latency = 5;
  c.loggp_overhead = 1.5;
  c.loggp_gap = 4;
  c.loggp_gap_per_byte = 0.01;
  c.lambda = 100;
  c.tau = 1;
  c.rho = 1;
  c.ports = Ports::parse(ports);
  c.validate();
  return c;
}

// A case whose port model the papers give no time for: the kernel runs, and the model must say it has no closed form.
inline std::string no_closed_form(const testing::CaseResult& r) {
  return r.predicted ? "a closed form where the model has none" : "";
}

// Every one of the d·2^d directed links carried something, all of them for the same time (a schedule symmetric in
// its links).
inline std::string every_link_equally_busy(const testing::CaseResult& r) {
  const auto want = static_cast<std::size_t>(r.run_case.d * r.run_case.nodes());
  if (r.report.links.size() != want)
    return std::to_string(r.report.links.size()) + " links carried something, not all " + std::to_string(want);
  for (const LinkStats& l : r.report.links)
    if (l.busy != r.report.links.front().busy)
      return "link " + std::to_string(l.from) + " -> " + std::to_string(l.to()) + " busy " + std::to_string(l.busy) +
             " ps, link " + std::to_string(r.report.links.front().from) + " -> " +
             std::to_string(r.report.links.front().to()) + " " + std::to_string(r.report.links.front().busy);
  return "";
}

}  // namespace hcemu::test
