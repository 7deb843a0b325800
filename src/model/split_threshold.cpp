#include "hcemu/model/split_threshold.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hcemu::model {

double phase_cost(const ExchangeParams& params, double span, double m) {
  return (std::exp2(span) - 1) * (params.lambda + std::exp2(params.d - span) * m * params.tau + params.delta) +
         std::ldexp(m * params.rho, params.d) + params.barrier;
}

double split_gain(const ExchangeParams& params, double span, double m) {
  return phase_cost(params, span, m) - 2 * phase_cost(params, span / 2, m);
}

double one_phase_span(const ExchangeParams& params, double m) {
  const double transfer = m * params.tau;
  if (transfer <= 0) return -std::numeric_limits<double>::infinity();
  return params.d - std::log2((params.lambda + params.delta) / transfer);
}

SplitThreshold split_threshold(const ExchangeParams& params, double m) {
  using Kind = SplitThreshold::Kind;
  const double d = params.d;
  if (params.d < 2) return {Kind::direct_optimal, 0};
  // Nicol & Bokhari 1994 Lemma 1. With u = 2^(s/2), Δ = (u-1)^2 (λ+δ - 2^d m τ / u^2) - (2^d m ρ + Q): it falls
  // and then rises in u, starting from -(2^d m ρ + Q) <= 0, so it changes sign at most once, upwards, at s*.
  if (split_gain(params, 2, m) > 0) return {Kind::standard_optimal, 0};
  if (split_gain(params, d, m) < 0) return {Kind::direct_optimal, 0};
  double lo = 2, hi = d;  // split_gain(lo) <= 0 <= split_gain(hi)
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = (lo + hi) / 2;
    if (split_gain(params, mid, m) <= 0) lo = mid; else hi = mid;
  }
  return {Kind::split_point, (lo + hi) / 2};
}

PartitionBounds theorem3_bounds(const ExchangeParams& params, double m) {
  PartitionBounds bounds;
  bounds.threshold = split_threshold(params, m);
  const int d = params.d;
  switch (bounds.threshold.kind) {
    case SplitThreshold::Kind::direct_optimal:
      bounds.largest_min = bounds.largest_max = d;
      bounds.phases_min = bounds.phases_max = std::min(d, 1);
      return bounds;
    case SplitThreshold::Kind::standard_optimal:
      bounds.largest_min = bounds.largest_max = 1;
      bounds.phases_min = bounds.phases_max = d;
      return bounds;
    case SplitThreshold::Kind::split_point: break;
  }
  const double s = bounds.threshold.s_star;
  const int floor_s = static_cast<int>(std::floor(s));
  const int ceil_s = static_cast<int>(std::ceil(s));
  // Corollary 1 / eq. 3: floor(s*)/2 <= d_max <= ceil(s*).
  bounds.largest_min = std::clamp((floor_s + 1) / 2, 1, d);
  bounds.largest_max = std::clamp(ceil_s, 1, d);
  // d_max = ceil(d/k*) for an equipartition: d_max <= U gives k* >= d/U; d_max >= L gives k* < d/(L-1).
  bounds.phases_min = std::clamp((d + bounds.largest_max - 1) / bounds.largest_max, 1, d);
  const int below = bounds.largest_min - 1;
  bounds.phases_max = below >= 1 ? std::clamp((d + below - 1) / below - 1, 1, d) : d;
  return bounds;
}

}  // namespace hcemu::model
