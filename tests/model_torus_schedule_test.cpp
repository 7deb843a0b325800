// The schedules of Suh, Shin & An's T2, T1.1, T1.x and T1 (one family, parameter x): the groups behave as the paper
// says, the step counts are the paper's, every step is a set of link-disjoint transfers with at most one message in
// and one out per node, and moving the blocks step by step as the schedule says delivers every block.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "hcemu/errors.hpp"
#include "hcemu/model/torus.hpp"
#include "hcemu/model/torus_exchange.hpp"

namespace hcemu::model {
namespace {

std::vector<Coordinates> square_nodes(int d) {
  std::vector<Coordinates> nodes;
  for (int y = 0; y < (1 << d); ++y)
    for (int x = 0; x < (1 << d); ++x) nodes.push_back({x, y});
  return nodes;
}

// Every (d, x) of the family for d = 1..dmax.
std::vector<std::pair<int, int>> family(int dmax) {
  std::vector<std::pair<int, int>> cases;
  for (int d = 1; d <= dmax; ++d)
    for (int x = 0; x <= torus_max_x(d); ++x) cases.emplace_back(d, x);
  return cases;
}

std::string name(int d, int x) { return "d=" + std::to_string(d) + " x=" + std::to_string(x); }

// ----- Mirror and groups -------------------------------------------------------------------------------------------

TEST(TorusMirror, ComplementsTheLowBitsInsideTheAlignedBlock) {
  EXPECT_EQ(torus_mirror(0, 1), 1);
  EXPECT_EQ(torus_mirror(5, 2), 6);    // 101 -> 110: 5 is the 2nd of {4..7}, its mirror the 3rd
  EXPECT_EQ(torus_mirror(2, 3), 5);    // in 0..7: 2 <-> 7 - 2
  EXPECT_EQ(torus_mirror(9, 3), 14);   // in 8..15: 9 <-> 8 + 15 - 9
  EXPECT_EQ(torus_mirror(3, 0), 3);
}

TEST(TorusGroups, TheGroupsOfPhasePPartitionTheTorusIntoGroupsOfTwoToThePPlusOneNodesPerSubmesh) {
  for (int p = 2; p <= 6; ++p) {
    std::vector<int> count(std::size_t{1} << (p - 1), 0);
    for (const Coordinates c : square_nodes(p)) {
      int groups = 0;
      for (int j = 1; j <= (1 << (p - 1)); ++j)
        if (torus_in_group(p, j, c)) {
          ++groups;
          ++count[static_cast<std::size_t>(j - 1)];
        }
      EXPECT_EQ(groups, 1) << "p=" << p << " (" << c.x << "," << c.y << ")";
    }
    for (int n : count) EXPECT_EQ(n, 1 << (p + 1)) << "p=" << p;
  }
}

TEST(TorusGroups, EachGroupHasOneMirrorPairPerRowAndPerColumnOfASubmesh) {
  // Suh, Shin & An §3: the groups take turns because nested mirror pairs of one row would share links.
  for (int p = 2; p <= 5; ++p)
    for (int j = 1; j <= (1 << (p - 1)); ++j)
      for (int line = 0; line < (1 << p); ++line) {
        int in_row = 0, in_column = 0;
        for (int v = 0; v < (1 << p); ++v) {
          if (torus_in_group(p, j, {v, line})) {
            ++in_row;
            EXPECT_TRUE(torus_in_group(p, j, {torus_mirror(v, p), line})) << "p=" << p << " j=" << j;
          }
          if (torus_in_group(p, j, {line, v})) {
            ++in_column;
            EXPECT_TRUE(torus_in_group(p, j, {line, torus_mirror(v, p)})) << "p=" << p << " j=" << j;
          }
        }
        EXPECT_EQ(in_row, 2);
        EXPECT_EQ(in_column, 2);
      }
}

TEST(TorusGroups, SecondSpecialGroupAsPrintedWouldOverlapTheFirst) {
  // The OCR'd definition of G_p(2) reads x + y ≡ 2^p - 1, which G_p(1) already has: 2^p nodes of a 2^p submesh
  // would be in both. The corrected one (x + y ≡ 2^(p-1) - 1) is disjoint from G_p(1).
  for (int p = 3; p <= 5; ++p) {
    const int big = 1 << p;
    int printed_overlap = 0, corrected_overlap = 0;
    for (const Coordinates c : square_nodes(p)) {
      const bool printed = (c.y - c.x + big / 2) % big == 0 || (c.x + c.y) % big == big - 1;
      if (printed && torus_in_group(p, 1, c)) ++printed_overlap;
      if (torus_in_group(p, 2, c) && torus_in_group(p, 1, c)) ++corrected_overlap;
    }
    EXPECT_EQ(printed_overlap, big) << "p=" << p;
    EXPECT_EQ(corrected_overlap, 0) << "p=" << p;
  }
}

TEST(TorusGroups, TheFirstSpecialGroupSplitsIntoBothSpecialGroupsOfTheNextPhase) {
  // Suh, Shin & An §3.1: SG_j(1) = SG_(j+1)(1) ∪ SG_(j+1)(2).
  for (int j = 2; j <= 5; ++j)
    for (const Coordinates c : square_nodes(j + 1)) {
      EXPECT_EQ(torus_in_group(j, 1, c), torus_in_group(j + 1, 1, c) || torus_in_group(j + 1, 2, c));
    }
}

TEST(TorusGroups, MirrorOneLevelDownSwapsTheTwoSpecialGroups) {
  // μ_(p-1), along x or along y, maps SG_p(1) onto SG_p(2): the pairing of the concentration and send steps.
  for (int p = 2; p <= 6; ++p)
    for (const Coordinates c : square_nodes(p)) {
      if (!torus_in_group(p, 1, c)) continue;
      EXPECT_TRUE(torus_in_group(p, 2, {torus_mirror(c.x, p - 1), c.y})) << "p=" << p;
      EXPECT_TRUE(torus_in_group(p, 2, {c.x, torus_mirror(c.y, p - 1)})) << "p=" << p;
    }
}

TEST(TorusGroups, TheActiveSetIsTheUnionOfTheGroupPairsWhoseIndexIsAMultipleOfTwoToTheX) {
  // A_x = SG_(x+1)(1) = ∪ G_p(2k+1) ∪ G_p(2k+2) over k ≡ 0 (mod 2^x): for x = 1 the paper's G_p(4i-3), G_p(4i-2).
  for (int p = 3; p <= 6; ++p)
    for (int x = 1; x <= p - 2; ++x)
      for (const Coordinates c : square_nodes(p)) {
        const int j = torus_group_of(p, c);
        const int k = (j - 1) / 2;
        EXPECT_EQ(torus_in_active_set(x, c), k % (1 << x) == 0) << "p=" << p << " x=" << x;
      }
}

// ----- Steps -------------------------------------------------------------------------------------------------------

TEST(TorusSchedule, StepCountsAreThePapers) {
  for (int d = 1; d <= 3; ++d) {
    EXPECT_EQ(torus_t1_schedule(d).steps.size(), static_cast<std::size_t>(2 * d)) << "T1 d < 4: 2d";
    EXPECT_EQ(torus_t2_schedule(d).steps.size(), static_cast<std::size_t>(2 * d)) << "T2 d < 4: 2d";
  }
  for (int d = 4; d <= 9; ++d) {
    EXPECT_EQ(torus_t1_schedule(d).steps.size(), static_cast<std::size_t>(3 * d - 3)) << "T1: 3d - 3, d=" << d;
    EXPECT_EQ(torus_t2_schedule(d).steps.size(), static_cast<std::size_t>(3 << (d - 2))) << "T2: 3·2^(d-2), d=" << d;
    EXPECT_EQ(torus_schedule(d, 1).steps.size(), static_cast<std::size_t>(3 * (1 << (d - 3)) + 3))
        << "T1.1: 3·2^(d-3) + 3, d=" << d;
  }
}

TEST(TorusSchedule, TOneXHasThreeXPlusThreeTimesTwoToTheDMinusTwoMinusXSteps) {
  // Our reading of §4.2 (docs/kernels/torus.md): 2 steps in each of the phases 1..x+1, 2^(p-1-x) in phase p of
  // x+2..d-1, 2^(d-2-x) in phase d and x send steps: T1.2 on 64 x 64 has 3·2 + 3·2^(6-2-2) = 18.
  EXPECT_EQ(torus_schedule(6, 2).steps.size(), 18u);
  EXPECT_EQ(torus_schedule(7, 2).steps.size(), 30u);
  EXPECT_EQ(torus_schedule(7, 3).steps.size(), 21u);
  for (const auto& [d, x] : family(10)) {
    EXPECT_EQ(torus_schedule(d, x).steps.size(), torus_step_count(d, x)) << name(d, x);
  }
}

TEST(TorusSchedule, XOutsideTheFamilyIsRejected) {
  EXPECT_THROW(torus_schedule(5, 3), UsageError);  // T1 of a 32 x 32 torus is x = 2
  EXPECT_THROW(torus_schedule(3, 1), UsageError);
  EXPECT_THROW(torus_schedule(4, -1), UsageError);
  EXPECT_NO_THROW(torus_schedule(0, 0));
}

TEST(TorusSchedule, ThePhasesAreInThePapersOrder) {
  // T1.1 on 32 x 32 (§4.1, Figures 4-5): phases 1 and 2 of two steps, phase 3 of 2 (G_3(1), G_3(2)), phase 4 of 4
  // (G_4(1), G_4(2), then G_4(5), G_4(6)), phase 5 of 4 (the G_4 pairs again), one send step.
  const TorusSchedule s = torus_schedule(5, 1);
  std::vector<int> phases;
  for (const auto& step : s.steps) phases.push_back(step.phase);
  EXPECT_EQ(phases, (std::vector<int>{1, 1, 2, 2, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6}));
  EXPECT_EQ(s.steps[8].group_level, 4);
  EXPECT_EQ(s.steps[8].h_group, 5);
  EXPECT_EQ(s.steps[8].v_group, 6);
  EXPECT_EQ(s.steps[13].group_level, 4);  // phase d uses the groups of phase d - 1
  EXPECT_EQ(s.steps[13].h_group, 6);
  EXPECT_EQ(s.steps[14].kind, TorusStepKind::scatter);
}

TEST(TorusSchedule, HandWorkedActions) {
  // 4 x 4 (d = 2): phase 1 flips x_0, then y_0; phase 2 mirrors the whole ring, x <-> 3 - x.
  const TorusSchedule t2 = torus_t2_schedule(2);
  EXPECT_EQ(torus_action(t2, 0, {0, 0}).partner, (Coordinates{1, 0}));
  EXPECT_EQ(torus_action(t2, 1, {2, 2}).partner, (Coordinates{2, 3}));
  EXPECT_EQ(torus_action(t2, 2, {1, 3}).partner, (Coordinates{2, 3}));
  EXPECT_EQ(torus_action(t2, 3, {1, 3}).partner, (Coordinates{1, 0}));
  // T1.1 on 16 x 16, step 2 (V_1): (0,1) is in SG_2(2) (x + y ≡ 1) and gives its data to (0,0) in SG_2(1).
  const TorusSchedule t11 = torus_schedule(4, 1);
  EXPECT_EQ(torus_action(t11, 1, {0, 1}).role, TorusRole::send);
  EXPECT_EQ(torus_action(t11, 1, {0, 1}).partner, (Coordinates{0, 0}));
  EXPECT_EQ(torus_action(t11, 1, {0, 0}).role, TorusRole::receive);
  // Phase 2: SG_2(2) nodes are idle from here on; SG_2(1) nodes exchange H_2: (0,0) <-> (3,0).
  EXPECT_EQ(torus_action(t11, 2, {0, 1}).role, TorusRole::idle);
  EXPECT_EQ(torus_action(t11, 2, {0, 0}).partner, (Coordinates{3, 0}));
  // The send step: (0,0) in SG_2(1) sends to its H_1 mirror (1,0).
  EXPECT_EQ(torus_action(t11, 8, {0, 0}).role, TorusRole::send);
  EXPECT_EQ(torus_action(t11, 8, {1, 0}).role, TorusRole::receive);
  EXPECT_EQ(torus_action(t11, 8, {1, 0}).partner, (Coordinates{0, 0}));
}

// Checks one step: roles pair up, one message in and one out per node at most, no directed link twice.
void check_step(const TorusSchedule& s, std::size_t k) {
  const TorusShape shape = TorusShape::square(s.d);
  std::vector<int> out(static_cast<std::size_t>(shape.nodes()), 0), in(out.size(), 0);
  std::vector<int> link_use(static_cast<std::size_t>(torus_link_slots(shape)), 0);
  for (int id = 0; id < shape.nodes(); ++id) {
    const Coordinates u = torus_coord(shape, id);
    const TorusAction a = torus_action(s, k, u);
    if (a.role == TorusRole::idle) continue;
    const TorusAction b = torus_action(s, k, a.partner);
    const TorusRole expected = a.role == TorusRole::exchange ? TorusRole::exchange
                               : a.role == TorusRole::send   ? TorusRole::receive
                                                             : TorusRole::send;
    ASSERT_EQ(b.role, expected) << name(s.d, s.x) << " step " << k;
    ASSERT_EQ(b.partner, u) << name(s.d, s.x) << " step " << k;
    if (a.role == TorusRole::receive) continue;
    const int dest = torus_id(shape, a.partner);
    ++out[static_cast<std::size_t>(id)];
    ++in[static_cast<std::size_t>(dest)];
    torus_route(shape, id, dest).for_each_link([&](const TorusLink& l) {
      EXPECT_EQ(++link_use[static_cast<std::size_t>(torus_link_index(l))], 1)
          << name(s.d, s.x) << " step " << k << ": link " << l.node << "/" << static_cast<int>(l.direction);
    });
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    EXPECT_LE(out[i], 1);
    EXPECT_LE(in[i], 1);
  }
}

TEST(TorusSchedule, EveryStepIsLinkDisjointWithOneMessageInAndOutPerNode) {
  for (const auto& [d, x] : family(6)) {
    const TorusSchedule s = torus_schedule(d, x);
    for (std::size_t k = 0; k < s.steps.size(); ++k) check_step(s, k);
  }
  const TorusSchedule t1 = torus_t1_schedule(7);
  for (std::size_t k = 0; k < t1.steps.size(); ++k) check_step(t1, k);
}

TEST(TorusSchedule, TheLongestRouteOfAStepIsTheSubmeshSideOrHalfTheRingInPhaseD) {
  // A μ_p transfer with p < d never leaves its 2^p submesh, so it is at most 2^p - 1 hops; the phase-d transfers
  // go the shorter way round, at most 2^(d-1) - 1 hops (the two ways are never equal).
  // Every step of the family has a pair at that largest distance, which is torus_step_hops.
  for (const auto& [d, x] : family(6)) {
    const TorusSchedule s = torus_schedule(d, x);
    const TorusShape shape = TorusShape::square(d);
    for (std::size_t k = 0; k < s.steps.size(); ++k) {
      int longest = 0;
      for (int id = 0; id < shape.nodes(); ++id) {
        const TorusAction a = torus_action(s, k, torus_coord(shape, id));
        if (a.role == TorusRole::exchange || a.role == TorusRole::send)
          longest = std::max(longest, torus_distance(shape, id, torus_id(shape, a.partner)));
      }
      const int p = s.steps[k].level;
      const int bound = p < s.d ? (1 << p) - 1 : std::max(1, (1 << (s.d - 1)) - 1);
      EXPECT_EQ(longest, bound) << name(d, x) << " step " << k;
      EXPECT_EQ(torus_step_hops(s, k), bound) << name(d, x) << " step " << k;
    }
  }
}

// ----- Blocks ------------------------------------------------------------------------------------------------------

TEST(TorusBlocks, AxisSetsEnumerateTheirMembersInIncreasingOrder) {
  const int d = 4;
  std::vector<TorusAxisSet> sets = {TorusAxisSet::all(d), TorusAxisSet::window(d, 2, 9), TorusAxisSet::own(d, 1, 5),
                                    TorusAxisSet::own(d, 2, 6, 1), TorusAxisSet::own(d, 4, 11),
                                    TorusAxisSet::own(d, 3, 3, 1)};
  for (const auto& set : sets) {
    std::vector<int> members;
    for (int z = 0; z < (1 << d); ++z)
      if (set.contains(z)) members.push_back(z);
    ASSERT_EQ(static_cast<int>(members.size()), set.size());
    for (int i = 0; i < set.size(); ++i) {
      EXPECT_EQ(set.element(i), members[static_cast<std::size_t>(i)]);
      EXPECT_EQ(set.rank(members[static_cast<std::size_t>(i)]), i);
    }
  }
  // Worked by hand: own_1 around 5 = 0101 keeps z with z ^ 5 ≡ 0 or 3 (mod 4): z ≡ 1 or 2 (mod 4).
  EXPECT_EQ(TorusAxisSet::own(d, 1, 5).element(0), 1);
  EXPECT_EQ(TorusAxisSet::own(d, 1, 5).element(1), 2);
  EXPECT_EQ(TorusAxisSet::own(d, 1, 5).element(2), 5);
  EXPECT_EQ(TorusAxisSet::window(d, 2, 9).element(0), 8);
}

TEST(TorusBlocks, ABlockSetRanksInDestinationThenSourceOrder) {
  TorusBlockSet set;
  set.empty = false;
  set.sx = TorusAxisSet::window(3, 1, 2);  // {2, 3}
  set.sy = TorusAxisSet::window(3, 0, 5);  // {5}
  set.dx = TorusAxisSet::own(3, 2, 0);     // {0, 7}
  set.dy = TorusAxisSet::window(3, 1, 0);  // {0, 1}
  EXPECT_EQ(set.size(), 8u);
  EXPECT_EQ(set.rank({3, 5}, {0, 0}), 1u);
  EXPECT_EQ(set.rank({2, 5}, {7, 0}), 2u);
  EXPECT_EQ(set.rank({3, 5}, {7, 1}), 7u);
  for (std::size_t i = 0; i < set.size(); ++i) {
    const auto b = set.block(i);
    EXPECT_EQ(set.rank(b.source, b.dest), i);
  }
}

TEST(TorusBlocks, HandWorkedHoldingsAfterTheFirstStepOfTTwo) {
  // T2 on 4 x 4, node (0,0) after exchanging with (1,0) (H_1): sources {0,1} x {0}; it keeps the destinations whose
  // x is 0 or 3 = μ_2(0) (own_1 around 0), every y: 2 · 1 · 2 · 4 = 16 blocks, as many as it started with.
  const TorusBlockSet h = torus_holdings(torus_t2_schedule(2), 1, {0, 0});
  EXPECT_EQ(h.size(), 16u);
  EXPECT_TRUE(h.contains({1, 0}, {3, 2}));
  EXPECT_FALSE(h.contains({1, 0}, {1, 2}));
  EXPECT_FALSE(h.contains({0, 1}, {0, 0}));
  // What (0,0) sent (1,0): its own blocks for x = 1 or 2, 8 of them.
  const TorusBlockSet sent = torus_transfer(torus_t2_schedule(2), 0, {0, 0}, {1, 0});
  EXPECT_EQ(sent.size(), 8u);
  EXPECT_TRUE(sent.contains({0, 0}, {2, 3}));
}

// Moves every block as the schedule says, one step at a time, and checks each node's holdings against
// torus_holdings, each message's size against torus_step_blocks, and the end: every block at its destination.
void simulate(int d, int x) {
  const TorusSchedule s = torus_schedule(d, x);
  const TorusShape shape = TorusShape::square(d);
  const auto nodes = static_cast<std::size_t>(shape.nodes());
  const auto key = [&](Coordinates source, Coordinates dest) {
    return static_cast<std::size_t>(torus_id(shape, source)) * nodes + static_cast<std::size_t>(torus_id(shape, dest));
  };
  std::vector<int> holder(nodes * nodes);
  for (std::size_t b = 0; b < holder.size(); ++b) holder[b] = static_cast<int>(b / nodes);
  std::size_t volume = 0;
  for (std::size_t k = 0; k < s.steps.size(); ++k) {
    std::vector<std::pair<std::size_t, int>> moves;
    std::size_t largest = 0;
    for (int id = 0; id < shape.nodes(); ++id) {
      const Coordinates u = torus_coord(shape, id);
      const TorusAction a = torus_action(s, k, u);
      if (a.role != TorusRole::exchange && a.role != TorusRole::send) continue;
      const TorusBlockSet sent = torus_transfer(s, k, u, a.partner);
      ASSERT_EQ(sent.size(), torus_step_blocks(s, k)) << name(d, x) << " step " << k << " node " << id;
      largest = std::max(largest, sent.size());
      for (std::size_t i = 0; i < sent.size(); ++i) {
        const auto blk = sent.block(i);
        const std::size_t b = key(blk.source, blk.dest);
        ASSERT_EQ(holder[b], id) << name(d, x) << " step " << k << ": node " << id << " sends a block it lacks";
        moves.emplace_back(b, torus_id(shape, a.partner));
      }
    }
    for (const auto& [b, to] : moves) holder[b] = to;
    volume += largest;
    std::size_t held = 0;
    for (int id = 0; id < shape.nodes(); ++id) {
      const TorusBlockSet h = torus_holdings(s, k + 1, torus_coord(shape, id));
      held += h.size();
      for (std::size_t i = 0; i < h.size(); ++i) {
        const auto blk = h.block(i);
        ASSERT_EQ(holder[key(blk.source, blk.dest)], id) << name(d, x) << " after step " << k;
      }
    }
    ASSERT_EQ(held, nodes * nodes) << name(d, x) << " after step " << k;
  }
  for (std::size_t b = 0; b < holder.size(); ++b)
    ASSERT_EQ(holder[b], static_cast<int>(b % nodes)) << name(d, x) << ": block " << b << " not delivered";
}

TEST(TorusBlocks, MovingTheBlocksStepByStepDeliversEveryBlock) {
  for (const auto& [d, x] : family(5)) {
    SCOPED_TRACE(name(d, x));
    simulate(d, x);
  }
}

TEST(TorusBlocks, EveryMessageOfAStepHasTheSameSizeAndTheSizesAreTheClosedForm) {
  // U = 2^(2d-1) blocks, half of what a node starts with. T1 on 32 x 32 (x = 2): 1, 2, 2, 4, then 4 for every
  // exchange step, and the send steps 4, 2 (in units of U).
  const TorusSchedule t1 = torus_t1_schedule(5);
  std::vector<std::size_t> units;
  for (std::size_t k = 0; k < t1.steps.size(); ++k) units.push_back(torus_step_blocks(t1, k) / 512);
  EXPECT_EQ(units, (std::vector<std::size_t>{1, 2, 2, 4, 4, 4, 4, 4, 4, 4, 4, 2}));
}

}  // namespace
}  // namespace hcemu::model
