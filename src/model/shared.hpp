#pragma once
// Small helpers the closed forms share; private to src/model.
#include <cstddef>

#include "hcemu/config.hpp"

namespace hcemu::model {

// ⌈a / b⌉, and 0 when b is 0 (nothing to divide among).
inline std::size_t ceil_div(std::size_t a, std::size_t b) { return b == 0 ? 0 : (a + b - 1) / b; }

// True on an all-port machine (docs/model.md §4).
inline bool all_port(const MachineConfig& config) { return config.ports.kind == Ports::Kind::all; }

}  // namespace hcemu::model
