#pragma once
#include <string_view>

namespace hcemu {

// Synchronisation styles of Nicol & Bokhari (1994) §4, an option of every exchange:
// none: post the receives up front and rely on the clocks being in step;
// barrier: post a phase's receives, then a global barrier;
// pairwise: post, barrier, and before each transfer a zero-byte exchange with the partner (their iPSC/860 recipe).
enum class Sync { none, barrier, pairwise };

std::string_view to_string(Sync);
Sync parse_sync(std::string_view);  // throws ConfigError("sync", ...)

}  // namespace hcemu
