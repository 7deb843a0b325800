#pragma once
// Small helpers the closed forms share; private to src/model.
#include <cstddef>
#include <cstdint>

#include "hcemu/config.hpp"

namespace hcemu::model {

// ⌈a / b⌉, and 0 when b is 0 (nothing to divide among).
inline std::size_t ceil_div(std::size_t a, std::size_t b) { return b == 0 ? 0 : (a + b - 1) / b; }

// True on an all-port machine (docs/model.md §4).
inline bool all_port(const MachineConfig& config) { return config.ports.kind == Ports::Kind::all; }
// One transfer out and one in at a time, full duplex: `one`, and `k:1`, which is the same.
inline bool one_port(const MachineConfig& config) {
  return config.ports.kind == Ports::Kind::one || (config.ports.kind == Ports::Kind::k && config.ports.n == 1);
}

// The n low bits set: the node addresses of a d-cube are 0..low_bits(d).
inline std::uint32_t low_bits(int n) { return n >= 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << n) - 1; }

}  // namespace hcemu::model
