// The torus geometry of docs/model.md §1: ids, neighbours with wrap-around, dimension-ordered routes (x leg, then y
// leg, each the shorter way round, ties +), and link indices node·4 + direction. Every expected value is worked by hand.
#include <array>
#include <vector>

#include <gtest/gtest.h>

#include "hcemu/errors.hpp"
#include "hcemu/model/torus.hpp"

namespace hcemu::model {
namespace {

using D = Direction;

std::vector<TorusLink> links_of(const TorusRoute& route) {
  std::vector<TorusLink> links;
  route.for_each_link([&](const TorusLink& link) { links.push_back(link); });
  return links;
}

TEST(TorusGeometry, IdIsRowTimesColumnsPlusColumn) {
  const TorusShape shape{4, 8, true};  // R = 4 rows, C = 8 columns
  EXPECT_EQ(torus_id(shape, {3, 2}), 2 * 8 + 3);
  EXPECT_EQ(torus_coord(shape, 19), (Coordinates{3, 2}));
  EXPECT_EQ(shape.nodes(), 32);
  EXPECT_EQ(torus_link_slots(shape), 128);
}

TEST(TorusGeometry, NeighboursWrapAroundOnATorus) {
  const TorusShape shape = TorusShape::square(2);  // 4 x 4
  EXPECT_EQ(torus_neighbor(shape, 0, D::plus_x), 1);
  EXPECT_EQ(torus_neighbor(shape, 0, D::minus_x), 3);
  EXPECT_EQ(torus_neighbor(shape, 0, D::plus_y), 4);
  EXPECT_EQ(torus_neighbor(shape, 0, D::minus_y), 12);
  EXPECT_EQ(torus_neighbor(shape, 15, D::plus_x), 12);
  EXPECT_EQ(torus_neighbor(shape, 15, D::plus_y), 3);
}

TEST(TorusGeometry, AMeshHasNoLinksBeyondItsEdges) {
  const TorusShape mesh{4, 4, false};
  EXPECT_EQ(torus_neighbor(mesh, 0, D::minus_x), -1);
  EXPECT_EQ(torus_neighbor(mesh, 0, D::minus_y), -1);
  EXPECT_EQ(torus_neighbor(mesh, 15, D::plus_x), -1);
  EXPECT_EQ(torus_neighbor(mesh, 15, D::plus_y), -1);
  EXPECT_EQ(torus_neighbor(mesh, 5, D::minus_x), 4);
}

TEST(TorusGeometry, ASideOfOneHasNoLinksAndASideOfTwoHasTwo) {
  const TorusShape row{1, 4, true};  // 1 x 4: a ring of 4 along x
  EXPECT_EQ(torus_neighbor(row, 2, D::plus_y), -1);
  EXPECT_EQ(torus_neighbor(row, 2, D::minus_y), -1);
  EXPECT_EQ(torus_neighbor(row, 3, D::plus_x), 0);
  const TorusShape two{2, 2, true};
  EXPECT_EQ(torus_neighbor(two, 0, D::plus_x), 1);
  EXPECT_EQ(torus_neighbor(two, 0, D::minus_x), 1);
  EXPECT_NE(torus_link_index({0, D::plus_x}), torus_link_index({0, D::minus_x}));
}

TEST(TorusGeometry, LinkIndexIsNodeTimesFourPlusDirection) {
  EXPECT_EQ(torus_link_index({0, D::plus_x}), 0);
  EXPECT_EQ(torus_link_index({5, D::minus_x}), 21);
  EXPECT_EQ(torus_link_index({5, D::plus_y}), 22);
  EXPECT_EQ(torus_link_index({5, D::minus_y}), 23);
}

TEST(TorusRouting, ALegLongerThanHalfTheRingWrapsAround) {
  const TorusShape shape = TorusShape::square(3);  // 8 x 8
  // (1,0) -> (6,0): forward 5, backward 3: three hops in -x through the wrap-around link of node 0.
  const TorusRoute route = torus_route(shape, 1, 6);
  EXPECT_EQ(route.hops(), 3);
  EXPECT_EQ(links_of(route), (std::vector<TorusLink>{{1, D::minus_x}, {0, D::minus_x}, {7, D::minus_x}}));
}

TEST(TorusRouting, ATieOfHalfTheRingGoesPlusUnlessAskedOtherwise) {
  const TorusShape shape = TorusShape::square(3);
  const TorusRoute plus = torus_route(shape, 0, 4);  // forward 4 = backward 4
  EXPECT_EQ(links_of(plus),
            (std::vector<TorusLink>{{0, D::plus_x}, {1, D::plus_x}, {2, D::plus_x}, {3, D::plus_x}}));
  const TorusRoute minus = torus_route(shape, 0, 4, {Way::minus, Way::shorter});
  EXPECT_EQ(links_of(minus),
            (std::vector<TorusLink>{{0, D::minus_x}, {7, D::minus_x}, {6, D::minus_x}, {5, D::minus_x}}));
  // A tie on the y leg: (2,1) -> (2,5).
  const TorusRoute y_tie = torus_route(shape, 1 * 8 + 2, 5 * 8 + 2);
  EXPECT_EQ(y_tie.y_leg.direction, D::plus_y);
  EXPECT_EQ(y_tie.y_leg.hops, 4);
}

TEST(TorusRouting, AskingForTheLongWayIsHonoured) {
  const TorusShape shape = TorusShape::square(3);
  const TorusRoute route = torus_route(shape, 0, 2, {Way::minus, Way::shorter});  // 6 hops instead of 2
  EXPECT_EQ(route.hops(), 6);
  EXPECT_EQ(route.link(5), (TorusLink{3, D::minus_x}));
}

TEST(TorusRouting, TheXLegComesFirstThenTheYLegFromTheCorner) {
  const TorusShape shape = TorusShape::square(3);
  // (6,1) -> (1,7): x forward 3 (6, 7, 0 -> 1), then y backward 2 from the corner (1,1): (1,1) -> (1,0) -> (1,7).
  const TorusRoute route = torus_route(shape, 1 * 8 + 6, 7 * 8 + 1);
  EXPECT_EQ(route.hops(), 5);
  EXPECT_EQ(links_of(route), (std::vector<TorusLink>{{14, D::plus_x},
                                                     {15, D::plus_x},
                                                     {8, D::plus_x},
                                                     {9, D::minus_y},
                                                     {1, D::minus_y}}));
  std::array<TorusLink, 3> first{};
  EXPECT_EQ(route.copy_links(first), 5);  // returns the hop count, writes what fits
  EXPECT_EQ(first[2], (TorusLink{8, D::plus_x}));
}

TEST(TorusRouting, RoutesThatCrossAtANodeShareNoLink) {
  const TorusShape shape = TorusShape::square(2);  // 4 x 4
  // A: (1,1) -> (3,2) is x +2 (a tie, so +) then y +1: links (1,1)+x, (2,1)+x, (3,1)+y.
  // B: (2,0) -> (2,2) is y +2 (a tie): links (2,0)+y, (2,1)+y. Both pass node (2,1), on different links.
  const auto a = links_of(torus_route(shape, 5, 11));
  const auto b = links_of(torus_route(shape, 2, 10));
  EXPECT_EQ(a, (std::vector<TorusLink>{{5, D::plus_x}, {6, D::plus_x}, {7, D::plus_y}}));
  EXPECT_EQ(b, (std::vector<TorusLink>{{2, D::plus_y}, {6, D::plus_y}}));
  for (const auto& l : a)
    for (const auto& k : b) EXPECT_NE(torus_link_index(l), torus_link_index(k));
}

TEST(TorusRouting, OppositeDirectionsOfOnePhysicalLinkAreDistinctLinks) {
  const TorusShape shape = TorusShape::square(2);
  const auto right = links_of(torus_route(shape, 5, 6));  // (1,1) -> (2,1)
  const auto left = links_of(torus_route(shape, 6, 5));   // (2,1) -> (1,1)
  ASSERT_EQ(right.size(), 1u);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(torus_link_index(right[0]), 5 * 4 + 0);
  EXPECT_EQ(torus_link_index(left[0]), 6 * 4 + 1);
}

TEST(TorusRouting, TwoRoutesOverTheSameWrapAroundLinkShareIt) {
  const TorusShape shape = TorusShape::square(2);
  // C: (0,1) -> (3,1) goes the short way, through the wrap-around link (0,1)-x.
  // D: (1,1) -> (3,1) asked to go -x: (1,1)-x, then the same (0,1)-x.
  const auto c = links_of(torus_route(shape, 4, 7));
  const auto d = links_of(torus_route(shape, 5, 7, {Way::minus, Way::shorter}));
  EXPECT_EQ(c, (std::vector<TorusLink>{{4, D::minus_x}}));
  EXPECT_EQ(d, (std::vector<TorusLink>{{5, D::minus_x}, {4, D::minus_x}}));
}

TEST(TorusRouting, AMeshRoutesTheOnlyWayAndRefusesTheOther) {
  const TorusShape mesh{4, 4, false};
  const TorusRoute route = torus_route(mesh, 0, 3);  // on the torus this would be one hop -x
  EXPECT_EQ(route.x_leg.direction, D::plus_x);
  EXPECT_EQ(route.hops(), 3);
  EXPECT_THROW(torus_route(mesh, 0, 3, {Way::minus, Way::shorter}), UsageError);
  EXPECT_EQ(torus_route(mesh, 3, 0, {Way::minus, Way::shorter}).hops(), 3);
}

TEST(TorusRouting, DegenerateOneByCAndRByOneTori) {
  const TorusShape row{1, 8, true};
  const TorusRoute r = torus_route(row, 0, 5);  // forward 5, backward 3
  EXPECT_EQ(r.x_leg.direction, D::minus_x);
  EXPECT_EQ(r.x_leg.hops, 3);
  EXPECT_EQ(r.y_leg.hops, 0);
  const TorusShape column{8, 1, true};
  const TorusRoute c = torus_route(column, 0, 4);  // a tie along y
  EXPECT_EQ(c.x_leg.hops, 0);
  EXPECT_EQ(links_of(c),
            (std::vector<TorusLink>{{0, D::plus_y}, {1, D::plus_y}, {2, D::plus_y}, {3, D::plus_y}}));
  const TorusShape one{1, 1, true};
  EXPECT_EQ(torus_route(one, 0, 0).hops(), 0);
}

TEST(TorusRouting, ARouteToItselfIsEmpty) {
  EXPECT_EQ(torus_route(TorusShape::square(3), 9, 9).hops(), 0);
  EXPECT_EQ(torus_route(TorusShape::square(3), 9, 9, {Way::plus, Way::minus}).hops(), 0);
}

TEST(TorusRouting, NodesOutsideTheTorusAreRejected) {
  EXPECT_THROW(torus_route(TorusShape::square(2), 0, 16), UsageError);
  EXPECT_THROW(torus_route(TorusShape::square(2), -1, 0), UsageError);
}

TEST(TorusShapeCheck, SidesMustBePowersOfTwo) {
  EXPECT_NO_THROW(validate(TorusShape{2, 8, true}));
  EXPECT_NO_THROW(validate(TorusShape{1, 1, false}));
  EXPECT_THROW(validate(TorusShape{3, 4, true}), UsageError);
  EXPECT_THROW(validate(TorusShape{4, 0, true}), UsageError);
}

}  // namespace
}  // namespace hcemu::model
