#pragma once
// What DISTRIBUTE and COLLECT (Stout & Wagar 1990 §5; scatter_distribute.cpp, scatter_collect.cpp) share: the layout
// of their messages. Addresses are relative to the root. A message for node r (h = popcount(r), "class h") is cut
// into lcm(1..h) units of u_h bytes (model/even_spread.hpp) and spreads through the h-cube spanned by r's bits as in
// spread_order.hpp; ℓ_j(h) bytes of it cross each link from distance j to j + 1. A packet on a link from x to
// x | 2^z carries, for one class h, the chunk of every message r ⊇ x | 2^z of that class, in ascending order of r; a
// wave from the root carries its classes one after the other, in the wave's order.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "hcemu/errors.hpp"
#include "hcemu/model/even_spread.hpp"
#include "hcemu/model/scatter.hpp"
#include "hcemu/node.hpp"

namespace hcemu::kernels::detail {

class WaveLayout {
 public:
  WaveLayout(int d, std::size_t m, model::Waves waves) : d_(d), m_(m), waves_(std::move(waves)) {}

  int d() const { return d_; }
  std::size_t m() const { return m_; }
  const model::Waves& waves() const { return waves_; }

  std::size_t unit(int h) const { return model::spread_unit_bytes(m_, h); }
  // ℓ_j(h): the bytes of one class-h message on one link from distance j.
  std::size_t edge(int h, int j) const { return model::spread_edge_bytes(m_, h, j); }
  // The packet for class h on one link from distance j to j + 1: C(d-j-1, h-j-1) chunks of ℓ_j(h).
  std::size_t up_batch(int h, int j) const {
    return static_cast<std::size_t>(model::binomial(d_ - j - 1, h - j - 1)) * edge(h, j);
  }
  // Where class h starts in wave w's packet from the root, and the packet's size.
  std::size_t wave_offset(std::size_t w, int h) const {
    std::size_t at = 0;
    for (int c : waves_[w]) {
      if (c == h) return at;
      at += up_batch(c, 0);
    }
    return at;
  }
  std::size_t wave_bytes(std::size_t w) const { return wave_offset(w, -1); }

  // The messages of class h at or beyond x (r ⊇ x, popcount(r) = h), ascending.
  std::vector<std::uint32_t> beyond(std::uint32_t x, int h) const {
    std::vector<std::uint32_t> out;
    const int more = h - std::popcount(x);
    if (more < 0) return out;
    const std::uint32_t free = ((std::uint32_t{1} << d_) - 1) & ~x;
    for (std::uint32_t s = free;; s = (s - 1) & free) {  // every subset of the free bits
      if (std::popcount(s) == more) out.push_back(x | s);
      if (s == 0) break;
    }
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  int d_;
  std::size_t m_;
  model::Waves waves_;
};

// The index of r in a sorted list.
inline std::size_t index_of(const std::vector<std::uint32_t>& sorted, std::uint32_t r) {
  return static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), r) - sorted.begin());
}

// How many of r's bits outside x lie below z: which of r's chunks from x goes across z.
inline std::size_t chunk_index(std::uint32_t r, std::uint32_t x, int z) {
  return static_cast<std::size_t>(std::popcount(r & ~x & ((std::uint32_t{1} << z) - 1)));
}

// Bytes [from, from + to.size()) of the concatenation of `segments`, copied into `to` (ρ per byte).
inline void copy_range(Node& node, const std::vector<std::span<const std::byte>>& segments, std::size_t from,
                       std::span<std::byte> to) {
  std::size_t at = 0, done = 0;
  for (const auto& s : segments) {
    if (done == to.size()) break;
    if (from < at + s.size()) {
      const std::size_t begin = from > at ? from - at : 0;
      const std::size_t n = std::min(s.size() - begin, to.size() - done);
      node.copy(s.subspan(begin, n), to.subspan(done, n));
      done += n;
      from += n;
    }
    at += s.size();
  }
}

// Bytes [from, from + to.size()) of a message of m bytes padded with zeros, copied into `to` (ρ per byte, padding
// included: it travels like data). `zeros` holds enough zero bytes.
inline void copy_padded(Node& node, std::span<const std::byte> message, std::size_t from, std::span<std::byte> to,
                        std::span<const std::byte> zeros) {
  const std::size_t real = from < message.size() ? std::min(to.size(), message.size() - from) : 0;
  if (real > 0) node.copy(message.subspan(from, real), to.subspan(0, real));
  if (real < to.size()) node.copy(zeros.subspan(0, to.size() - real), to.subspan(real));
}

// The zero bytes a packer needs: the most padding any class of the layout has.
inline std::size_t most_padding(const WaveLayout& layout) {
  std::size_t most = 0;
  for (int h = 1; h <= layout.d(); ++h) most = std::max(most, model::spread_padded_bytes(layout.m(), h) - layout.m());
  return most;
}

inline void check_scatter_buffers(const Node& node, int root, std::span<const std::byte> blocks, std::size_t m,
                                  const char* kernel) {
  if (root < 0 || root >= node.size())
    throw UsageError(std::string(kernel) + ": root " + std::to_string(root) + " does not exist in a " +
                     std::to_string(node.size()) + "-node machine");
  if (node.id() == root && blocks.size() < static_cast<std::size_t>(node.size()) * m)
    throw UsageError(std::string(kernel) + ": the root's blocks hold " + std::to_string(blocks.size()) +
                     " bytes, fewer than 2^d·m = " + std::to_string(static_cast<std::size_t>(node.size()) * m));
}

}  // namespace hcemu::kernels::detail
