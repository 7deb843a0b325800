#pragma once
// Suh, Shin & An's configurable complete exchange on a 2^d x 2^d torus (T2, T1.1, T1.x, T1): the mirror operator,
// the node groups, each algorithm's steps, and which blocks every node holds and sends at every step. Pure functions,
// no runtime. docs/kernels/torus.md states the reading of the paper they implement, and why.
//
// The family. All four algorithms are one schedule with a parameter x, the number of "concentration" phases:
//   phases q = 1..x      step 1: the active nodes A_(q-1) exchange with their H_q mirror (a split exchange);
//                        step 2: the nodes of A_(q-1) outside A_q send everything to their V_q mirror, in A_q;
//   phases p = x+1..d    the nodes of A_x exchange once along x (H_p) and once along y (V_p), in turns by group:
//                        2 steps in phase x+1, 2^(p-1-x) in phase p <= d-1, 2^(d-2-x) in phase d;
//   send phase s = 1..x  the nodes of SG_(x+2-s)(1) send to their H_(x+1-s) mirror the blocks of its half
//                        (a binomial scatter along x).
// A_0 is every node and A_q = SG_(q+1)(1) (a fraction 2^-q of the nodes). x = 0 is T2 (Suh, Shin & An §3.2),
// x = 1 is T1.1 (§4.1), x = d - 3 is T1 (§3.1), other x the T1.x of §4.2 as we read it. Steps:
// 3x + 3·2^(d-2-x) for d >= 3, 2d for d <= 2.
//
// Coordinates are (x, y) with 0 <= x, y < 2^d; node id = y·2^d + x (TorusShape::square(d)).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hcemu/model/torus.hpp"

namespace hcemu::model {

// μ_p: the mirror image of v inside its aligned block of 2^p values, i.e. v with its low p bits complemented
// (Suh, Shin & An §3: the partner strings with overlined low bits). H_p mirrors x, V_p mirrors y.
constexpr int torus_mirror(int v, int level) { return v ^ ((1 << level) - 1); }

// Node group G_p(j) of Suh, Shin & An §3.2, p >= 2, 1 <= j <= 2^(p-1); G_p(1) and G_p(2) are T1's special groups
// SG_p(1) (the two main diagonals of every 2^p x 2^p submesh) and SG_p(2) (the main diagonals of its quadrants,
// less SG_p(1)). G_p(2) is read with x + y ≡ 2^(p-1) - 1 (mod 2^p): the printed 2^p - 1 would repeat G_p(1).
// The 2^(p-1) groups partition the torus.
bool torus_in_group(int p, int j, Coordinates c);
// The j with c in G_p(j).
int torus_group_of(int p, Coordinates c);
// A_q: every node for q = 0, SG_(q+1)(1) for q >= 1: the nodes that hold data after q concentration phases.
bool torus_in_active_set(int q, Coordinates c);

// The largest x the family allows on a 2^d x 2^d torus: d - 3 for d >= 3 (T1), else 0 (T1 = T2 for d <= 3).
int torus_max_x(int d);

enum class TorusStepKind : std::uint8_t { split, concentrate, exchange, scatter };
enum class TorusAxis : std::uint8_t { x, y };

struct TorusStep {
  TorusStepKind kind = TorusStepKind::exchange;
  int phase = 1;  // 1..d: the exchange phases; d + 1: the send phase
  int index = 1;  // 1-based, within the phase
  int level = 1;  // every transfer of the step goes to the node's μ_level mirror
  // Exchange steps: the nodes of G_group_level(h_group) move along x (H_level), those of G_group_level(v_group)
  // along y (V_level). group_level = 0: every node of the active set A_x moves along `axis`.
  int group_level = 0;
  int h_group = 0;
  int v_group = 0;
  TorusAxis axis = TorusAxis::x;
};

struct TorusSchedule {
  int d = 0;  // the torus is 2^d x 2^d
  int x = 0;  // concentration phases: 0 = T2, 1 = T1.1, torus_max_x(d) = T1
  std::vector<TorusStep> steps;
};

// Throws UsageError unless 0 <= d <= 15 and 0 <= x <= torus_max_x(d).
TorusSchedule torus_schedule(int d, int x);
inline TorusSchedule torus_t1_schedule(int d) { return torus_schedule(d, torus_max_x(d)); }
inline TorusSchedule torus_t2_schedule(int d) { return torus_schedule(d, 0); }

// Step counts in closed form (the number of start-ups of Suh, Shin & An's model).
std::size_t torus_step_count(int d, int x);

enum class TorusRole : std::uint8_t { idle, exchange, send, receive };

// What one node does in one step: exchange with, send to or receive from `partner`, along `axis`.
struct TorusAction {
  TorusRole role = TorusRole::idle;
  Coordinates partner;
  TorusAxis axis = TorusAxis::x;
};

TorusAction torus_action(const TorusSchedule& schedule, std::size_t step, Coordinates node);

// ----- Blocks ---------------------------------------------------------------------------------------------------

// A set of coordinates on one axis of the 2^d ring, {z : own_level(z >> shift, ref >> shift)} on n = d - shift
// bits, where own_l(a, b) says that the low l + 1 bits of a XOR b are all 0 or all 1 (l < n), or a = b (l >= n).
// level 0 is the whole axis; an aligned window of 2^k values is shift k, level d - k. Enumerated in increasing order.
struct TorusAxisSet {
  int d = 0;
  int shift = 0;
  int level = 0;
  int ref = 0;

  static TorusAxisSet all(int d) { return {d, 0, 0, 0}; }
  static TorusAxisSet window(int d, int log_size, int c) { return {d, log_size, d - log_size, c}; }
  static TorusAxisSet own(int d, int level, int c, int shift = 0) { return {d, shift, level, c}; }

  bool contains(int z) const;
  int size() const;
  int rank(int z) const;      // z's position in increasing order; z must be a member
  int element(int i) const;   // the i-th member in increasing order
};

// The blocks (source, destination) with source in sx x sy and destination in dx x dy, or none.
// Canonical order: by destination y, destination x, source y, source x (the last fastest); a message carries its
// blocks in this order, so the receiver knows which block is which without any header.
struct TorusBlockSet {
  bool empty = true;
  TorusAxisSet sx, sy, dx, dy;

  struct Block {
    Coordinates source;
    Coordinates dest;
  };

  std::size_t size() const;
  bool contains(Coordinates source, Coordinates dest) const;
  std::size_t rank(Coordinates source, Coordinates dest) const;  // must be a member
  Block block(std::size_t i) const;
};

// The intersection of two block sets whose axis sets are each nested or disjoint (as every set of the schedule is).
TorusBlockSet intersect(const TorusBlockSet& a, const TorusBlockSet& b);

// The blocks `node` holds after the first `steps_done` steps. Before any step a node holds its own 2^(2d) blocks
// (source itself, every destination); after the last it holds the 2^(2d) blocks addressed to it.
TorusBlockSet torus_holdings(const TorusSchedule& schedule, std::size_t steps_done, Coordinates node);

// The blocks `from` sends `to` in step `step` (0-based): what `from` holds before it that `to` holds after it.
TorusBlockSet torus_transfer(const TorusSchedule& schedule, std::size_t step, Coordinates from, Coordinates to);

// The number of blocks in every message of step `step` (they are all the same size), in closed form; with
// U = 2^(2d-1): 2^(q-1)·U for the split of phase q, 2^q·U for its concentration, 2^x·U for the exchange steps
// and 2^(x+1-s)·U for send step s.
std::size_t torus_step_blocks(const TorusSchedule& schedule, std::size_t step);

// The longest route (hops) of the transfers of step `step` on the 2^d x 2^d torus: 2^p - 1 for a μ_p step with
// p < d (the ends of a row or column of a 2^p submesh: a transfer never leaves its submesh), and 2^(d-1) - 1 for
// phase d, whose pairs go the shorter way round (1 on the 2 x 2 torus). Every step has a pair that far (tested).
int torus_step_hops(const TorusSchedule& schedule, std::size_t step);

}  // namespace hcemu::model
