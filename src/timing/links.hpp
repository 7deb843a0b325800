#pragma once
// The d·2^d directed links (MODEL.md sections 1 and 7). Unlike ports, a link is shared: a multi-hop circuit or a
// forwarded packet holds links that other nodes also send on. Each link keeps the intervals it is booked for, so
// that bookings made out of model-time order (threads run at their own pace) still land where the model puts
// them: a transfer takes the earliest moment at which every link it needs is free for its whole duration.
#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "hcemu/report.hpp"
#include "hcemu/time.hpp"
#include "timing/booking_list.hpp"

namespace hcemu::timing {

class LinkTable {
 public:
  explicit LinkTable(int d);

  static int index(int from, int dim, int d) { return from * d + dim; }

  // Books `duration` on every link of `route` at the earliest time >= `ready` when all are free, and returns that
  // start. A wait caused by another owner's booking is a contention event on the link that caused it; waiting for
  // one's own earlier transfer is not (it is the port model's business).
  Time book(std::span<const int> route, Time ready, Time duration, int owner);

  std::vector<LinkStats> stats() const;  // links that carried something, by (from, dim)

  // No transfer will ever again be issued before `t` (every node's clock has passed it): bookings that end by
  // then can no longer be in anyone's way and are dropped, which keeps each link's list short.
  void set_horizon(Time t) { horizon_.store(t, std::memory_order_relaxed); }

 private:
  struct alignas(64) Link {
    std::atomic<std::uint32_t> lock{0};
    BookingList bookings;
    Time busy = 0;
    std::uint64_t contention_events = 0;
    Time contention_delay = 0;
  };
  int d_;
  std::atomic<Time> horizon_{0};
  std::vector<Link> links_;
};

}  // namespace hcemu::timing
