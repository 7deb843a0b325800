#pragma once
// Partitions of the cube dimension d, the search space of the multiphase complete exchange (Bokhari 1993 §3.1-3.2).
#include <vector>

namespace hcemu::model {

// A multiphase exchange is named by the subcube dimensions of its phases, d_1 + ... + d_k = d (Bokhari 1993 §2.3).
// The cost does not depend on the order of the phases (Nicol & Bokhari 1994 §3), so the planner returns parts in
// non-decreasing order, as Bokhari writes them ({1 2 4}).
using Partition = std::vector<int>;

// Every partition of d, parts non-decreasing, ordered by number of parts and then lexicographically: the order of
// Bokhari 1993 Table 3. partitions(0) holds the empty partition (a 0-cube has nothing to exchange).
std::vector<Partition> partitions(int d);

// E(d, n): the unique partition of d into n parts that differ by at most one (Bokhari 1993 eq. 3):
// [n - d mod n, floor(d/n)] [d mod n, ceil(d/n)]. Requires 1 <= n <= d.
Partition equipartition(int d, int n);

bool is_equipartition(const Partition& partition);

// 2^A = sum of 2^a_i and 2^-A = sum of 2^-a_i (Bokhari 1993 §3.2, the columns of Table 3).
double power_sum(const Partition& partition);
double inverse_power_sum(const Partition& partition);

// The planner's order among partitions of equal cost: fewer phases first (fewer start-ups and shuffles for the same
// time), then the lexicographically greater non-decreasing sequence, which among partitions with the same number of
// parts puts the equipartition first. True when `a` comes before `b`.
bool preferred(const Partition& a, const Partition& b);

}  // namespace hcemu::model
