#pragma once
// Model time. The model needs an exact time type so that the closed-form oracles (docs/model.md §9) hold exactly,
// not approximately: every time in hcemu is a whole number of picoseconds.
#include <cmath>
#include <cstdint>
#include <limits>

namespace hcemu {

using Time = std::int64_t;  // picoseconds

inline constexpr Time kPicosPerMicro = 1'000'000;
inline constexpr Time kNever = std::numeric_limits<Time>::max();
// The model's range: every time a run computes stays below 2^62 ps (about 53 days), so that adding two of them cannot
// overflow; a run that would go past it stops with a TimeOverflow error naming the quantity.
inline constexpr Time kTimeLimit = Time{1} << 62;

// Configs give times in microseconds; they are rounded once, here, to whole picoseconds.
inline Time from_us(double us) { return static_cast<Time>(std::llround(us * static_cast<double>(kPicosPerMicro))); }
inline double to_us(Time t) { return static_cast<double>(t) / static_cast<double>(kPicosPerMicro); }

}  // namespace hcemu
