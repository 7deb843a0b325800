#include <algorithm>
#include <bit>
#include <string>

#include "hcemu/errors.hpp"
#include "hcemu/model/torus.hpp"

namespace hcemu::model {

namespace {

bool power_of_two(int v) { return v >= 1 && std::has_single_bit(static_cast<unsigned>(v)); }

// v + delta on a ring of n positions.
int ring_add(int v, int delta, int n) { return ((v + delta) % n + n) % n; }

const char* way_name(Way way) {
  switch (way) {
    case Way::shorter: return "shorter";
    case Way::plus: return "plus";
    case Way::minus: return "minus";
  }
  return "?";
}

// The leg from s to t on a ring (torus) or line (mesh) of n positions, along the axis whose + direction is `plus`.
TorusLeg leg(int s, int t, int n, bool wrap, Way way, Direction plus, Direction minus, char axis) {
  if (s == t) return {plus, 0};
  if (!wrap) {
    const bool forward = t > s;
    if ((way == Way::plus && !forward) || (way == Way::minus && forward)) {
      throw UsageError(std::string("torus route: a mesh has no ") + way_name(way) + " way from " + axis + " = " +
                       std::to_string(s) + " to " + axis + " = " + std::to_string(t));
    }
    return forward ? TorusLeg{plus, t - s} : TorusLeg{minus, s - t};
  }
  const int forward = ring_add(t, -s, n);
  const int backward = n - forward;
  switch (way) {
    case Way::plus: return {plus, forward};
    case Way::minus: return {minus, backward};
    case Way::shorter: break;
  }
  // docs/model.md §1: the shorter way round; on a tie (a leg of exactly half the ring) the + direction.
  return backward < forward ? TorusLeg{minus, backward} : TorusLeg{plus, forward};
}

}  // namespace

void validate(const TorusShape& shape) {
  if (!power_of_two(shape.rows) || !power_of_two(shape.cols)) {
    throw UsageError("torus shape " + std::to_string(shape.rows) + " x " + std::to_string(shape.cols) +
                     ": both sides must be powers of two >= 1");
  }
  if (static_cast<long long>(shape.rows) * shape.cols > (1LL << 30)) {
    throw UsageError("torus shape " + std::to_string(shape.rows) + " x " + std::to_string(shape.cols) +
                     ": more than 2^30 nodes");
  }
}

int torus_neighbor(const TorusShape& shape, int id, Direction direction) {
  const Coordinates c = torus_coord(shape, id);
  const bool along_x = direction == Direction::plus_x || direction == Direction::minus_x;
  const int n = along_x ? shape.cols : shape.rows;
  const int v = along_x ? c.x : c.y;
  const int delta = (direction == Direction::plus_x || direction == Direction::plus_y) ? 1 : -1;
  if (n == 1) return -1;  // the wrap-around of a side of 1 would be a loop, not a link
  if (!shape.wrap && (v + delta < 0 || v + delta >= n)) return -1;
  const int w = ring_add(v, delta, n);
  return along_x ? torus_id(shape, {w, c.y}) : torus_id(shape, {c.x, w});
}

TorusLink TorusRoute::link(int i) const {
  const Coordinates s = torus_coord(shape, source);
  if (i < x_leg.hops) {
    const int step = x_leg.direction == Direction::plus_x ? 1 : -1;
    return {torus_id(shape, {ring_add(s.x, step * i, shape.cols), s.y}), x_leg.direction};
  }
  const int j = i - x_leg.hops;
  const int step = y_leg.direction == Direction::plus_y ? 1 : -1;
  const int corner_x = torus_coord(shape, dest).x;
  return {torus_id(shape, {corner_x, ring_add(s.y, step * j, shape.rows)}), y_leg.direction};
}

int TorusRoute::copy_links(std::span<TorusLink> out) const {
  const int n = hops();
  const int written = std::min(n, static_cast<int>(out.size()));
  for (int i = 0; i < written; ++i) out[static_cast<std::size_t>(i)] = link(i);
  return n;
}

TorusRoute torus_route(const TorusShape& shape, int source, int dest, TorusRoutePreference preference) {
  if (source < 0 || source >= shape.nodes() || dest < 0 || dest >= shape.nodes()) {
    throw UsageError("torus route from " + std::to_string(source) + " to " + std::to_string(dest) + ": a " +
                     std::to_string(shape.rows) + " x " + std::to_string(shape.cols) + " torus has nodes 0.." +
                     std::to_string(shape.nodes() - 1));
  }
  const Coordinates s = torus_coord(shape, source);
  const Coordinates t = torus_coord(shape, dest);
  TorusRoute route{shape, source, dest, {}, {}};
  route.x_leg = leg(s.x, t.x, shape.cols, shape.wrap, preference.x, Direction::plus_x, Direction::minus_x,
                    'x');
  route.y_leg = leg(s.y, t.y, shape.rows, shape.wrap, preference.y, Direction::plus_y, Direction::minus_y,
                    'y');
  return route;
}

}  // namespace hcemu::model
