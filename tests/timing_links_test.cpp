// The link table alone (timing/links.hpp): bookings served in order of ready time take the earliest start at which
// every link of their route is free (docs/model.md §7), and each delay is put on the link whose booking caused it,
// as passes over the route find them. The reference (ReferenceLinks, reference_scheduler.hpp) keeps every booking in
// a plain list and searches it from the front for every move; the table under test keeps the latest booking in
// place, forgets what can no longer be in the way, and reads each link's bookings with a cursor that only moves on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "reference_scheduler.hpp"
#include "timing/links.hpp"
#include "timing/wiring.hpp"

namespace hcemu::timing {
namespace {

struct Case {
  int d;
  int bookings;
  Time max_step;  // how far each ready time may move on: small against the durations makes long queues
  int max_hops;
  unsigned seed;
};

class LinkTableTest : public ::testing::TestWithParam<Case> {};

TEST_P(LinkTableTest, EqualsSearchingEveryBookingFromTheFront) {
  const Case c = GetParam();
  const auto wiring = make_hypercube(c.d);
  LinkTable table(*wiring);
  test::ReferenceLinks reference;
  std::mt19937 rng(c.seed);
  const auto uniform = [&](Time lo, Time hi) { return std::uniform_int_distribution<Time>(lo, hi)(rng); };

  Time ready = 0;
  std::uint64_t delayed = 0;
  for (int i = 0; i < c.bookings; ++i) {
    ready += uniform(0, c.max_step);  // served in order of ready time
    std::vector<int> route;
    const int hops = static_cast<int>(uniform(1, c.max_hops));
    while (static_cast<int>(route.size()) < hops) {
      const int link = static_cast<int>(uniform(0, wiring->link_count() - 1));
      if (std::find(route.begin(), route.end(), link) == route.end()) route.push_back(link);
    }
    const Time duration = uniform(0, 5) == 0 ? uniform(1, 5) : uniform(50, 400);
    const Time finish_at_least = uniform(0, 3) == 0 ? ready + uniform(0, 600) : 0;
    const int owner = static_cast<int>(uniform(0, 7));  // few owners: many bookings wait for their own
    const Time expected = reference.book(route, ready, duration, finish_at_least, owner);
    // Nothing will be ready before `ready` again, so whatever ends by then may be forgotten.
    const Time got = table.book(route, ready, duration, owner, ready, finish_at_least);
    ASSERT_EQ(got, expected) << "booking " << i;
    delayed += got > ready;
  }
  EXPECT_GT(delayed, static_cast<std::uint64_t>(c.bookings / 10)) << "the case should make queues";

  std::map<int, std::pair<std::uint64_t, Time>> contention;
  std::map<int, Time> busy;
  for (const LinkStats& s : table.stats()) {
    // Link k of node `from` on the cube: the table names links by (from, dimension).
    int index = -1;
    for (int l = 0; l < wiring->link_count(); ++l) {
      const LinkEnds e = wiring->ends(l);
      if (e.from == s.from && e.label == s.dim) index = l;
    }
    ASSERT_GE(index, 0);
    if (s.busy > 0) busy[index] = s.busy;
    if (s.contention_events > 0) contention[index] = {s.contention_events, s.contention_delay};
  }
  EXPECT_EQ(busy, reference.busy);
  EXPECT_EQ(contention, reference.contention);
}

INSTANTIATE_TEST_SUITE_P(Queues, LinkTableTest,
                         ::testing::Values(Case{2, 3000, 40, 3, 1}, Case{3, 3000, 20, 3, 2}, Case{3, 3000, 150, 2, 3},
                                           Case{4, 3000, 10, 4, 4}, Case{4, 3000, 300, 4, 5},
                                           Case{1, 2000, 5, 1, 6}));

// Spread over MPI ranks with the links shared out, a rank keeps only the links its block's routes can cross
// (LinkTable::keep_reachable_from): exactly those, found here by walking every route from the block, and each kept link
// reports itself under its own ends. The blocks of 2, 4, 8 and 16 ranks (aligned subcubes), and of 3, 5, 6 and 7
// (rank r holds nodes r * 2^d / R to (r + 1) * 2^d / R - 1, docs/mpi.md), which are not.
TEST(LinkTableBlock, KeepsExactlyTheLinksItsBlocksRoutesCross) {
  const int d = 6, n = 1 << d;
  const auto wiring = make_hypercube(d);
  for (int ranks : {2, 4, 8, 16, 3, 5, 6, 7}) {
    for (int rank = 0; rank < ranks; ++rank) {
      const int first = rank * n / ranks, nodes = (rank + 1) * n / ranks - first;
      SCOPED_TRACE("block of " + std::to_string(nodes) + " from node " + std::to_string(first));
      std::vector<bool> crossed(static_cast<std::size_t>(wiring->link_count()), false);
      for (int s = first; s < first + nodes; ++s)
        for (int t = 0; t < n; ++t) for_each_ecube_link(d, s, t, [&](int link) { crossed[link] = true; });
      LinkTable table(*wiring);
      table.keep_reachable_from(first, nodes);
      // Each kept link booked once, for as long as its index plus one: its stats must name it.
      Time ready = 0;
      for (int link = 0; link < wiring->link_count(); ++link) {
        ASSERT_EQ(table.keeps(link), crossed[static_cast<std::size_t>(link)]) << "link " << link;
        if (!crossed[static_cast<std::size_t>(link)]) continue;
        const int route[] = {link};
        table.book(route, ready, link + 1, link / d, 0);
        ready += 1000;
      }
      const std::vector<LinkStats> stats = table.stats();
      ASSERT_EQ(stats.size(), static_cast<std::size_t>(std::count(crossed.begin(), crossed.end(), true)));
      for (const LinkStats& l : stats) {
        const int link = l.from * d + l.dim;
        EXPECT_EQ(l.busy, link + 1) << "link " << link;
        EXPECT_EQ(l.to(), l.from ^ (1 << l.dim));
      }
    }
  }
}

}  // namespace
}  // namespace hcemu::timing
