#pragma once
// Nicol & Bokhari 1994 §3: the threshold s* below which a span of dimensions is best done in one phase and above
// which in two, and the bounds it puts on the optimal partition (Lemma 1, Corollary 1, Theorem 3). Their model is
// ExchangeParams with direct_shuffle = true and barrier = Q(d) per phase (their eq. 1).
#include <optional>

#include "hcemu/model/hull.hpp"

namespace hcemu::model {

// p_d(x, m), their eq. 1 over a real span x: (2^x - 1)(λ + 2^(d-x)·m·τ + δ) + 2^d·m·ρ + Q(d).
double phase_cost(const ExchangeParams& params, double span, double m);

// Δ_d(s, m) = p_d(s, m) - 2 p_d(s/2, m): the one-phase cost of a span s minus the cost of splitting it evenly.
// Written out: (2^(s/2) - 1)^2 (λ + δ) - 2^d m τ (1 - 2^(-s/2))^2 - 2^d m ρ - Q(d).
double split_gain(const ExchangeParams& params, double span, double m);

// ŝ = d - log2((λ + δ)/(mτ)): spans below it are best done in one phase whatever else holds (their §3); s* >= ŝ.
double one_phase_span(const ExchangeParams& params, double m);

struct SplitThreshold {
  // split_point: s* in [2, d] exists (Lemma 1). direct_optimal: Δ_d(d, m) < 0, no span is worth splitting, the
  // Direct exchange is optimal. standard_optimal: Δ_d(2, m) > 0, every span of 2 is worth splitting, the Standard
  // exchange is optimal.
  enum class Kind { split_point, direct_optimal, standard_optimal };
  Kind kind = Kind::split_point;
  double s_star = 0;  // valid for split_point
};

// The unique root of Δ_d(s, m) = 0 in [2, d] (their Lemma 1), by bisection.
SplitThreshold split_threshold(const ExchangeParams& params, double m);

// Bounds on the optimal partition (Theorem 3 with Corollary 1): its largest part d_max and its number of phases k*.
// From d_i + d_j >= s* for i != j (else merging them is cheaper) and d_i <= ceil(s*) (else splitting is cheaper):
//   ceil(floor(s*)/2) <= d_max <= ceil(s*)   (their eq. 3),
// and, since the optimum is an equipartition with d_max = ceil(d/k*),
//   ceil(d / ceil(s*)) <= k* < d / (ceil(floor(s*)/2) - 1),
// which implies their k* < 2d / (floor(s*) - 2). Outside Lemma 1's range the bounds collapse onto Direct or Standard.
struct PartitionBounds {
  int largest_min = 0, largest_max = 0;
  int phases_min = 0, phases_max = 0;
  SplitThreshold threshold;
};
PartitionBounds theorem3_bounds(const ExchangeParams& params, double m);

}  // namespace hcemu::model
