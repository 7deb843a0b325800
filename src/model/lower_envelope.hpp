#pragma once
// The lower envelope over m >= 0 of a set of lines, shared by Bokhari's hull in real numbers (hull.cpp) and the
// planner's hull in exact picoseconds (planner.cpp). Comparisons cross-multiply in a wider type, so that with
// integer lines every decision, including the exact ties at a vertex, is exact.
#include <algorithm>
#include <cstddef>
#include <numeric>
#include <type_traits>
#include <vector>

namespace hcemu::model::detail {

__extension__ using Int128 = __int128;

template <class Num>
using Wide = std::conditional_t<std::is_floating_point_v<Num>, long double, Int128>;

template <class Num>
struct Line {
  Num slope{};
  Num intercept{};
};

// Does line r cross p at or before q does (p having the largest slope of the three)? That is,
// (r.b - p.b) / (p.s - r.s) <= (q.b - p.b) / (p.s - q.s), both denominators positive.
template <class Num>
bool crosses_no_later(const Line<Num>& p, const Line<Num>& q, const Line<Num>& r) {
  using W = Wide<Num>;
  return (W(r.intercept) - W(p.intercept)) * (W(p.slope) - W(q.slope)) <=
         (W(q.intercept) - W(p.intercept)) * (W(p.slope) - W(r.slope));
}

// Indices of the lines that form the lower envelope over m >= 0, in order of increasing m (decreasing slope). Each
// face has positive width: a line through a vertex of the envelope is not a face. `lines` are in order of
// preference: among lines equal everywhere, and among lines tied at m = 0 with equal slope, the earlier one wins.
template <class Num>
std::vector<std::size_t> lower_envelope(const std::vector<Line<Num>>& lines) {
  if (lines.empty()) return {};
  std::vector<std::size_t> order(lines.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  // At m = 0 the lowest intercept is optimal; of those, the smallest slope stays optimal just after 0.
  const std::size_t first = *std::min_element(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (lines[a].intercept != lines[b].intercept) return lines[a].intercept < lines[b].intercept;
    if (lines[a].slope != lines[b].slope) return lines[a].slope < lines[b].slope;
    return a < b;
  });
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (lines[a].slope != lines[b].slope) return lines[a].slope > lines[b].slope;
    return lines[a].intercept < lines[b].intercept;
  });
  std::vector<std::size_t> hull{first};
  const Num* last_slope = &lines[first].slope;
  for (std::size_t r : order) {
    if (!(lines[r].slope < *last_slope)) continue;  // steeper than the envelope so far, or parallel and not lower
    last_slope = &lines[r].slope;
    while (hull.size() >= 2 && crosses_no_later(lines[hull[hull.size() - 2]], lines[hull.back()], lines[r])) {
      hull.pop_back();
    }
    hull.push_back(r);
  }
  return hull;
}

// How many of the envelope's breakpoints lie at or below m, i.e. the index of the face optimal at m (the face with
// the smaller slope at a breakpoint), by binary search.
template <class Num>
std::size_t face_index_at(const std::vector<Line<Num>>& faces, Num m) {
  using W = Wide<Num>;
  // Breakpoint i (between faces i and i+1) is at or below m iff b[i+1] - b[i] <= m (s[i] - s[i+1]); true for a
  // prefix of i, as breakpoints increase.
  std::size_t lo = 0, hi = faces.empty() ? 0 : faces.size() - 1;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    const bool at_or_below = W(faces[mid + 1].intercept) - W(faces[mid].intercept) <=
                             W(m) * (W(faces[mid].slope) - W(faces[mid + 1].slope));
    if (at_or_below) lo = mid + 1; else hi = mid;
  }
  return lo;
}

}  // namespace hcemu::model::detail
