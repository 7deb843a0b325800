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

// For a 5-cube with τ = 7.63e6 µs/byte (64 KiB take about 5e17 ps), two chains of transfers into one link each:
// 16, 17, 18 and 19 -> 23 (32, 32, 64 and 96 KiB), ready at 3e18 ps, whose fourth, node 19's, ends past the model's
// range of 4.6e18; and, ready 1 µs later, 1, 2 and 3 -> 7 (64, 64 and 96 KiB), whose third, node 3's, does. Each
// fits the range alone, as its sender checks it. Eight short transfers of two hops (x -> x ^ 3 for the even x from 8
// to 14 and from 24) widen the batch, so that its four levels are kept. In levels, node 3's transfer fails a level
// before node 19's; in model-time order node 19's comes first.
inline Kernel two_failures_out_of_order() {
  return [](Node& node) {
    const int id = node.id();
    std::size_t bytes = 8;  // the nodes between 8 and 15 and from 24 up
    if (id == 16 || id == 17) bytes = 1 << 15;
    else if (id == 18 || id == 1 || id == 2) bytes = 1 << 16;
    else if (id == 19 || id == 3) bytes = 3 << 15;
    else if (id % 2 != 0 || id < 8 || (id > 15 && id < 24)) return;
    node.elapse(from_us(id < 8 ? 3e12 + 1 : 3e12));  // 3e18 ps of the model's 4.6e18
    node.send(id < 4 || (id > 15 && id < 24) ? id | 7 : id ^ 3, std::vector<std::byte>(bytes));
  };
}

}  // namespace hcemu::test
