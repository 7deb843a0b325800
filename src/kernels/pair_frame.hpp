#pragma once
// Stout & Wagar (1990) §3-4 write every single-pair algorithm for source 0 and destination 2^n - 1 (n the distance);
// the cube's symmetries (XOR translation, and any relabelling of the dimensions) carry it to any pair. PairFrame is
// that relabelling: virtual dimensions 0..n-1 are the dimensions in which src and dst differ, in ascending order, and
// n..d-1 the others, in ascending order; a node's virtual address is its id XOR src, so relabelled. The source is
// then virtual 0 and the destination virtual 2^n - 1.
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "hcemu/errors.hpp"

namespace hcemu::kernels::detail {

class PairFrame {
 public:
  PairFrame(int d, int src, int dst, const char* kernel) : d_(d), src_(src) {
    const int nodes = 1 << d;
    if (src < 0 || src >= nodes || dst < 0 || dst >= nodes)
      throw UsageError(std::string(kernel) + ": the pair " + std::to_string(src) + " -> " + std::to_string(dst) +
                       " does not exist in a " + std::to_string(nodes) + "-node machine");
    const auto differ = static_cast<std::uint32_t>(src ^ dst);
    n_ = std::popcount(differ);
    for (int k = 0; k < d; ++k)
      if (differ >> k & 1u) phys_.push_back(k);
    for (int k = 0; k < d; ++k)
      if (!(differ >> k & 1u)) phys_.push_back(k);
  }

  int d() const { return d_; }
  int n() const { return n_; }  // the distance
  int src() const { return src_; }
  int dst() const { return to_physical((std::uint32_t{1} << n_) - 1); }
  // The physical dimension of virtual dimension v.
  int dim(int v) const { return phys_[static_cast<std::size_t>(v)]; }

  std::uint32_t to_virtual(int node) const {
    const auto rel = static_cast<std::uint32_t>(node ^ src_);
    std::uint32_t v = 0;
    for (int k = 0; k < d_; ++k)
      if (rel >> phys_[static_cast<std::size_t>(k)] & 1u) v |= std::uint32_t{1} << k;
    return v;
  }
  int to_physical(std::uint32_t v) const {
    std::uint32_t rel = 0;
    for (int k = 0; k < d_; ++k)
      if (v >> k & 1u) rel |= std::uint32_t{1} << phys_[static_cast<std::size_t>(k)];
    return static_cast<int>(rel) ^ src_;
  }

 private:
  int d_;
  int src_;
  int n_ = 0;
  std::vector<int> phys_;
};

// dst = -1 names the source's opposite corner, src ^ (2^d - 1).
inline int resolve_destination(int src, int dst, int d) { return dst < 0 ? src ^ ((1 << d) - 1) : dst; }

}  // namespace hcemu::kernels::detail
