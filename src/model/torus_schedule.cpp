// The steps of the T1.x family (Suh, Shin & An §3-4, as read in docs/kernels/torus.md) and each node's part in them.
#include <string>

#include "hcemu/errors.hpp"
#include "hcemu/model/torus_exchange.hpp"

namespace hcemu::model {

namespace {

Coordinates mirrored(Coordinates c, TorusAxis axis, int level) {
  return axis == TorusAxis::x ? Coordinates{torus_mirror(c.x, level), c.y} : Coordinates{c.x, torus_mirror(c.y, level)};
}

// Phase p of the exchange phases: every node of A_x exchanges once along x and once along y.
void add_exchange_phase(TorusSchedule& schedule, int p) {
  const int d = schedule.d;
  const int x = schedule.x;
  TorusStep step;
  step.kind = TorusStepKind::exchange;
  step.phase = p;
  step.level = p;
  // Phase x+1, where A_x = G_(x+1)(1) is one group, and phase d = 2 (the 4 x 4 torus, where the wrap-around pairs
  // x <-> 3 - x of every row share no link): the whole active set moves along x, then along y.
  if (p == x + 1 || (p == d && d <= 2)) {
    step.index = 1;
    step.axis = TorusAxis::x;
    schedule.steps.push_back(step);
    step.index = 2;
    step.axis = TorusAxis::y;
    schedule.steps.push_back(step);
    return;
  }
  // Phases x+2..d-1 use the groups G_p, phase d the groups G_(d-1) (§3.2: "the Gs in phase d-1 are also used in
  // phase d"). A_x is the union of the pairs G(2k+1), G(2k+2) with k ≡ 0 (mod 2^x) (for x = 1 the paper's
  // G_p(4i-3), G_p(4i-2)); each pair takes two steps, G(2k+1) moving along x first and G(2k+2) along y first.
  step.group_level = p < d ? p : d - 1;
  const int pairs = 1 << (step.group_level - 2 - x);
  for (int i = 0; i < pairs; ++i) {
    const int k = i << x;
    step.index = 2 * i + 1;
    step.h_group = 2 * k + 1;
    step.v_group = 2 * k + 2;
    schedule.steps.push_back(step);
    step.index = 2 * i + 2;
    step.h_group = 2 * k + 2;
    step.v_group = 2 * k + 1;
    schedule.steps.push_back(step);
  }
}

}  // namespace

TorusSchedule torus_schedule(int d, int x) {
  if (d < 0 || d > 15) throw UsageError("torus exchange: d must be in 0..15, got " + std::to_string(d));
  if (x < 0 || x > torus_max_x(d)) {
    throw UsageError("torus exchange: T1." + std::to_string(x) + " needs 0 <= x <= " + std::to_string(torus_max_x(d)) +
                     " on a 2^" + std::to_string(d) + " x 2^" + std::to_string(d) + " torus");
  }
  TorusSchedule schedule{d, x, {}};
  schedule.steps.reserve(torus_step_count(d, x));
  for (int q = 1; q <= x; ++q) {
    TorusStep split;
    split.kind = TorusStepKind::split;
    split.phase = q;
    split.index = 1;
    split.level = q;
    split.axis = TorusAxis::x;
    schedule.steps.push_back(split);
    TorusStep concentrate = split;
    concentrate.kind = TorusStepKind::concentrate;
    concentrate.index = 2;
    concentrate.axis = TorusAxis::y;
    schedule.steps.push_back(concentrate);
  }
  for (int p = x + 1; p <= d; ++p) add_exchange_phase(schedule, p);
  for (int s = 1; s <= x; ++s) {
    TorusStep scatter;
    scatter.kind = TorusStepKind::scatter;
    scatter.phase = d + 1;
    scatter.index = s;
    scatter.level = x + 1 - s;
    scatter.axis = TorusAxis::x;
    schedule.steps.push_back(scatter);
  }
  return schedule;
}

std::size_t torus_step_count(int d, int x) {
  if (d <= 2) return static_cast<std::size_t>(2 * d);
  return static_cast<std::size_t>(3 * x) + 3 * (std::size_t{1} << (d - 2 - x));
}

TorusAction torus_action(const TorusSchedule& schedule, std::size_t index, Coordinates node) {
  const TorusStep& step = schedule.steps.at(index);
  TorusAction action;
  switch (step.kind) {
    case TorusStepKind::split:
      if (torus_in_active_set(step.level - 1, node)) {
        action = {TorusRole::exchange, mirrored(node, TorusAxis::x, step.level), TorusAxis::x};
      }
      break;
    case TorusStepKind::concentrate: {
      const Coordinates partner = mirrored(node, TorusAxis::y, step.level);
      if (torus_in_active_set(step.level, node)) {
        action = {TorusRole::receive, partner, TorusAxis::y};
      } else if (torus_in_active_set(step.level - 1, node)) {
        action = {TorusRole::send, partner, TorusAxis::y};
      }
      break;
    }
    case TorusStepKind::exchange:
      if (step.group_level == 0) {
        if (torus_in_active_set(schedule.x, node)) {
          action = {TorusRole::exchange, mirrored(node, step.axis, step.level), step.axis};
        }
      } else if (torus_in_group(step.group_level, step.h_group, node)) {
        action = {TorusRole::exchange, mirrored(node, TorusAxis::x, step.level), TorusAxis::x};
      } else if (torus_in_group(step.group_level, step.v_group, node)) {
        action = {TorusRole::exchange, mirrored(node, TorusAxis::y, step.level), TorusAxis::y};
      }
      break;
    case TorusStepKind::scatter: {
      // Send step s: SG_(level+1)(1) sends to its H_level mirror, which lies in SG_(level+1)(2).
      const Coordinates partner = mirrored(node, TorusAxis::x, step.level);
      if (torus_in_group(step.level + 1, 1, node)) {
        action = {TorusRole::send, partner, TorusAxis::x};
      } else if (torus_in_group(step.level + 1, 1, partner)) {
        action = {TorusRole::receive, partner, TorusAxis::x};
      }
      break;
    }
  }
  return action;
}

}  // namespace hcemu::model
