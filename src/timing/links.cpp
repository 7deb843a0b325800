#include "timing/links.hpp"

#include <algorithm>

namespace hcemu::timing {

LinkTable::LinkTable(const Topology& topology)
    : topology_(topology), links_(static_cast<std::size_t>(topology.link_count())) {}

Time LinkTable::book(std::span<const int> route, Time ready, Time duration, int owner, Time forget_before,
                     Time finish_at_least) {
  if (route.empty() || std::max(ready + duration, finish_at_least) == ready) return ready;  // nothing to hold
  const auto end_of = [&](Time start) { return std::max(start + duration, finish_at_least); };
  for (int i : route) links_[static_cast<std::size_t>(i)].bookings.drop_ending_by(forget_before);

  // The earliest start at which every link is free for the whole duration: move past whatever overlaps until
  // nothing does. Each move goes to the end of a booking, so this ends.
  boost::container::small_vector<Time, 16> delay_by(route.size(), 0);
  Time start = ready;
  for (bool moved = true; moved;) {
    moved = false;
    for (std::size_t r = 0; r < route.size(); ++r) {
      const Booking* it = links_[static_cast<std::size_t>(route[r])].bookings.first_ending_after(start);
      if (it != nullptr && it->start < end_of(start)) {
        if (it->owner != owner) delay_by[r] += it->end - start;
        start = it->end;
        moved = true;
      }
    }
  }
  for (std::size_t r = 0; r < route.size(); ++r) {
    Link& link = links_[static_cast<std::size_t>(route[r])];
    link.bookings.insert(Booking{start, end_of(start), owner});
    link.busy += end_of(start) - start;
    if (delay_by[r] > 0) {
      ++link.contention_events;
      link.contention_delay += delay_by[r];
    }
  }
  return start;
}

std::vector<LinkStats> LinkTable::stats() const {
  std::vector<LinkStats> out;
  for (std::size_t i = 0; i < links_.size(); ++i) {
    const Link& l = links_[i];
    if (l.busy == 0 && l.contention_events == 0) continue;
    const LinkEnds e = topology_.ends(static_cast<int>(i));
    LinkStats s;
    s.from = e.from;
    s.dim = e.label;
    s.busy = l.busy;
    s.contention_events = l.contention_events;
    s.contention_delay = l.contention_delay;
    out.push_back(s);
  }
  std::sort(out.begin(), out.end(),
            [](const LinkStats& a, const LinkStats& b) { return a.from != b.from ? a.from < b.from : a.dim < b.dim; });
  return out;
}

void LinkTable::reset() {
  for (Link& l : links_) {
    l.bookings.clear();
    l.busy = 0;
    l.contention_events = 0;
    l.contention_delay = 0;
  }
}

}  // namespace hcemu::timing
