// docs/model.md §1 on a torus: routes x first, then y, each leg the shorter way round its ring, a tie going +
// unless the kernel asks; four directed links per node; links accounted like a cube's. Hand-worked on a 4 x 4 torus.
#include <gtest/gtest.h>

#include "core_support.hpp"

namespace hcemu {
namespace {

using test::round_config;
using test::us;

// λ = 10, δ' = 2, δ = 1 per hop, τ = 0.5: 8 bytes over h hops take 16 + h µs.
Time eight_bytes(int hops) { return us(10 + 2 + hops + 0.5 * 8); }

MachineConfig torus_4x4(Topology::Kind kind = Topology::Kind::torus) {
  MachineConfig c = round_config(4);
  c.topology = Topology{kind, 4, 4};
  return c;
}

int id(int x, int y) { return y * 4 + x; }

// One message from `from` to `to`; returns the report.
RunReport one_message(const MachineConfig& config, int from, int to, Way x = Way::shorter, Way y = Way::shorter) {
  return Machine(config).run([=](Node& node) {
    std::vector<std::byte> buf(8);
    if (node.id() == from) {
      node.route_ways(x, y);
      node.send(to, buf);
    }
    if (node.id() == to) node.recv(from, buf);
  });
}

// The links a report shows busy, as (from, direction).
std::vector<std::pair<int, int>> busy_links(const RunReport& r) {
  std::vector<std::pair<int, int>> out;
  for (const auto& l : r.links) out.emplace_back(l.from, l.dim);
  return out;
}

constexpr int kPlusX = 0, kMinusX = 1, kPlusY = 2, kMinusY = 3;

TEST(Torus, NodesKnowTheirPlaceAndTheirNeighbours) {
  Machine(torus_4x4()).run([](Node& node) {
    const Coordinates c = node.coordinates();
    EXPECT_EQ(node.id(), id(c.x, c.y));
    EXPECT_EQ(node.rows(), 4);
    EXPECT_EQ(node.cols(), 4);
    EXPECT_EQ(node.neighbor(Direction::plus_x), id((c.x + 1) % 4, c.y));
    EXPECT_EQ(node.neighbor(Direction::minus_x), id((c.x + 3) % 4, c.y));
    EXPECT_EQ(node.neighbor(Direction::plus_y), id(c.x, (c.y + 1) % 4));
    EXPECT_EQ(node.neighbor(Direction::minus_y), id(c.x, (c.y + 3) % 4));
    EXPECT_THROW(node.neighbor(0), UsageError);  // no dimension links
  });
}

TEST(Torus, WrapAroundIsTheShorterWay) {
  // (0,0) -> (3,0): one hop -x over the wrap-around, not three hops +x.
  const RunReport r = one_message(torus_4x4(), id(0, 0), id(3, 0));
  EXPECT_EQ(r.makespan, eight_bytes(1));
  EXPECT_EQ(busy_links(r), (std::vector<std::pair<int, int>>{{id(0, 0), kMinusX}}));
}

TEST(Torus, XLegComesBeforeTheYLeg) {
  // (1,1) -> (2,3): +x to (2,1), then +y twice, a tie on a ring of 4 that goes +.
  const RunReport r = one_message(torus_4x4(), id(1, 1), id(2, 3));
  EXPECT_EQ(r.makespan, eight_bytes(3));
  EXPECT_EQ(busy_links(r),
            (std::vector<std::pair<int, int>>{{id(1, 1), kPlusX}, {id(2, 1), kPlusY}, {id(2, 2), kPlusY}}));
}

TEST(Torus, ATieGoesTheWayTheKernelAsks) {
  // (0,0) -> (2,0) is half the ring: + by default, - when asked.
  EXPECT_EQ(busy_links(one_message(torus_4x4(), id(0, 0), id(2, 0))),
            (std::vector<std::pair<int, int>>{{id(0, 0), kPlusX}, {id(1, 0), kPlusX}}));
  EXPECT_EQ(busy_links(one_message(torus_4x4(), id(0, 0), id(2, 0), Way::minus)),
            (std::vector<std::pair<int, int>>{{id(0, 0), kMinusX}, {id(3, 0), kMinusX}}));
}

TEST(Torus, AMeshHasNoWrapAround) {
  // (0,0) -> (3,0) on a mesh: three hops +x.
  const RunReport r = one_message(torus_4x4(Topology::Kind::mesh), id(0, 0), id(3, 0));
  EXPECT_EQ(r.makespan, eight_bytes(3));
  Machine(torus_4x4(Topology::Kind::mesh)).run([](Node& node) {
    if (node.coordinates().x == 0) {
      EXPECT_THROW(node.neighbor(Direction::minus_x), UsageError);
    }
  });
}

TEST(Torus, TwoRoutesCrossingOnOneLinkContend) {
  // (0,0) -> (2,0) holds (0,0)+x and (1,0)+x; (1,0) -> (3,0) holds (1,0)+x and (2,0)+x (a tie on a ring of 4,
  // so +). Both are ready at 0; node 0 is the lower source and goes first; node 1 waits for the link (1,0)+x.
  const RunReport r = Machine(torus_4x4()).run([](Node& node) {
    std::vector<std::byte> buf(8);
    if (node.id() == id(0, 0)) node.send(id(2, 0), buf);
    if (node.id() == id(1, 0)) node.send(id(3, 0), buf);
    if (node.id() == id(2, 0)) node.recv(id(0, 0), buf);
    if (node.id() == id(3, 0)) node.recv(id(1, 0), buf);
  });
  EXPECT_EQ(r.nodes[static_cast<std::size_t>(id(2, 0))].final_clock, eight_bytes(2));
  EXPECT_EQ(r.nodes[static_cast<std::size_t>(id(3, 0))].final_clock, 2 * eight_bytes(2));
  ASSERT_EQ(r.contention_events(), 1u);
  for (const auto& l : r.links)
    if (l.contention_events > 0) {
      EXPECT_EQ(l.from, id(1, 0));
      EXPECT_EQ(l.dim, kPlusX);
      EXPECT_EQ(l.to(), id(2, 0));
      EXPECT_EQ(l.contention_delay, eight_bytes(2));
    }
}

TEST(Torus, OppositeDirectionsOfALinkAreSeparateResources) {
  // (0,0) <-> (1,0) exchange: +x and -x of the same cable at once, no contention.
  const RunReport r = Machine(torus_4x4()).run([](Node& node) {
    std::vector<std::byte> out(8), in(8);
    if (node.id() == id(0, 0)) node.exchange(id(1, 0), out, in);
    if (node.id() == id(1, 0)) node.exchange(id(0, 0), out, in);
  });
  EXPECT_EQ(r.makespan, eight_bytes(1));
  EXPECT_EQ(r.contention_events(), 0u);
}

TEST(Torus, SidesMustFitTheNodeCount) {
  MachineConfig c = round_config(4);
  c.topology = Topology::parse("torus:4x8");
  EXPECT_THROW(Machine{c}, ConfigError);
  c.d = 3;
  c.topology = Topology::parse("torus");  // a square needs an even d
  EXPECT_THROW(Machine{c}, ConfigError);
  EXPECT_THROW(Topology::parse("torus:3x4"), ConfigError);
  EXPECT_EQ(Topology::parse("mesh:2x8").str(), "mesh:2x8");
}

}  // namespace
}  // namespace hcemu
