#pragma once
// Random data for the harness's runs, as a pure function of (seed, a, b, byte index): each node fills its own
// buffers and checks its own result in its thread, so no 2^d x 2^d table is ever built on the host.
#include <cstddef>
#include <cstdint>
#include <span>

namespace hcemu::harness::data {

inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

inline std::byte data_byte(std::uint64_t seed, std::uint64_t a, std::uint64_t b, std::size_t k) {
  const std::uint64_t word = splitmix64(seed ^ splitmix64((a << 32) ^ b ^ splitmix64(k >> 3)));
  return static_cast<std::byte>((word >> (8 * (k & 7))) & 0xffu);
}

// data_byte for k = 0.. in order, one word per 8 bytes: the harness fills and checks millions of bytes per run.
class DataStream {
 public:
  DataStream(std::uint64_t seed, std::uint64_t a, std::uint64_t b) : seed_(seed), ab_((a << 32) ^ b) {}
  std::byte at(std::size_t k) {
    if ((k >> 3) != group_) {
      group_ = k >> 3;
      word_ = splitmix64(seed_ ^ splitmix64(ab_ ^ splitmix64(group_)));
    }
    return static_cast<std::byte>((word_ >> (8 * (k & 7))) & 0xffu);
  }

 private:
  std::uint64_t seed_, ab_;
  std::uint64_t group_ = ~std::uint64_t{0}, word_ = 0;
};

inline void fill(std::span<std::byte> out, std::uint64_t seed, std::uint64_t a, std::uint64_t b) {
  DataStream data(seed, a, b);
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = data.at(k);
}

// The index of the first byte that differs from fill(seed, a, b), or out.size() when none does.
inline std::size_t first_mismatch(std::span<const std::byte> got, std::uint64_t seed, std::uint64_t a,
                                  std::uint64_t b) {
  DataStream data(seed, a, b);
  for (std::size_t k = 0; k < got.size(); ++k)
    if (got[k] != data.at(k)) return k;
  return got.size();
}

}  // namespace hcemu::harness::data
