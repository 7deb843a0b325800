#include "hcemu/model/hull.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "hcemu/errors.hpp"
#include "hcemu/model/exchange.hpp"
#include "lower_envelope.hpp"

namespace hcemu::model {

CostLine phase_line(const ExchangeParams& params, int part) {
  const double cube = std::ldexp(1.0, params.d);
  return {((1 - std::ldexp(1.0, -part)) * params.tau + params.rho) * cube,
          (std::ldexp(1.0, part) - 1) * (params.lambda + params.delta) + params.barrier};
}

CostLine partition_line(const ExchangeParams& params, const Partition& partition) {
  const double n = static_cast<double>(partition.size());
  const double cube = std::ldexp(1.0, params.d);
  CostLine line{((n - inverse_power_sum(partition)) * params.tau + n * params.rho) * cube,
                (power_sum(partition) - n) * (params.lambda + params.delta) + n * params.barrier};
  if (partition.size() == 1 && !params.direct_shuffle) line.slope -= params.rho * cube;
  return line;
}

const HullFace& Hull::face_at(double m) const {
  if (faces.empty()) throw UsageError("Hull::face_at: the hull of a 0-cube has no faces");
  // faces[i] is optimal from breakpoints[i-1] to breakpoints[i]; at a breakpoint, the later face (fewer phases).
  const auto index = std::upper_bound(breakpoints.begin(), breakpoints.end(), m) - breakpoints.begin();
  return faces[static_cast<std::size_t>(index)];
}

std::vector<int> hull_candidates(int d) {
  if (d < 0) throw UsageError("hull_candidates: d must be >= 0, got " + std::to_string(d));
  std::vector<int> n;
  int root = 0;
  while ((root + 1) * (root + 1) <= d) ++root;
  // Bokhari 1993 §3.5: below √d consecutive equipartitions share no element, each is its own face candidate.
  for (int i = 1; i <= root; ++i) n.push_back(i);
  // Above √d, E(d, n) is made of Ω = floor(d/n) and Ω + 1, with Ω < √d. For a fixed Ω the run
  // n = ceil(d/(Ω+1)) .. floor(d/Ω) has times affine in n (Theorem 3: t(E(d,p+1)) + t(E(d,p-1)) = 2 t(E(d,p))),
  // so only its two ends can be strictly below the rest.
  for (int omega = 1; omega <= root; ++omega) {
    const int first = (d + omega) / (omega + 1), last = d / omega;
    if (first > last) continue;
    n.push_back(first);
    n.push_back(last);
  }
  std::sort(n.begin(), n.end());
  n.erase(std::unique(n.begin(), n.end()), n.end());
  return n;
}

namespace {
// The envelope of candidates given in order of preference.
Hull envelope_of(const ExchangeParams& params, const std::vector<Partition>& candidates) {
  std::vector<CostLine> lines;
  std::vector<detail::Line<double>> envelope_lines;
  lines.reserve(candidates.size());
  envelope_lines.reserve(candidates.size());
  for (const Partition& p : candidates) {
    lines.push_back(partition_line(params, p));
    envelope_lines.push_back({lines.back().slope, lines.back().intercept});
  }
  Hull hull;
  hull.d = params.d;
  const std::vector<std::size_t> faces = detail::lower_envelope(envelope_lines);
  for (std::size_t i = 0; i < faces.size(); ++i) {
    const CostLine& line = lines[faces[i]];
    HullFace face{candidates[faces[i]], line, hull.breakpoints.empty() ? 0.0 : hull.breakpoints.back(),
                  std::numeric_limits<double>::infinity()};
    if (i + 1 < faces.size()) {
      const CostLine& next = lines[faces[i + 1]];
      hull.breakpoints.push_back((next.intercept - line.intercept) / (line.slope - next.slope));
      face.m_to = hull.breakpoints.back();
    }
    hull.faces.push_back(std::move(face));
  }
  return hull;
}
}  // namespace

Hull build_hull(const ExchangeParams& params, std::vector<Partition> candidates) {
  for (const Partition& p : candidates) check_partition(params.d, p);
  std::stable_sort(candidates.begin(), candidates.end(), preferred);
  return envelope_of(params, candidates);
}

Hull build_hull(const ExchangeParams& params) {
  std::vector<Partition> candidates;
  for (int n : hull_candidates(params.d)) candidates.push_back(equipartition(params.d, n));
  return envelope_of(params, candidates);  // by increasing n: fewest phases, the preferred, first
}

}  // namespace hcemu::model
