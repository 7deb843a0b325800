#pragma once
// The intervals one directed link is booked for: sorted, disjoint, kept in small sorted chunks so that a booking
// made out of model-time order (node threads run at their own pace) is inserted in O(chunk) rather than by moving
// every later booking, which matters because it happens under the link's lock.
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
  // The first booking that ends after `t`, or nullptr. Bookings are disjoint, so their ends are sorted too.
  const Booking* first_ending_after(Time t) const {
    auto chunk = std::upper_bound(chunks_.begin(), chunks_.end(), t,
                                  [](Time x, const Chunk& c) { return x < c.back().end; });
    if (chunk == chunks_.end()) return nullptr;
    return &*std::upper_bound(chunk->begin(), chunk->end(), t, [](Time x, const Booking& b) { return x < b.end; });
  }

  // `b` overlaps no booking already here.
  void insert(const Booking& b) {
    if (chunks_.empty()) {
      chunks_.emplace_back().reserve(2 * kChunk);
      chunks_.back().push_back(b);
      return;
    }
    auto chunk = std::upper_bound(chunks_.begin(), chunks_.end(), b.start,
                                  [](Time x, const Chunk& c) { return x < c.back().start; });
    if (chunk == chunks_.end()) --chunk;  // after every booking: the last chunk
    chunk->insert(std::upper_bound(chunk->begin(), chunk->end(), b.start,
                                   [](Time x, const Booking& y) { return x < y.start; }),
                  b);
    if (chunk->size() == 2 * kChunk) {  // split in two halves
      Chunk upper(chunk->begin() + kChunk, chunk->end());
      upper.reserve(2 * kChunk);
      chunk->resize(kChunk);
      chunks_.insert(chunk + 1, std::move(upper));
    }
  }

  // Forgets the bookings that end by `horizon`.
  void drop_ending_by(Time horizon) {
    std::size_t whole = 0;
    while (whole < chunks_.size() && chunks_[whole].back().end <= horizon) ++whole;
    if (whole > 0) chunks_.erase(chunks_.begin(), chunks_.begin() + static_cast<std::ptrdiff_t>(whole));
    if (!chunks_.empty()) {
      Chunk& first = chunks_.front();
      auto keep = std::upper_bound(first.begin(), first.end(), horizon, [](Time x, const Booking& b) { return x < b.end; });
      first.erase(first.begin(), keep);
    }
  }

 private:
  static constexpr std::size_t kChunk = 32;
  using Chunk = std::vector<Booking, detail::Allocator<Booking>>;
  std::vector<Chunk, detail::Allocator<Chunk>> chunks_;  // each non-empty, in order
};

}  // namespace hcemu::timing
