#pragma once
// The intervals one directed link is booked for: sorted, disjoint. Bookings arrive nearly in time order (the
// committer serves transfers by ready time) and are forgotten from the front once no transfer can be ready before
// they end, so one vector with a moving head serves: appends and drops touch no other booking, and the memory is
// reused from booking to booking and from run to run.
#include <algorithm>
#include <cstddef>
#include <vector>

#include "common/allocation.hpp"
#include "hcemu/time.hpp"

namespace hcemu::timing {

struct Booking {
  Time start, end;
  int owner;
};

class BookingList {
 public:
  // The first booking that ends after `t`, or end(). Bookings are disjoint, so their ends are sorted too.
  const Booking* first_ending_after(Time t) const {
    return std::upper_bound(items_.data() + head_, end(), t, [](Time x, const Booking& b) { return x < b.end; });
  }

  bool empty() const { return head_ == items_.size(); }
  // Just past the last booking.
  const Booking* end() const { return items_.data() + items_.size(); }

  // `b` overlaps no booking already here.
  void insert(const Booking& b) {
    if (items_.empty() || items_.back().start <= b.start) {
      items_.push_back(b);
      return;
    }
    auto at = std::upper_bound(items_.begin() + static_cast<std::ptrdiff_t>(head_), items_.end(), b.start,
                               [](Time x, const Booking& y) { return x < y.start; });
    items_.insert(at, b);
  }

  // Forgets the bookings that end by `horizon`.
  void drop_ending_by(Time horizon) {
    while (head_ < items_.size() && items_[head_].end <= horizon) ++head_;
    if (head_ == items_.size()) {
      clear();
    } else if (head_ >= 32 && head_ * 2 >= items_.size()) {  // compact now and then, keeping the capacity
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }

  void clear() {
    items_.clear();
    head_ = 0;
  }

 private:
  std::vector<Booking, detail::Allocator<Booking>> items_;
  std::size_t head_ = 0;  // items_[head_..] are the live bookings
};

}  // namespace hcemu::timing
