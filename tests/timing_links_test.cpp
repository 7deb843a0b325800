// The link table alone (timing/links.hpp): bookings served in order of ready time take the earliest start at which
// every link of their route is free (MODEL.md section 7), and each delay is put on the link whose booking caused it,
// as passes over the route find them. The reference keeps every booking in a plain list and searches it from the
// front for every move; the table under test keeps the latest booking in place, forgets what can no longer be in
// the way, and reads each link's bookings with a cursor that only moves forward.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "timing/links.hpp"
#include "timing/topology.hpp"

namespace hcemu::timing {
namespace {

struct Interval {
  Time start, end;
  int owner;
};

// What passes over the route find, searching each link's bookings from the front every time.
class Reference {
 public:
  explicit Reference(int links) : bookings_(static_cast<std::size_t>(links)) {}

  Time book(const std::vector<int>& route, Time ready, Time duration, int owner, Time finish_at_least) {
    const auto end_of = [&](Time s) { return std::max(s + duration, finish_at_least); };
    if (route.empty() || end_of(ready) == ready) return ready;
    std::vector<Time> delay_by(route.size(), 0);
    Time start = ready;
    for (bool moved = true; moved;) {
      moved = false;
      for (std::size_t r = 0; r < route.size(); ++r) {
        for (const Interval& b : bookings_[static_cast<std::size_t>(route[r])]) {  // sorted by start, disjoint
          if (b.end <= start) continue;
          if (b.start < end_of(start)) {
            if (b.owner != owner) delay_by[r] += b.end - start;
            start = b.end;
            moved = true;
          }
          break;
        }
      }
    }
    for (std::size_t r = 0; r < route.size(); ++r) {
      const auto link = static_cast<std::size_t>(route[r]);
      auto& list = bookings_[link];
      list.push_back({start, end_of(start), owner});
      std::sort(list.begin(), list.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
      busy_[link] += end_of(start) - start;
      if (delay_by[r] > 0) {
        ++contention_[link].first;
        contention_[link].second += delay_by[r];
      }
    }
    return start;
  }

  std::map<std::size_t, Time> busy_;
  std::map<std::size_t, std::pair<std::uint64_t, Time>> contention_;

 private:
  std::vector<std::vector<Interval>> bookings_;
};

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
  const auto topology = make_hypercube(c.d);
  LinkTable table(*topology);
  Reference reference(topology->link_count());
  std::mt19937 rng(c.seed);
  const auto uniform = [&](Time lo, Time hi) { return std::uniform_int_distribution<Time>(lo, hi)(rng); };

  Time ready = 0;
  std::uint64_t delayed = 0;
  for (int i = 0; i < c.bookings; ++i) {
    ready += uniform(0, c.max_step);  // served in order of ready time
    std::vector<int> route;
    const int hops = static_cast<int>(uniform(1, c.max_hops));
    while (static_cast<int>(route.size()) < hops) {
      const int link = static_cast<int>(uniform(0, topology->link_count() - 1));
      if (std::find(route.begin(), route.end(), link) == route.end()) route.push_back(link);
    }
    const Time duration = uniform(0, 5) == 0 ? uniform(1, 5) : uniform(50, 400);
    const Time finish_at_least = uniform(0, 3) == 0 ? ready + uniform(0, 600) : 0;
    const int owner = static_cast<int>(uniform(0, 7));  // few owners: many bookings wait for their own
    const Time expected = reference.book(route, ready, duration, owner, finish_at_least);
    // Nothing will be ready before `ready` again, so whatever ends by then may be forgotten.
    const Time got = table.book(route, ready, duration, owner, ready, finish_at_least);
    ASSERT_EQ(got, expected) << "booking " << i;
    delayed += got > ready;
  }
  EXPECT_GT(delayed, static_cast<std::uint64_t>(c.bookings / 10)) << "the case should make queues";

  std::map<std::size_t, std::pair<std::uint64_t, Time>> contention;
  std::map<std::size_t, Time> busy;
  for (const LinkStats& s : table.stats()) {
    // Link k of node `from` on the cube: the table names links by (from, dimension).
    int index = -1;
    for (int l = 0; l < topology->link_count(); ++l) {
      const LinkEnds e = topology->ends(l);
      if (e.from == s.from && e.label == s.dim) index = l;
    }
    ASSERT_GE(index, 0);
    if (s.busy > 0) busy[static_cast<std::size_t>(index)] = s.busy;
    if (s.contention_events > 0)
      contention[static_cast<std::size_t>(index)] = {s.contention_events, s.contention_delay};
  }
  EXPECT_EQ(busy, reference.busy_);
  EXPECT_EQ(contention, reference.contention_);
}

INSTANTIATE_TEST_SUITE_P(Queues, LinkTableTest,
                         ::testing::Values(Case{2, 3000, 40, 3, 1}, Case{3, 3000, 20, 3, 2}, Case{3, 3000, 150, 2, 3},
                                           Case{4, 3000, 10, 4, 4}, Case{4, 3000, 300, 4, 5},
                                           Case{1, 2000, 5, 1, 6}));

}  // namespace
}  // namespace hcemu::timing
