#pragma once
// Model time. MODEL.md asks for an exact time type so that the closed-form oracles hold exactly, not
// approximately: every time in hcemu is a whole number of picoseconds.
#include <cmath>
#include <cstdint>
#include <limits>

namespace hcemu {

using Time = std::int64_t;  // picoseconds

inline constexpr Time kPicosPerMicro = 1'000'000;
inline constexpr Time kNever = std::numeric_limits<Time>::max();

// Configs give times in microseconds; they are rounded once, here, to whole picoseconds.
inline Time from_us(double us) { return static_cast<Time>(std::llround(us * static_cast<double>(kPicosPerMicro))); }
inline double to_us(Time t) { return static_cast<double>(t) / static_cast<double>(kPicosPerMicro); }

}  // namespace hcemu
