#pragma once
// Model times within kTimeLimit (time.hpp): additions that say what they computed when they would go past it.
#include <string>

#include "hcemu/errors.hpp"
#include "hcemu/time.hpp"

namespace hcemu::timing {

// Products of a time and a count, wide enough never to overflow before they are compared with the range.
__extension__ typedef __int128 WideTime;

[[noreturn]] inline void time_overflow(const std::string& what) {
  throw TimeOverflow(what + " would pass the model's range of 2^62 ps (about 53 days of model time)");
}

// a + b for times already within range (so the sum cannot overflow); throws TimeOverflow naming `what` past it.
inline Time add_time(Time a, Time b, const char* what) {
  const Time sum = a + b;
  if (sum > kTimeLimit) time_overflow(what);
  return sum;
}

// a * b for a time a and a count b; throws TimeOverflow naming `what` past the range.
inline Time scale_time(Time a, unsigned long long b, const char* what) {
  const WideTime product = static_cast<WideTime>(a) * b;
  if (product > kTimeLimit) time_overflow(what);
  return static_cast<Time>(product);
}

}  // namespace hcemu::timing
