// Which blocks every node of the T1.x family holds between steps, and so what each message carries. The rules are
// docs/kernels/torus.md's reading of Suh, Shin & An §3-4; each step changes one node's holdings as follows.
//   split (phase q <= x, H_q):   sources' x window doubles to 2^q; destinations' y narrows to own_q around t_y,
//                                t = the node if it stays active (A_q), else its V_q mirror, which will hold its data;
//   concentrate (phase q, V_q):  the sender gives away everything; the receiver's sources' y window doubles to 2^q;
//   exchange H_p (p > x):        sources' x window doubles to 2^p; destinations' x narrows to own_(p-x) of x >> x
//                                (the low x bits of the destination's x are left to the send phase);
//   exchange V_p (p > x):        sources' y window doubles to 2^p; destinations' y narrows to own_p;
//   send step s (H_(x+1-s)):     the destinations' x window 2^(x+1-s) of the sender splits in two halves, the
//                                receiver taking the half around its own x, with every source.
// What a message carries is then what the sender holds before the step and the receiver holds after it.
#include <algorithm>
#include <string>

#include "hcemu/errors.hpp"
#include "hcemu/model/torus_exchange.hpp"

namespace hcemu::model {

// ----- TorusAxisSet -------------------------------------------------------------------------------------------

bool TorusAxisSet::contains(int z) const {
  const int n = d - shift;
  const int a = z >> shift;
  const int b = ref >> shift;
  if (level >= n) return a == b;
  const int mask = (1 << (level + 1)) - 1;
  const int r = (a ^ b) & mask;
  return r == 0 || r == mask;
}

int TorusAxisSet::size() const {
  const int n = d - shift;
  return level >= n ? 1 << shift : (1 << (n - level)) << shift;
}

int TorusAxisSet::rank(int z) const {
  const int n = d - shift;
  const int low = z & ((1 << shift) - 1);
  if (level >= n) return low;
  // The members' coarse values a = (hi, low level+1 bits); the low bits take two values, b's and its complement.
  const int mask = (1 << (level + 1)) - 1;
  const int a = z >> shift;
  const int b_low = (ref >> shift) & mask;
  const int smaller = std::min(b_low, b_low ^ mask);
  const int index = ((a >> (level + 1)) << 1) | ((a & mask) == smaller ? 0 : 1);
  return (index << shift) | low;
}

int TorusAxisSet::element(int i) const {
  const int n = d - shift;
  const int low = i & ((1 << shift) - 1);
  const int j = i >> shift;
  if (level >= n) return ((ref >> shift) << shift) | low;
  const int mask = (1 << (level + 1)) - 1;
  const int b_low = (ref >> shift) & mask;
  const int pick = (j & 1) == 0 ? std::min(b_low, b_low ^ mask) : std::max(b_low, b_low ^ mask);
  const int a = ((j >> 1) << (level + 1)) | pick;
  return (a << shift) | low;
}

// ----- TorusBlockSet ------------------------------------------------------------------------------------------

std::size_t TorusBlockSet::size() const {
  if (empty) return 0;
  return static_cast<std::size_t>(sx.size()) * static_cast<std::size_t>(sy.size()) *
         static_cast<std::size_t>(dx.size()) * static_cast<std::size_t>(dy.size());
}

bool TorusBlockSet::contains(Coordinates source, Coordinates dest) const {
  return !empty && sx.contains(source.x) && sy.contains(source.y) && dx.contains(dest.x) && dy.contains(dest.y);
}

std::size_t TorusBlockSet::rank(Coordinates source, Coordinates dest) const {
  std::size_t r = static_cast<std::size_t>(dy.rank(dest.y));
  r = r * static_cast<std::size_t>(dx.size()) + static_cast<std::size_t>(dx.rank(dest.x));
  r = r * static_cast<std::size_t>(sy.size()) + static_cast<std::size_t>(sy.rank(source.y));
  r = r * static_cast<std::size_t>(sx.size()) + static_cast<std::size_t>(sx.rank(source.x));
  return r;
}

TorusBlockSet::Block TorusBlockSet::block(std::size_t i) const {
  Block b;
  const auto take = [&i](const TorusAxisSet& axis) {
    const auto n = static_cast<std::size_t>(axis.size());
    const int v = axis.element(static_cast<int>(i % n));
    i /= n;
    return v;
  };
  b.source.x = take(sx);
  b.source.y = take(sy);
  b.dest.x = take(dx);
  b.dest.y = take(dy);
  return b;
}

namespace {

// Sets of one axis in this schedule are nested or disjoint (windows are aligned; the own_l sets of one shift refine
// one another as l grows, and a window of 2^j <= 2^x lies inside one coarse class of shift x), so the smaller is
// the intersection when its reference lies in the larger, and otherwise they do not meet.
bool intersect_axis(const TorusAxisSet& a, const TorusAxisSet& b, TorusAxisSet& out) {
  if (a.size() <= b.size()) {
    out = a;
    return b.contains(a.ref);
  }
  out = b;
  return a.contains(b.ref);
}

TorusBlockSet initial_holdings(int d, int x, Coordinates node) {
  TorusBlockSet h;
  h.empty = false;
  h.sx = TorusAxisSet::window(d, 0, node.x);
  h.sy = TorusAxisSet::window(d, 0, node.y);
  h.dx = TorusAxisSet::own(d, 0, node.x, x);  // every x; its low x bits are left to the send phase
  h.dy = TorusAxisSet::all(d);
  return h;
}

// The holdings of `node` after step `index`, from those before it.
TorusBlockSet advance(const TorusSchedule& schedule, std::size_t index, Coordinates node, TorusBlockSet h) {
  const int d = schedule.d;
  const int x = schedule.x;
  const TorusStep& step = schedule.steps[index];
  const TorusAction action = torus_action(schedule, index, node);
  if (action.role == TorusRole::idle) return h;
  const int p = step.level;
  switch (step.kind) {
    case TorusStepKind::split: {
      // The node resolves the y level q for the node that will hold its data after the concentration.
      const Coordinates target = torus_in_active_set(p, node) ? node : Coordinates{node.x, torus_mirror(node.y, p)};
      h.sx = TorusAxisSet::window(d, p, node.x);
      h.dy = TorusAxisSet::own(d, p, target.y);
      return h;
    }
    case TorusStepKind::concentrate:
      if (action.role == TorusRole::send) return TorusBlockSet{};
      h.sy = TorusAxisSet::window(d, p, node.y);
      return h;
    case TorusStepKind::exchange:
      if (action.axis == TorusAxis::x) {
        h.sx = TorusAxisSet::window(d, p, node.x);
        h.dx = TorusAxisSet::own(d, p - x, node.x, x);
      } else {
        h.sy = TorusAxisSet::window(d, p, node.y);
        h.dy = TorusAxisSet::own(d, p, node.y);
      }
      return h;
    case TorusStepKind::scatter:
      if (action.role == TorusRole::receive) {
        h.empty = false;
        h.sx = TorusAxisSet::all(d);
        h.sy = TorusAxisSet::all(d);
        h.dy = TorusAxisSet::window(d, 0, node.y);
      }
      h.dx = TorusAxisSet::window(d, p - 1, node.x);
      return h;
  }
  return h;
}

}  // namespace

TorusBlockSet intersect(const TorusBlockSet& a, const TorusBlockSet& b) {
  TorusBlockSet out;
  if (a.empty || b.empty) return out;
  out.empty = !(intersect_axis(a.sx, b.sx, out.sx) && intersect_axis(a.sy, b.sy, out.sy) &&
                intersect_axis(a.dx, b.dx, out.dx) && intersect_axis(a.dy, b.dy, out.dy));
  return out;
}

TorusBlockSet torus_holdings(const TorusSchedule& schedule, std::size_t steps_done, Coordinates node) {
  if (steps_done > schedule.steps.size()) {
    throw UsageError("torus_holdings: the schedule has " + std::to_string(schedule.steps.size()) + " steps, not " +
                     std::to_string(steps_done));
  }
  TorusBlockSet h = initial_holdings(schedule.d, schedule.x, node);
  for (std::size_t k = 0; k < steps_done; ++k) h = advance(schedule, k, node, h);
  return h;
}

TorusBlockSet torus_transfer(const TorusSchedule& schedule, std::size_t step, Coordinates from, Coordinates to) {
  return intersect(torus_holdings(schedule, step, from), torus_holdings(schedule, step + 1, to));
}

std::size_t torus_step_blocks(const TorusSchedule& schedule, std::size_t index) {
  const TorusStep& step = schedule.steps.at(index);
  const std::size_t half = std::size_t{1} << (2 * schedule.d - 1);  // U: half of a node's 2^(2d) blocks
  switch (step.kind) {
    case TorusStepKind::split: return half << (step.level - 1);
    case TorusStepKind::concentrate: return half << step.level;
    case TorusStepKind::exchange: return half << schedule.x;
    case TorusStepKind::scatter: return half << step.level;  // level = x + 1 - s
  }
  return 0;
}

int torus_step_hops(const TorusSchedule& schedule, std::size_t index) {
  const int p = schedule.steps.at(index).level;
  const int d = schedule.d;
  return p < d ? (1 << p) - 1 : std::max(1, (1 << (d - 1)) - 1);
}

}  // namespace hcemu::model
