#pragma once
// Small helpers shared by the core tests: a machine with round parameters, and exact model times.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "hcemu/hcemu.hpp"

namespace hcemu::test {

// λ = 10 µs, λ0 = 7 µs, τ = 0.5 µs/byte, δ = 1 µs per hop, δ' = 2 µs, ρ = 0.25 µs/byte, Q(d) = 3 + 4d µs.
inline MachineConfig round_config(int d) {
  MachineConfig c;
  c.d = d;
  c.lambda = 10;
  c.lambda0 = 7;
  c.tau = 0.5;
  c.delta_hop = 1;
  c.delta_msg = 2;
  c.rho = 0.25;
  c.barrier_a = 3;
  c.barrier_b = 4;
  c.sys_copy = 0.125;
  c.flop = 0.001;
  return c;
}

inline Time us(double x) { return from_us(x); }

inline std::vector<std::byte> bytes_of(std::size_t n, unsigned seed = 1) {
  std::vector<std::byte> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::byte>((i * 131 + seed * 17) & 0xff);
  return v;
}

// Node 0 sends m bytes to `partner`, which sends m other bytes back; each side checks what it received.
inline RunReport ping_pong(const MachineConfig& config, int partner, std::size_t m) {
  return Machine(config).run([&](Node& node) {
    std::vector<std::byte> buf(m);
    if (node.id() == 0) {
      node.send(partner, bytes_of(m));
      node.recv(partner, buf);
      EXPECT_EQ(buf, bytes_of(m, 2));
    } else if (node.id() == partner) {
      node.recv(0, buf);
      EXPECT_EQ(buf, bytes_of(m));
      node.send(0, bytes_of(m, 2));
    }
  });
}

}  // namespace hcemu::test
