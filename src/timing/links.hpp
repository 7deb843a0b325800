#pragma once
// The directed links of the topology (docs/model.md §1 and §7). A multi-hop circuit or a forwarded packet holds
// links that other nodes also send on, so each link keeps the intervals it is booked for, and a transfer takes the
// earliest start at or after its ready time at which every link of its route is free for its whole duration.
//
// The table does no locking of its own: bookings are made in the order of docs/model.md §7 by one placer at a
// time (runtime/coordinator), or on a link private to one node by that node alone, or under the caller's lock.
// Because they come in order of ready time, a booking almost always goes after every other on its links, and most
// links hold one live booking: each link keeps its latest booking in place and only the rare earlier ones that can
// still matter in a list, so that a booking touches one cache line per link.
#include <cstdint>
#include <span>
#include <vector>

#include "hcemu/report.hpp"
#include "hcemu/time.hpp"
#include "timing/booking_list.hpp"
#include "timing/wiring.hpp"

namespace hcemu::timing {

class LinkTable {
 public:
  explicit LinkTable(const Wiring& wiring);

  // Books every link of `route` at the earliest start >= `ready` at which all are free until the booking's end,
  // max(start + duration, finish_at_least), and returns that start. Waiting for another owner's booking is a
  // contention event on the link that caused it; waiting for one's own earlier transfer is not (it is the port
  // model's business). Bookings that end by `forget_before` can no longer be in anyone's way (no transfer will be
  // ready before it) and may be dropped. A booking that would end past the model's range throws TimeOverflow before it
  // changes anything.
  Time book(std::span<const int> route, Time ready, Time duration, int owner, Time forget_before,
            Time finish_at_least = 0);

  // Another process's booking of a link whose copy this one keeps (spread over MPI ranks, docs/mpi.md): in place, in
  // the order of docs/model.md §7 like any other, but without its busy time and contention, which the process that
  // placed it counts.
  void copy(int link, Time start, Time end, int owner, Time forget_before) {
    if (end > start) insert(links_[slot(link)], Booking{start, end, owner}, forget_before);
  }

  // Spread over MPI ranks with the links shared out (docs/mpi.md): keeps only the links that routes from the nodes
  // [first_node, first_node + nodes) can cross on the cube: their own links and, of each dimension k, those of the
  // nodes whose aligned block of 2^k ids (the sources that agree with them in bits k and up) reaches into theirs. On a
  // block of a power of two, aligned, the table then takes about 2^d * (d * nodes / 2^d + 1) links instead of
  // 2^d * d. Elsewhere it keeps every link. Before a run.
  void keep_reachable_from(int first_node, int nodes);
  // Whether this table keeps `link`.
  bool keeps(int link) const;

  std::vector<LinkStats> stats() const;  // links that carried something, by (from, label)
  void reset();                          // for the next run of the same machine
  // With recording on, every booking is kept for a trace, in order of link and start.
  void record(bool on) {
    record_ = on;
    if (on && history_.empty()) history_.resize(links_.size());
  }
  std::vector<LinkSpan> history() const;

 private:
  // One cache line: what a booking reads and writes, and nothing else.
  struct alignas(64) Link {
    Booking latest{0, 0, -1};  // the booking that starts last (owner -1: none)
    Time busy = 0;
    BookingList earlier;  // bookings before `latest` that have not ended by the last forget_before
  };
  static_assert(sizeof(Link) == 64);
  struct Contention {
    std::uint64_t events = 0;
    Time delay = 0;
  };
  // A link's bookings in order of time, read from the first that ends after some time on: the search for a start
  // only moves forward, and so does the cursor.
  class Cursor {
   public:
    Cursor(const Link& link, Time from)
        : next_(link.earlier.first_ending_after(from)),
          end_(link.earlier.end()),
          latest_(link.latest.owner >= 0 ? &link.latest : nullptr) {}
    // The first booking that ends after `t` and starts before `end`, or nullptr; `t` never less than before.
    const Booking* overlapping(Time t, Time end) {
      while (next_ != end_ && next_->end <= t) ++next_;
      if (next_ != end_) return next_->start < end ? next_ : nullptr;  // the latest starts later still
      return latest_ != nullptr && latest_->end > t && latest_->start < end ? latest_ : nullptr;
    }

   private:
    const Booking* next_;
    const Booking* end_;
    const Booking* latest_;
  };
  static void insert(Link& link, const Booking& b, Time forget_before) {
    if (!link.earlier.empty()) link.earlier.drop_ending_by(forget_before);
    if (link.latest.owner < 0 || link.latest.end <= forget_before) {  // nothing in place that can still matter
      link.latest = b;
    } else if (b.start >= link.latest.start) {  // the one that starts last stays in place
      link.earlier.insert(link.latest);
      link.latest = b;
    } else {
      link.earlier.insert(b);
    }
  }

  // Where `link` is kept: its own block's links by their index less the block's first, then per dimension the links of
  // the nodes below the block and those above it that its routes reach there (keep_reachable_from).
  std::size_t slot(int link) const {
    const std::size_t i = static_cast<std::size_t>(link) - first_;  // wraps below the block
    return i < block_ ? i : far_slot(link);
  }
  std::size_t far_slot(int link) const;
  int link_at(std::size_t slot) const;

  const Wiring& wiring_;
  std::size_t first_ = 0, block_;  // the block of links kept by index: all of them, unless keep_reachable_from
  int d_ = 0, first_node_ = 0, end_node_ = 0;  // keep_reachable_from's cube and block of nodes [first, end)
  // Per dimension k (keep_reachable_from): the nodes [reach_from, reach_to) whose links of dimension k the block's
  // routes reach, and the slots of those below the block and of those above it.
  struct Reach {
    int from = 0, to = 0;
    std::size_t below = 0, above = 0;
  };
  std::vector<Reach> reach_;
  std::vector<Link> links_;
  std::vector<Contention> contention_;
  bool record_ = false;
  std::vector<std::vector<LinkSpan>> history_;  // per link, once recording is on
};

}  // namespace hcemu::timing
