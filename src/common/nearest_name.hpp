#pragma once
// The name closest to a misspelt one, for "did you mean" in errors (config keys, kernels, algorithms, presets).
#include <algorithm>
#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace hcemu::detail {

inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The candidate nearest to `unknown` by edit distance, or empty when none is close enough to be a typo: a couple of
// edits, or a third of the word for long names.
inline std::string nearest_name(std::string_view unknown, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::numeric_limits<std::size_t>::max();
  for (const auto& candidate : candidates) {
    std::size_t distance = edit_distance(unknown, candidate);
    if (distance < best_distance) best_distance = distance, best = candidate;
  }
  std::size_t allowed = std::max<std::size_t>(2, unknown.size() / 3);
  return best_distance <= allowed ? best : std::string();
}

// "a, b, c".
inline std::string joined(const std::vector<std::string>& names, std::string_view separator = ", ") {
  std::string text;
  for (const auto& n : names) text += (text.empty() ? "" : std::string(separator)) + n;
  return text;
}

}  // namespace hcemu::detail
