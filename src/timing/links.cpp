#include "timing/links.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include <boost/container/small_vector.hpp>

#include "timing/checked_time.hpp"

namespace hcemu::timing {

LinkTable::LinkTable(const Wiring& wiring)
    : wiring_(wiring),
      block_(static_cast<std::size_t>(wiring.link_count())),
      links_(static_cast<std::size_t>(wiring.link_count())),
      contention_(static_cast<std::size_t>(wiring.link_count())) {}

void LinkTable::keep_reachable_from(int first_node, int nodes) {
  const int d = wiring_.ecube_dimension();
  if (d == 0 || nodes <= 0) return;
  if (d_ == d && first_node_ == first_node && end_node_ == first_node + nodes) return;  // kept already
  d_ = d;
  first_node_ = first_node;
  end_node_ = first_node + nodes;
  first_ = static_cast<std::size_t>(first_node) * static_cast<std::size_t>(d);
  block_ = static_cast<std::size_t>(nodes) * static_cast<std::size_t>(d);
  // Link (x, k) carries the routes of the sources in x's aligned block of 2^k ids: those x whose block reaches into
  // [first_node, end_node_), a range from the first node's block to the last one's.
  reach_.assign(static_cast<std::size_t>(d), Reach{});
  std::size_t slots = block_;
  for (int k = 0; k < d; ++k) {
    Reach& r = reach_[static_cast<std::size_t>(k)];
    r.from = first_node & ~((1 << k) - 1);
    r.to = ((end_node_ - 1) | ((1 << k) - 1)) + 1;
    r.below = slots;
    slots += static_cast<std::size_t>(first_node - r.from);
    r.above = slots;
    slots += static_cast<std::size_t>(r.to - end_node_);
  }
  links_ = std::vector<Link>(slots);
  contention_.assign(slots, Contention{});
  if (!history_.empty()) history_.assign(links_.size(), {});
}

bool LinkTable::keeps(int link) const {
  if (d_ == 0 || static_cast<std::size_t>(link) - first_ < block_) return true;
  const int node = link / d_;
  const Reach& r = reach_[static_cast<std::size_t>(link % d_)];
  return node >= r.from && node < r.to;
}

std::size_t LinkTable::far_slot(int link) const {
  if (!keeps(link)) throw std::logic_error("internal error: a link this process does not keep");
  const int node = link / d_;
  const Reach& r = reach_[static_cast<std::size_t>(link % d_)];
  return node < first_node_ ? r.below + static_cast<std::size_t>(node - r.from)
                            : r.above + static_cast<std::size_t>(node - end_node_);
}

int LinkTable::link_at(std::size_t slot) const {
  if (slot < block_) return static_cast<int>(first_ + slot);
  for (int k = 0; k < d_; ++k) {
    const Reach& r = reach_[static_cast<std::size_t>(k)];
    if (slot < r.above) return (r.from + static_cast<int>(slot - r.below)) * d_ + k;
    if (slot < r.above + static_cast<std::size_t>(r.to - end_node_))
      return (end_node_ + static_cast<int>(slot - r.above)) * d_ + k;
  }
  throw std::logic_error("internal error: a slot past the links this process keeps");
}

Time LinkTable::book(std::span<const int> route, Time ready, Time duration, int owner, Time forget_before,
                     Time finish_at_least) {
  const auto end_of = [&](Time start) {
    return std::max(add_time(start, duration, "a link's booking"), finish_at_least);
  };
  if (route.empty() || end_of(ready) == ready) return ready;  // nothing to hold

  // The earliest start at which every link is free for the whole booking: move past whatever overlaps until
  // nothing does. Each move goes to the end of a booking, so this ends. Mostly nothing booked on the route ends
  // after `ready`, and then nothing can be in the way: no search, no delays.
  const auto free_from_ready = [&](int link) {
    const Link& l = links_[slot(link)];
    return l.earlier.empty() && (l.latest.owner < 0 || l.latest.end <= ready);
  };
  const bool free = std::all_of(route.begin(), route.end(), free_from_ready);
  if (free && !record_) {  // the booking starts after the one in place on every link: it takes its place
    const Time end = end_of(ready);
    for (int link : route) {
      Link& l = links_[slot(link)];
      if (l.latest.owner >= 0 && l.latest.end > forget_before) l.earlier.insert(l.latest);  // insert(), in short
      l.latest = Booking{ready, end, owner};
      l.busy += end - ready;
    }
    return ready;
  }
  Time start = ready;
  boost::container::small_vector<Time, 16> delay_by;  // per hop, waiting for another owner's booking
  if (!free) {
    delay_by.assign(route.size(), 0);
    // A cursor per link, since `start` only grows: each booking passed is one step, where a search from the front
    // for each made a link with hundreds of bookings queued back to back (every node's sends issued at once on
    // n-port nodes) cost a binary search per booking passed.
    boost::container::small_vector<Cursor, 16> cursors;
    for (int link : route) cursors.emplace_back(links_[slot(link)], ready);
    for (bool moved = true; moved;) {
      moved = false;
      for (std::size_t r = 0; r < route.size(); ++r) {
        const Booking* it = cursors[r].overlapping(start, end_of(start));
        if (it != nullptr) {
          if (it->owner != owner) delay_by[r] += it->end - start;
          start = it->end;
          moved = true;
        }
      }
    }
  }
  const Time end = end_of(start);
  for (std::size_t r = 0; r < route.size(); ++r) {
    const std::size_t i = slot(route[r]);
    const Time delay = delay_by.empty() ? 0 : delay_by[r];
    insert(links_[i], Booking{start, end, owner}, forget_before);
    links_[i].busy += end - start;
    if (record_) {
      const LinkEnds e = wiring_.ends(route[r]);
      history_[i].push_back(LinkSpan{e.from, e.to, e.label, start, end, owner, delay});
    }
    if (delay > 0) {
      ++contention_[i].events;
      contention_[i].delay += delay;
    }
  }
  return start;
}

std::vector<LinkStats> LinkTable::stats() const {
  std::vector<LinkStats> out;
  for (std::size_t i = 0; i < links_.size(); ++i) {
    const Link& l = links_[i];
    const Contention& c = contention_[i];
    if (l.busy == 0 && c.events == 0) continue;
    const LinkEnds e = wiring_.ends(link_at(i));
    LinkStats s;
    s.from = e.from;
    s.dim = e.label;
    s.destination = e.to;
    s.busy = l.busy;
    s.contention_events = c.events;
    s.contention_delay = c.delay;
    out.push_back(s);
  }
  std::sort(out.begin(), out.end(),
            [](const LinkStats& a, const LinkStats& b) { return a.from != b.from ? a.from < b.from : a.dim < b.dim; });
  return out;
}

std::vector<LinkSpan> LinkTable::history() const {
  std::vector<LinkSpan> out;
  for (const auto& h : history_) out.insert(out.end(), h.begin(), h.end());
  std::stable_sort(out.begin(), out.end(), [](const LinkSpan& a, const LinkSpan& b) {
    return std::tie(a.from, a.dim, a.start) < std::tie(b.from, b.dim, b.start);
  });
  return out;
}

void LinkTable::reset() {
  for (Link& l : links_) {
    l.latest = Booking{0, 0, -1};
    l.busy = 0;
    l.earlier.clear();
  }
  std::fill(contention_.begin(), contention_.end(), Contention{});
  for (auto& h : history_) h.clear();
}

}  // namespace hcemu::timing
