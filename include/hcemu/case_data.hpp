#pragma once
// Random data for an algorithm row's runs (hcemu/algorithm.hpp), as a pure function of (seed, a, b, byte index):
// each node fills its own buffers and checks its own result in its thread, so no 2^d x 2^d table is ever built on
// the host. The built-in rows use it with (a, b) = (source, destination) or (node, block).
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace hcemu::data {

inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Bytes 8g .. 8g + 7 of the data of (seed, a, b) are its g-th word, lowest byte first. The pair's key is a SplitMix64
// mix of the pair beside the seed's own mix (a bijection of the pair: every pair's data is its own, and a loop over
// pairs mixes the seed once); within a pair a word needs only to differ from the others, so it is one multiply and one
// shift of the key plus its index (a bijection of that sum): filling and checking the Direct exchange's blocks costs a
// few instructions per word, against a dozen for a SplitMix64 step.
inline std::uint64_t data_key(std::uint64_t seed, std::uint64_t a, std::uint64_t b) {
  return splitmix64(splitmix64(seed) ^ (a << 32) ^ b);  // the seed's mix is the same for every pair: computed once
}
inline std::uint64_t data_word(std::uint64_t key, std::uint64_t group) {
  const std::uint64_t x = (key + group) * 0x9e3779b97f4a7c15ull;
  return x ^ (x >> 32);
}
inline std::uint64_t load_word(const std::byte* in) {
  std::uint64_t word = 0;
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(&word, in, 8);
  } else {
    for (int i = 0; i < 8; ++i) word |= static_cast<std::uint64_t>(in[i]) << (8 * i);
  }
  return word;
}
inline void word_bytes(std::uint64_t word, std::byte* out) {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(out, &word, 8);
  } else {
    for (int i = 0; i < 8; ++i) out[i] = static_cast<std::byte>((word >> (8 * i)) & 0xffu);
  }
}

inline std::byte data_byte(std::uint64_t seed, std::uint64_t a, std::uint64_t b, std::size_t k) {
  return static_cast<std::byte>((data_word(data_key(seed, a, b), k >> 3) >> (8 * (k & 7))) & 0xffu);
}

// data_byte for k = 0.. in order, one word per 8 bytes.
class DataStream {
 public:
  DataStream(std::uint64_t seed, std::uint64_t a, std::uint64_t b) : key_(data_key(seed, a, b)) {}
  std::byte at(std::size_t k) {
    if ((k >> 3) != group_) {
      group_ = k >> 3;
      word_ = data_word(key_, group_);
    }
    return static_cast<std::byte>((word_ >> (8 * (k & 7))) & 0xffu);
  }

 private:
  std::uint64_t key_;
  std::uint64_t group_ = ~std::uint64_t{0}, word_ = 0;
};

// A whole group at a time: one word per eight bytes rather than a look-up per byte.
inline void fill(std::span<std::byte> out, std::uint64_t seed, std::uint64_t a, std::uint64_t b) {
  const std::uint64_t key = data_key(seed, a, b);
  std::size_t k = 0;
  for (; k + 8 <= out.size(); k += 8) word_bytes(data_word(key, k >> 3), out.data() + k);
  if (k < out.size()) {
    std::byte tail[8];
    word_bytes(data_word(key, k >> 3), tail);
    for (std::size_t i = 0; k + i < out.size(); ++i) out[k + i] = tail[i];
  }
}

// The index of the first byte that differs from fill(seed, a, b), or got.size() when none does.
inline std::size_t first_mismatch(std::span<const std::byte> got, std::uint64_t seed, std::uint64_t a,
                                  std::uint64_t b) {
  const std::uint64_t key = data_key(seed, a, b);
  std::size_t k = 0;
  for (; k + 8 <= got.size() && load_word(got.data() + k) == data_word(key, k >> 3); k += 8) {
  }
  for (; k < got.size(); k += 8) {  // a word that differs, or the tail: byte by byte
    std::byte expected[8];
    word_bytes(data_word(key, k >> 3), expected);
    const std::size_t n = std::min<std::size_t>(8, got.size() - k);
    for (std::size_t i = 0; i < n; ++i)
      if (got[k + i] != expected[i]) return k + i;
  }
  return got.size();
}

}  // namespace hcemu::data
