#include "cli/size_range.hpp"

#include <charconv>

#include "cli/cli_error.hpp"
#include "harness/algorithm.hpp"

namespace hcemu::cli {

namespace {
bool parse_number(std::string_view text, std::size_t& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size();
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> pieces;
  std::size_t start = 0;
  for (;;) {
    auto at = text.find(separator, start);
    pieces.push_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return pieces;
    start = at + 1;
  }
}
}  // namespace

std::vector<std::size_t> parse_size_range(const std::string& text, const std::string& option) {
  const auto bad = [&](const std::string& why) { return UsageError(option + " " + text + ": " + why); };
  const auto checked = [&](std::vector<std::size_t> sizes) {
    for (std::size_t m : sizes)
      if (m > harness::kMaxCaseBytes) throw bad("sizes are at most 2^40 bytes (1 TiB)");
    return sizes;
  };
  // A sweep longer than this is surely a typo (and would take hours).
  constexpr std::size_t kMaxPoints = 10000;
  std::vector<std::size_t> sizes;
  if (text.find(':') != std::string::npos) {
    auto parts = split(text, ':');
    std::size_t from = 0, to = 0, step = 0;
    if (parts.size() != 3 || !parse_number(parts[0], from) || !parse_number(parts[1], to) ||
        !parse_number(parts[2], step))
      throw bad("expected FROM:TO:STEP in bytes, like 0:400:16");
    if (from > to) throw bad("FROM must not exceed TO");
    if (step == 0) throw bad("STEP must be at least 1");
    if ((to - from) / step + 1 > kMaxPoints) throw bad("more than 10000 points");
    if (to > harness::kMaxCaseBytes) throw bad("sizes are at most 2^40 bytes (1 TiB)");
    for (std::size_t m = from; m <= to; m += step) sizes.push_back(m);
    return sizes;
  }
  for (auto piece : split(text, ',')) {
    std::size_t m = 0;
    if (!parse_number(piece, m)) throw bad("expected FROM:TO:STEP or a list of sizes in bytes, like 16,64,256");
    sizes.push_back(m);
  }
  return checked(std::move(sizes));
}

}  // namespace hcemu::cli
