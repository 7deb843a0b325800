#pragma once
// A subcube of the machine: the nodes that agree with this one outside the dimensions [first, first + dims). The
// collectives of primitives.hpp and reduction.hpp can run inside one, as Johnsson & Ho's two-dimensional matrix
// algorithms do (§5.2: "row" operations in the subcube of the lowest n2 dimensions, "column" operations in the
// highest n1). Inside it a node's coordinate is (id >> first) mod 2^dims, and blocks are indexed by coordinate.
namespace hcemu::kernels {

struct Subcube {
  int first = 0;  // its lowest dimension
  int dims = -1;  // how many dimensions; -1: every dimension of the machine from `first` up
};

}  // namespace hcemu::kernels
