#pragma once
// The geometry of an R x C torus (or mesh) and its dimension-ordered routes (docs/model.md §1; Suh, Shin & An §2).
// Pure functions: no runtime, no allocation.
//
// Nodes and ids: node (x, y), 0 <= x < C (columns), 0 <= y < R (rows), has id y·C + x.
// Links: every node has four outgoing directed links, one per Direction; the link leaving node n in direction
// k has index n·4 + k (torus_link_index), so a machine of R·C nodes has 4·R·C directed link slots. A slot whose
// link does not exist (a mesh edge, or a side of 1, where the wrap-around would be a loop back to the node itself)
// is never on a route.
// Routes: dimension-ordered, the x leg first, then the y leg (Suh, Shin & An §2: wormhole switching, one route per
// message). On a torus each leg goes the shorter way round its ring; a tie (the leg is exactly half the ring) goes
// in the + direction unless the caller asks for a direction (TorusRoutePreference). On a mesh there is one way.
#include <cstddef>
#include <cstdint>
#include <span>

#include "hcemu/torus_types.hpp"

namespace hcemu::model {

struct TorusShape {
  int rows = 1;      // R: extent in y, a power of two
  int cols = 1;      // C: extent in x, a power of two
  bool wrap = true;  // false: a mesh (no wrap-around links)

  int nodes() const { return rows * cols; }
  // Suh, Shin & An's 2^d x 2^d torus.
  static TorusShape square(int d) { return TorusShape{1 << d, 1 << d, true}; }
  friend bool operator==(const TorusShape&, const TorusShape&) = default;
};

// Throws UsageError unless both sides are powers of two >= 1 and the node count is at most 2^30.
void validate(const TorusShape& shape);

inline constexpr int kTorusDirections = 4;

// A directed link: the one leaving `node` in `direction`.
struct TorusLink {
  int node = 0;
  Direction direction = Direction::plus_x;
  friend bool operator==(const TorusLink&, const TorusLink&) = default;
};

inline int torus_link_index(const TorusLink& link) {
  return link.node * kTorusDirections + static_cast<int>(link.direction);
}
inline int torus_link_slots(const TorusShape& shape) { return shape.nodes() * kTorusDirections; }

inline int torus_id(const TorusShape& shape, Coordinates c) { return c.y * shape.cols + c.x; }
inline Coordinates torus_coord(const TorusShape& shape, int id) { return {id % shape.cols, id / shape.cols}; }

// The node at the other end of the link leaving `id` in `direction`, or -1 where there is none (a mesh edge, or a
// side of 1). On a side of 2 with wrap-around, + and - lead to the same node over two distinct links.
int torus_neighbor(const TorusShape& shape, int id, Direction direction);

// How each leg of a route goes round its ring (Way): a mesh has only one way, and asking for the other is a
// UsageError for a leg of at least one hop.
struct TorusRoutePreference {
  Way x = Way::shorter;
  Way y = Way::shorter;
};

// One leg of a route: `hops` links in `direction` (hops = 0: the leg is empty).
struct TorusLeg {
  Direction direction = Direction::plus_x;
  int hops = 0;
};

// A route from `source` to `dest`: the x leg, then the y leg. Its links are enumerated without allocation by
// link(i), for_each_link or copy_links.
struct TorusRoute {
  TorusShape shape;
  int source = 0;
  int dest = 0;
  TorusLeg x_leg;
  TorusLeg y_leg;

  int hops() const { return x_leg.hops + y_leg.hops; }
  // The i-th link, 0 <= i < hops(): i < x_leg.hops on the x leg from the source, then the y leg from the corner
  // (dest.x, source.y).
  TorusLink link(int i) const;

  template <class F>
  void for_each_link(F&& f) const {
    const int n = hops();
    for (int i = 0; i < n; ++i) f(link(i));
  }
  // Writes the first min(hops(), out.size()) links into `out`; returns hops().
  int copy_links(std::span<TorusLink> out) const;
};

TorusRoute torus_route(const TorusShape& shape, int source, int dest, TorusRoutePreference preference = {});

// Number of hops of the route torus_route would take.
inline int torus_distance(const TorusShape& shape, int source, int dest, TorusRoutePreference preference = {}) {
  return torus_route(shape, source, dest, preference).hops();
}

}  // namespace hcemu::model
