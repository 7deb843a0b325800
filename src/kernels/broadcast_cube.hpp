#pragma once
// Bit operations on d-bit node ids shared by the broadcast, all-to-all broadcast and histogram kernels, spelled as
// in Stout & Wagar (1990) §1.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>

#include "hcemu/errors.hpp"

namespace hcemu::kernels::detail {

inline std::uint32_t dim_bit(int k) { return std::uint32_t{1} << k; }

// rot_i(n): the d-bit n rotated left (circularly) by i bits, so bit t moves to bit (t + i) mod d.
inline std::uint32_t rotate_left(std::uint32_t n, int i, int d) {
  if (d == 0) return n;
  i %= d;
  const std::uint32_t mask = (d >= 32) ? ~std::uint32_t{0} : (dim_bit(d) - 1);
  return i == 0 ? n : (((n << i) | (n >> (d - i))) & mask);
}

// The index of the highest 1-bit of n, -1 for n = 0.
inline int highest_bit(std::uint32_t n) { return static_cast<int>(std::bit_width(n)) - 1; }

// next_n(z) of Stout & Wagar: the first 1-bit of n after position z, going upward circularly. n != 0.
inline int next_one(std::uint32_t n, int z, int d) {
  for (int step = 1; step <= d; ++step) {
    const int w = (z + step) % d;
    if (n & dim_bit(w)) return w;
  }
  return -1;
}

// The d-way split the papers use when "m/d" is not whole: the first m mod d parts get one byte more.
inline std::size_t part_bytes(std::size_t m, std::size_t parts, std::size_t i) {
  return m / parts + (i < m % parts ? 1 : 0);
}
inline std::size_t part_offset(std::size_t m, std::size_t parts, std::size_t i) {
  return i * (m / parts) + (i < m % parts ? i : m % parts);
}

inline void check_root(int root, int nodes, const char* kernel) {
  if (root < 0 || root >= nodes)
    throw UsageError(std::string(kernel) + ": root " + std::to_string(root) + " does not exist in a " +
                     std::to_string(nodes) + "-node machine");
}

}  // namespace hcemu::kernels::detail
