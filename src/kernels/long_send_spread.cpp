// Stout & Wagar (1990) §3-4: the sends that spread the message evenly through an n-cube. O.C. SEND 3 and 4 (and
// ARBITRARY SEND 1) use one such cube, the one spanned by the dimensions in which src and dst differ; X.O.C. SEND
// steps out of it along a dimension `via` first; ARBITRARY SEND 3 runs one O.C. SEND 4 and d - n X.O.C. SEND 2 at once.
//
// One "route" is one of these sends: a slice of the message, an n-cube (its corner `origin` and its dimensions),
// and for X.O.C. the dimension it enters and leaves by. The slice is cut into g groups of L = lcm(1..n) units of u
// bytes (model/even_spread.hpp); each group runs O.C. SEND 3 through the cube (spread_order.hpp): a node at distance
// k from the origin receives one chunk of ℓ_{k-1} = spread_edge_units(n, k-1)·u bytes from each of its k lower
// neighbours, straight into consecutive slices of its holding buffer, and sends its n - k consecutive slices of
// ℓ_k bytes on to its upper neighbours. A node handles the groups in order and passes each one on as soon as it has
// it (the paper's asynchronous pipeline): group q leaves the source one stage-0 packet time after group q - 1 and no
// link is ever busy when the next group needs it, because no stage is longer than stage 0. The destination holds
// every unit, in the order of spread_final_order, and copies them into place at the end (ρ·m).
#include <algorithm>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "broadcast_cube.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/kernels/long_send.hpp"
#include "hcemu/model/even_spread.hpp"
#include "hcemu/model/long_send.hpp"
#include "pair_frame.hpp"
#include "spread_order.hpp"

namespace hcemu::kernels {
namespace {

struct Route {
  int origin = 0;          // the corner of the n-cube where the units start spreading
  std::vector<int> dims;   // the cube's dimensions, ascending
  int via = -1;            // X.O.C.: the dimension crossed from src to origin and from the far corner to dst
  std::size_t offset = 0;  // the slice of the message it carries
  std::size_t bytes = 0;
  int groups = 1;
  int tag = 0;
};

// The shapes of one route's pieces.
struct Shape {
  int n;
  std::size_t unit;                // u
  std::size_t group;               // G = L·u
  std::vector<std::size_t> chunk;  // ℓ_k, k = 0..n-1
};

Shape shape_of(const Route& r) {
  Shape s;
  s.n = static_cast<int>(r.dims.size());
  s.unit = model::oc_send_unit_bytes(r.bytes, s.n, r.groups);
  s.group = model::spread_units(s.n) * s.unit;
  for (int k = 0; k < s.n; ++k) s.chunk.push_back(model::spread_edge_units(s.n, k) * s.unit);
  return s;
}

std::uint32_t bit(int k) { return std::uint32_t{1} << k; }

// The source's groups: slices of the message, and a zero-padded copy of the groups that run past its end (padding
// is bookkeeping of this implementation, not part of the algorithm: copied without a ρ charge).
class SourceGroups {
 public:
  SourceGroups(Node& node, std::span<std::byte> message, const Route& r, const Shape& s)
      : data_(message.subspan(r.offset, r.bytes)), group_(s.group) {
    whole_ = std::min<std::size_t>(static_cast<std::size_t>(r.groups), r.bytes / s.group);
    tail_ = node.allocate<std::byte>((static_cast<std::size_t>(r.groups) - whole_) * s.group);
    std::fill(tail_.begin(), tail_.end(), std::byte{0});
    const std::size_t rest = r.bytes - whole_ * s.group;
    if (rest > 0) std::memcpy(tail_.data(), data_.data() + whole_ * s.group, rest);
  }
  std::span<const std::byte> group(int q) const {
    const auto uq = static_cast<std::size_t>(q);
    return uq < whole_ ? data_.subspan(uq * group_, group_) : tail_.span().subspan((uq - whole_) * group_, group_);
  }

 private:
  std::span<std::byte> data_;
  std::size_t group_;
  std::size_t whole_ = 0;
  Buffer<std::byte> tail_;
};

// What a node of the cube does for one route: receive each group's chunks from its lower neighbours (or, at the
// X.O.C. entry corner, the whole group from src), then send its chunks to its upper neighbours (or, at the X.O.C.
// exit corner, the whole group to dst).
class CubeNode {
 public:
  CubeNode(Node& node, const Route& r, const Shape& s, int src, int dst) : node_(node), route_(r), shape_(s) {
    const auto rel = static_cast<std::uint32_t>(node.id() ^ r.origin);
    for (int b : r.dims) (rel & bit(b) ? lower_ : upper_).push_back(b);
    const int k = static_cast<int>(lower_.size());
    const std::size_t held = k == 0 ? s.group : static_cast<std::size_t>(k) * s.chunk[static_cast<std::size_t>(k - 1)];
    holding_ = node.allocate<std::byte>(held * static_cast<std::size_t>(r.groups));
    receives_.resize(static_cast<std::size_t>(r.groups));
    for (int q = 0; q < r.groups; ++q) {
      const std::span<std::byte> h = group_holding(q);
      auto& into = receives_[static_cast<std::size_t>(q)];
      if (k == 0) {
        into.push_back(node.post_recv(src, h, r.tag));  // the X.O.C. entry corner
      } else {
        const std::size_t c = s.chunk[static_cast<std::size_t>(k - 1)];
        for (std::size_t i = 0; i < lower_.size(); ++i)
          into.push_back(node.post_recv(node.neighbor(lower_[i]), h.subspan(i * c, c), r.tag));
      }
    }
    exit_to_ = upper_.empty() ? dst : -1;
  }

  // The groups in order, each passed on once it is whole.
  void run() {
    std::vector<Request> sends;
    for (int q = 0; q < route_.groups; ++q) {
      node_.wait_all(receives_[static_cast<std::size_t>(q)]);
      pass_on(q, sends);
    }
    node_.wait_all(sends);
  }

  int groups() const { return route_.groups; }
  std::vector<Request>& receives(int q) { return receives_[static_cast<std::size_t>(q)]; }

  // Sends group q, which has arrived, on: to the upper neighbours, or from the X.O.C. exit corner to dst.
  void pass_on(int q, std::vector<Request>& sends) {
    const std::span<const std::byte> h = group_holding(q);
    if (exit_to_ >= 0) {
      sends.push_back(node_.isend(exit_to_, h, route_.tag));
      return;
    }
    const std::size_t c = shape_.chunk[lower_.size()];
    for (std::size_t i = 0; i < upper_.size(); ++i)
      sends.push_back(node_.isend(node_.neighbor(upper_[i]), h.subspan(i * c, c), route_.tag));
  }

 private:
  std::span<std::byte> group_holding(int q) const {
    const std::size_t per = holding_.size() / static_cast<std::size_t>(route_.groups);
    return holding_.span().subspan(static_cast<std::size_t>(q) * per, per);
  }

  Node& node_;
  const Route& route_;
  const Shape& shape_;
  std::vector<int> lower_, upper_;  // the cube's dimensions in which this node differs from / agrees with origin
  Buffer<std::byte> holding_;
  std::vector<std::vector<Request>> receives_;
  int exit_to_ = -1;
};

// The destination: every group of every route arrives in the far corner's unit order; after the last one, every
// unit is copied into place (ρ per byte of the message).
class Destination {
 public:
  Destination(Node& node, const Route& r, const Shape& s) : route_(r), shape_(s) {
    holding_ = node.allocate<std::byte>(s.group * static_cast<std::size_t>(r.groups));
    for (int q = 0; q < r.groups; ++q) {
      const std::span<std::byte> h = holding_.span().subspan(static_cast<std::size_t>(q) * s.group, s.group);
      if (r.via >= 0) {
        receives_.push_back(node.post_recv(node.neighbor(r.via), h, r.tag));
        continue;
      }
      // The far corner of the cube: one chunk from each lower neighbour, in ascending order of dimension.
      const std::size_t c = s.chunk.back();
      for (std::size_t i = 0; i < r.dims.size(); ++i)
        receives_.push_back(node.post_recv(node.neighbor(r.dims[i]), h.subspan(i * c, c), r.tag));
    }
  }
  std::vector<Request>& receives() { return receives_; }

  void put_in_place(Node& node, std::span<std::byte> message) const {
    const std::vector<std::uint32_t> order = detail::spread_final_order(shape_.n);
    const std::size_t u = shape_.unit;
    const std::span<std::byte> slice = message.subspan(route_.offset, route_.bytes);
    for (int q = 0; q < route_.groups; ++q) {
      const std::size_t base = static_cast<std::size_t>(q) * shape_.group;
      for (std::size_t p = 0; p < order.size();) {
        std::size_t run = 1;  // units consecutive both where they are held and where they belong
        while (p + run < order.size() && order[p + run] == order[p] + run) ++run;
        const std::size_t at = base + order[p] * u;
        if (at < route_.bytes) {
          const std::size_t bytes = std::min(run * u, route_.bytes - at);
          node.copy(holding_.span().subspan(base + p * u, bytes), slice.subspan(at, bytes));
        }
        p += run;
      }
    }
  }

 private:
  const Route& route_;
  const Shape& shape_;
  Buffer<std::byte> holding_;
  std::vector<Request> receives_;
};

bool in_cube(int id, const Route& r) {
  auto rel = static_cast<std::uint32_t>(id ^ r.origin);
  for (int b : r.dims) rel &= ~bit(b);
  return rel == 0;
}

// The routes of one send: all from src to dst.
struct Send {
  int src;
  int dst;
  std::vector<Route> routes;
};

// The cube nodes of routes of both directions of an exchange: every group of every route this node is in, passed
// on in the order the groups become whole (wait_any: in model time), each route's groups in their own order. So
// neither direction waits for the other, and each keeps the pace it has alone.
void run_cube_nodes(Node& node, std::deque<CubeNode>& cubes) {
  struct Pending {
    std::size_t cube;
    int group;
  };
  std::vector<Request> waiting;
  std::vector<Pending> of;
  std::vector<std::vector<std::size_t>> left(cubes.size());  // receives still out, by cube and group
  for (std::size_t i = 0; i < cubes.size(); ++i)
    for (int q = 0; q < cubes[i].groups(); ++q) {
      left[i].push_back(cubes[i].receives(q).size());
      for (const Request& r : cubes[i].receives(q)) {
        waiting.push_back(r);
        of.push_back({i, q});
      }
    }
  std::vector<int> next(cubes.size(), 0);  // the next group to pass on, by cube
  std::vector<Request> sends;
  const auto pass_whole_groups = [&](std::size_t i) {
    while (next[i] < cubes[i].groups() && left[i][static_cast<std::size_t>(next[i])] == 0)
      cubes[i].pass_on(next[i]++, sends);
  };
  for (std::size_t i = 0; i < cubes.size(); ++i) pass_whole_groups(i);  // groups with no receives (empty cubes)
  for (std::size_t done = 0; done < waiting.size(); ++done) {
    const Pending p = of[node.wait_any(waiting)];
    --left[p.cube][static_cast<std::size_t>(p.group)];
    pass_whole_groups(p.cube);
  }
  node.wait_all(sends);
}

// Runs every route of every send at once: a node is the source or the destination of a send, or a node of the cubes
// of its routes. Within one send no node is in two routes; the two sends of an exchange run the same routes in
// opposite directions, on disjoint directed links.
void run_sends(Node& node, std::span<std::byte> message, std::vector<Send> all) {
  const int me = node.id();
  std::vector<std::vector<Shape>> shapes(all.size());
  for (std::size_t s = 0; s < all.size(); ++s) {
    std::erase_if(all[s].routes, [](const Route& r) { return r.bytes == 0; });
    for (const Route& r : all[s].routes) shapes[s].push_back(shape_of(r));
  }
  std::deque<Destination> arriving;
  std::deque<SourceGroups> leaving;
  std::deque<CubeNode> cubes;
  std::vector<Request> sends;
  // Every receive is posted before anything is sent (the kernels run under FORCED).
  for (std::size_t s = 0; s < all.size(); ++s)
    for (std::size_t i = 0; i < all[s].routes.size(); ++i) {
      const Route& r = all[s].routes[i];
      if (me == all[s].dst) arriving.emplace_back(node, r, shapes[s][i]);
      if (me != all[s].src && me != all[s].dst && in_cube(me, r))
        cubes.emplace_back(node, r, shapes[s][i], all[s].src, all[s].dst);
    }
  for (std::size_t s = 0; s < all.size(); ++s) {
    if (me != all[s].src) continue;
    for (std::size_t i = 0; i < all[s].routes.size(); ++i) {
      const Route& r = all[s].routes[i];
      const SourceGroups& groups = leaving.emplace_back(node, message, r, shapes[s][i]);
      for (int q = 0; q < r.groups; ++q) {
        const std::span<const std::byte> g = groups.group(q);
        if (r.via >= 0) {
          sends.push_back(node.isend(r.origin, g, r.tag));
          continue;
        }
        const std::size_t c = shapes[s][i].chunk[0];
        for (std::size_t k = 0; k < r.dims.size(); ++k)
          sends.push_back(node.isend(node.neighbor(r.dims[k]), g.subspan(k * c, c), r.tag));
      }
    }
  }
  if (cubes.size() == 1) cubes.front().run();
  if (cubes.size() > 1) run_cube_nodes(node, cubes);
  for (Destination& p : arriving) node.wait_all(p.receives());
  // Every group has left (isend copies it out), so the message may now be overwritten by what arrived.
  for (const Destination& p : arriving) p.put_in_place(node, message);
  node.wait_all(sends);
}

void run_routes(Node& node, std::span<std::byte> message, int src, int dst, std::vector<Route> routes) {
  run_sends(node, message, {Send{src, dst, std::move(routes)}});
}

void check_groups(int groups, const char* kernel) {
  if (groups < 1) throw UsageError(std::string(kernel) + ": groups must be >= 1, got " + std::to_string(groups));
}

std::vector<int> differing_dims(const detail::PairFrame& frame) {
  std::vector<int> dims;
  for (int v = 0; v < frame.n(); ++v) dims.push_back(frame.dim(v));
  return dims;
}

// O.C. SEND 4's one route: the message through the n-cube spanned by the dimensions in which src and dst differ.
std::vector<Route> oc_routes(const detail::PairFrame& frame, std::size_t m, int groups) {
  Route r;
  r.origin = frame.src();
  r.dims = differing_dims(frame);
  r.bytes = m;
  r.groups = groups;
  return {r};
}

// ARBITRARY SEND 3's routes: parts 0..n-1 by O.C. SEND 4, part v = n..d-1 by X.O.C. SEND 2 out and back along the
// v-th virtual dimension; `tag` numbers the first, the others follow (the routes tell their messages apart by tag).
std::vector<Route> arbitrary_send_3_routes(const detail::PairFrame& frame, std::size_t m, int groups, int xoc_groups,
                                           int tag) {
  const int d = frame.d(), n = frame.n();
  std::vector<Route> routes;
  Route oc;
  oc.origin = frame.src();
  oc.dims = differing_dims(frame);
  oc.bytes = model::arbitrary_send_3_oc_bytes(d, m, n);
  oc.groups = groups;
  oc.tag = tag;
  routes.push_back(oc);
  for (int v = n; v < d; ++v) {
    Route x = oc;
    x.via = frame.dim(v);
    x.origin = frame.src() ^ static_cast<int>(bit(x.via));
    x.offset = detail::part_offset(m, static_cast<std::size_t>(d), static_cast<std::size_t>(v));
    x.bytes = detail::part_bytes(m, static_cast<std::size_t>(d), static_cast<std::size_t>(v));
    x.groups = xoc_groups;
    x.tag = tag + 1 + (v - n);
    routes.push_back(x);
  }
  return routes;
}

}  // namespace

void oc_send_4(Node& node, std::span<std::byte> message, int groups, int src, int dst) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  check_groups(groups, "oc_send_4");
  dst = detail::resolve_destination(src, dst, node.dim());
  const detail::PairFrame frame(node.dim(), src, dst, "oc_send_4");
  if (frame.n() == 0) return;
  run_routes(node, message, src, dst, oc_routes(frame, message.size(), groups));
}

void oc_send_3(Node& node, std::span<std::byte> message, int src, int dst) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  oc_send_4(node, message, 1, src, dst);
}

void xoc_send(Node& node, std::span<std::byte> message, int groups, int src, int dst, int via) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  check_groups(groups, "xoc_send");
  dst = detail::resolve_destination(src, dst, node.dim());
  const detail::PairFrame frame(node.dim(), src, dst, "xoc_send");
  if (frame.n() == 0) return;
  if (frame.n() == frame.d())
    throw UsageError("xoc_send: " + std::to_string(dst) + " is the opposite corner of " + std::to_string(src) +
                     ": there is no dimension to step out of their cube along");
  if (via < 0) via = frame.dim(frame.n());  // the lowest dimension in which src and dst agree
  if (via >= node.dim() || ((src ^ dst) >> via & 1))
    throw UsageError("xoc_send: via = " + std::to_string(via) + " is not a dimension in which " + std::to_string(src) +
                     " and " + std::to_string(dst) + " agree");
  Route r;
  r.origin = src ^ static_cast<int>(bit(via));
  r.dims = differing_dims(frame);
  r.via = via;
  r.bytes = message.size();
  r.groups = groups;
  run_routes(node, message, src, dst, {r});
}

void arbitrary_send_3(Node& node, std::span<std::byte> message, int groups, int xoc_groups, int src, int dst) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  check_groups(groups, "arbitrary_send_3");
  check_groups(xoc_groups, "arbitrary_send_3");
  dst = detail::resolve_destination(src, dst, node.dim());
  const detail::PairFrame frame(node.dim(), src, dst, "arbitrary_send_3");
  if (frame.n() == 0) return;
  run_routes(node, message, src, dst, arbitrary_send_3_routes(frame, message.size(), groups, xoc_groups, 0));
}

void oc_exchange(Node& node, std::span<std::byte> message, int groups, int a, int b) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  check_groups(groups, "oc_exchange");
  b = detail::resolve_destination(a, b, node.dim());
  const detail::PairFrame there(node.dim(), a, b, "oc_exchange"), back(node.dim(), b, a, "oc_exchange");
  if (there.n() == 0) return;
  std::vector<Route> reverse = oc_routes(back, message.size(), groups);
  reverse.front().tag = 1;
  run_sends(node, message,
            {Send{a, b, oc_routes(there, message.size(), groups)}, Send{b, a, std::move(reverse)}});
}

void arbitrary_exchange(Node& node, std::span<std::byte> message, int groups, int xoc_groups, int a, int b) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  check_groups(groups, "arbitrary_exchange");
  check_groups(xoc_groups, "arbitrary_exchange");
  b = detail::resolve_destination(a, b, node.dim());
  const detail::PairFrame there(node.dim(), a, b, "arbitrary_exchange"), back(node.dim(), b, a, "arbitrary_exchange");
  if (there.n() == 0) return;
  const std::size_t m = message.size();
  // The reverse routes number their tags after the d - n + 1 of the forward ones.
  run_sends(node, message,
            {Send{a, b, arbitrary_send_3_routes(there, m, groups, xoc_groups, 0)},
             Send{b, a, arbitrary_send_3_routes(back, m, groups, xoc_groups, there.d() - there.n() + 1)}});
}

}  // namespace hcemu::kernels
