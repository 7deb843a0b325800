#pragma once
// `-m FROM:TO:STEP` (or a list A,B,C) as a list of message sizes.
#include <cstddef>
#include <string>
#include <vector>

namespace hcemu::cli {

// Throws UsageError naming the option for anything but FROM:TO:STEP with FROM <= TO and STEP >= 1, or a list
// "A,B,C".
std::vector<std::size_t> parse_size_range(const std::string& text, const std::string& option = "-m");

}  // namespace hcemu::cli
