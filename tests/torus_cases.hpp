#pragma once
// What the torus exchange tests share: random blocks, the sequential reference, the kernels by member, and the
// machine they run on.
#include <cstring>
#include <functional>
#include <vector>

#include "hcemu/kernels/torus_exchange.hpp"
#include "hcemu/model/torus_exchange.hpp"
#include "hcemu/testing/kernel_check.hpp"

namespace hcemu::test {

using TorusData = std::vector<std::byte>;

// Node i's input: one random block of m bytes for every node.
inline testing::KernelCheck<>::InputFn torus_blocks_of(std::size_t m) {
  return [m](const testing::Case& c, int, std::mt19937_64& rng) { return testing::random_bytes(c.nodes() * m, rng); };
}

// The sequential reference of every complete exchange: node t receives block t of every node s, in order of s.
inline testing::KernelCheck<>::ReferenceFn torus_transpose_of_blocks(std::size_t m) {
  return [m](const testing::Case& c, const std::vector<TorusData>& in) {
    const auto n = static_cast<std::size_t>(c.nodes());
    std::vector<TorusData> out(n, TorusData(n * m));
    for (std::size_t t = 0; t < n; ++t)
      for (std::size_t s = 0; s < n; ++s)
        if (m > 0) std::memcpy(out[t].data() + s * m, in[s].data() + t * m, m);
    return out;
  };
}

// Which member of the family a check runs, as a function of the torus side exponent d.
using TorusMember = std::function<int(int d)>;
inline int torus_t1_member(int d) { return model::torus_max_x(d); }
inline int torus_t2_member(int) { return 0; }

// A machine of 2^(2d) nodes has config.d = 2d; the kernels run on the 2^d x 2^d torus of that many nodes.
inline int torus_side(const MachineConfig& config) { return config.d / 2; }

inline testing::KernelCheck<>::KernelFn torus_kernel(std::size_t m, TorusMember member, Sync sync) {
  return [m, member, sync](Node& node, std::span<const std::byte> in, TorusData& out) {
    out.resize(in.size());
    const int d = node.dim() / 2;
    kernels::torus_t1x_exchange(node, in, out, m, member(d), model::TorusShape::square(d),
                                kernels::ExchangeOptions{sync});
  };
}

}  // namespace hcemu::test
