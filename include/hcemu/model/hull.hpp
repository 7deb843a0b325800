#pragma once
// Bokhari's hull of optimality (Bokhari 1993 §3): every multiphase exchange's time is a line in the block size m;
// only equipartitions can be optimal (Theorem 1), and the lower envelope of their lines over m >= 0 has Θ(√d) faces
// that can be found in Θ(√d) time (§3.5). This header is the theory in real numbers, for any d up to 64: Bokhari's
// parameters (Table 1) plus Nicol & Bokhari's barrier per phase. The planner (planner.hpp) runs the same
// construction on the emulator's exact picosecond costs.
#include <vector>

#include "hcemu/model/partitions.hpp"

namespace hcemu::model {

// Bokhari 1993 Table 1, in any one time unit (the planner uses microseconds): λ start-up, δ distance impact per
// message (Nicol & Bokhari's average δ), τ per byte, ρ per byte permuted; and Nicol & Bokhari 1994's Q(d), paid
// once per phase (0 in Bokhari 1993).
struct ExchangeParams {
  int d = 0;
  double lambda = 0;
  double delta = 0;
  double tau = 0;
  double rho = 0;
  double barrier = 0;
  // Bokhari 1993 §2.3 keeps the Direct exchange's (identity) shuffle in the analysis "in the interest of
  // simplicity", and Nicol & Bokhari 1994 eq. 1 does too; the emulator's Direct exchange does not shuffle.
  bool direct_shuffle = true;
};

// time = slope * m + intercept.
struct CostLine {
  double slope = 0;
  double intercept = 0;
  double at(double m) const { return slope * m + intercept; }
  friend bool operator==(const CostLine&, const CostLine&) = default;
};

// t_{d,a}: one phase spanning a dimensions (Bokhari 1993 eq. 2, one term; Nicol & Bokhari 1994 eq. 1):
// [(1 - 2^-a)τ + ρ] 2^d m + (2^a - 1)(λ + δ) + Q.
CostLine phase_line(const ExchangeParams& params, int part);

// A whole partition of n parts (Bokhari 1993 eq. 6; eq. 7 for an equipartition):
// [(n - 2^-A)τ + nρ] 2^d m + (2^A - n)(λ + δ) + nQ, less 2^d·m·ρ for {d} when !direct_shuffle.
CostLine partition_line(const ExchangeParams& params, const Partition& partition);

// One face of the hull: `partition` is optimal for m in [m_from, m_to] (m_to is +infinity for the last face).
struct HullFace {
  Partition partition;
  CostLine line;
  double m_from = 0;
  double m_to = 0;
};

struct Hull {
  int d = 0;
  std::vector<HullFace> faces;     // by increasing m: most phases (Standard) first, Direct last
  std::vector<double> breakpoints;  // breakpoints[i] = where faces[i] hands over to faces[i + 1]

  // The optimal face for block size m >= 0, by binary search over the breakpoints (Bokhari 1993 §3.5: Θ(log d)).
  // At a breakpoint both faces are optimal; the one with fewer phases is returned.
  const HullFace& face_at(double m) const;
};

// The cardinalities n whose equipartitions E(d, n) can contribute a face (Bokhari 1993 §3.5): every n <= floor(√d),
// and for each Ω = 1..floor(√d) the two ends ceil(d/(Ω+1)) and floor(d/Ω) of the run of "indistinct"
// equipartitions made of Ω's and (Ω+1)'s, whose middle members pass through the ends' crossing (Theorem 3).
// Ascending, at most 3·floor(√d) of them.
std::vector<int> hull_candidates(int d);

// The hull of optimality in Θ(√d): the lower envelope over m >= 0 of the candidates' lines.
Hull build_hull(const ExchangeParams& params);

// The lower envelope of any set of partitions of params.d (for checking the theorems by brute force). Among lines
// that tie everywhere, the preferred() partition is kept.
Hull build_hull(const ExchangeParams& params, std::vector<Partition> candidates);

}  // namespace hcemu::model
