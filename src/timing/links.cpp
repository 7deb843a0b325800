#include "timing/links.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <array>

namespace hcemu::timing {

namespace {
// A link is locked only for the few instructions of a booking, and almost never by two threads at once. But with a
// thousand node threads on two cores the holder can be preempted inside, so a waiter spins a little and then
// sleeps on the lock word instead of yielding in a loop. States: 0 free, 1 held, 2 held with sleepers.
void lock(std::atomic<std::uint32_t>& word) {
  for (int spin = 0; spin < 64; ++spin) {
    std::uint32_t expected = 0;
    if (word.compare_exchange_weak(expected, 1, std::memory_order_acquire, std::memory_order_relaxed)) return;
  }
  while (word.exchange(2, std::memory_order_acquire) != 0)
    syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT_PRIVATE, 2u, nullptr, nullptr, 0);
}
void unlock(std::atomic<std::uint32_t>& word) {
  if (word.exchange(0, std::memory_order_release) == 2)
    syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
}
}  // namespace

LinkTable::LinkTable(int d) : d_(d), links_(static_cast<std::size_t>(d) << d) {}

Time LinkTable::book(std::span<const int> route, Time ready, Time duration, int owner) {
  if (route.empty() || duration == 0) return ready;  // nothing to hold
  // Lock in index order so that two routes never wait on each other.
  // At most d <= 13 hops: fixed arrays keep the message path free of allocation.
  std::array<int, 16> order{};
  std::array<Time, 16> delay_by{};
  std::copy(route.begin(), route.end(), order.begin());
  std::sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(route.size()));
  for (std::size_t r = 0; r < route.size(); ++r) lock(links_[static_cast<std::size_t>(order[r])].lock);
  const Time horizon = horizon_.load(std::memory_order_relaxed);
  for (int i : route) links_[static_cast<std::size_t>(i)].bookings.drop_ending_by(horizon);

  Time start = ready;
  for (bool moved = true; moved;) {
    moved = false;
    for (std::size_t r = 0; r < route.size(); ++r) {
      const Booking* it = links_[static_cast<std::size_t>(route[r])].bookings.first_ending_after(start);
      if (it != nullptr && it->start < start + duration) {
        if (it->owner != owner) delay_by[r] += it->end - start;
        start = it->end;
        moved = true;
      }
    }
  }
  for (std::size_t r = 0; r < route.size(); ++r) {
    Link& link = links_[static_cast<std::size_t>(route[r])];
    link.bookings.insert(Booking{start, start + duration, owner});
    link.busy += duration;
    if (delay_by[r] > 0) {
      ++link.contention_events;
      link.contention_delay += delay_by[r];
    }
  }
  for (std::size_t r = 0; r < route.size(); ++r) unlock(links_[static_cast<std::size_t>(order[r])].lock);
  return start;
}

std::vector<LinkStats> LinkTable::stats() const {
  std::vector<LinkStats> out;
  for (std::size_t i = 0; i < links_.size(); ++i) {
    const Link& l = links_[i];
    if (l.busy == 0 && l.contention_events == 0) continue;
    LinkStats s;
    s.from = static_cast<int>(i) / d_;
    s.dim = static_cast<int>(i) % d_;
    s.busy = l.busy;
    s.contention_events = l.contention_events;
    s.contention_delay = l.contention_delay;
    out.push_back(s);
  }
  return out;
}

}  // namespace hcemu::timing
