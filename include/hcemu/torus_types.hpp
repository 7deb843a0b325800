#pragma once
// Places and ways on an R x C torus or mesh (docs/model.md §1; Suh, Shin & An §2): one vocabulary for the node API
// (Node::coordinates, Node::neighbor(Direction), Node::route_ways) and the closed forms of hcemu/model/torus.hpp.
// Node (x, y), 0 <= x < C, 0 <= y < R, has id y·C + x.
#include <cstdint>

namespace hcemu {

// The four directed links that leave a node, in this order: a link's index is node·4 + direction
// (model::torus_link_index).
enum class Direction : std::uint8_t { plus_x = 0, minus_x = 1, plus_y = 2, minus_y = 3 };

struct Coordinates {
  int x = 0;
  int y = 0;
  friend bool operator==(const Coordinates&, const Coordinates&) = default;
};

// Which way round its ring a leg of a route goes: the shorter way (a leg of exactly half the ring, a tie, goes +),
// or always +, or always -. On a mesh only the one way that exists may be asked for.
enum class Way : std::uint8_t { shorter, plus, minus };

}  // namespace hcemu
