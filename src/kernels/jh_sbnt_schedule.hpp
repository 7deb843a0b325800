#pragma once
// Who sends what to whom in every step when N translated Spanning Balanced n-Trees (Johnsson & Ho 1987 §4.1.5)
// carry an all-to-all broadcast, reduction or personalized communication inside a subcube. Every node computes its
// own lists from model::sbnt_parent/sbnt_children in relative addresses (coordinate ^ source); a sender's list for a
// port and step is, entry by entry, its neighbour's list of what arrives on that port in that step (both sorted by
// source, then destination), which is how a message's blocks are found without headers.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hcemu::kernels::detail {

// A block on its way: from source to destination, in subcube coordinates.
struct Route {
  std::uint32_t source, destination;
  friend bool operator<(const Route& a, const Route& b) {
    return a.source != b.source ? a.source < b.source : a.destination < b.destination;
  }
  friend bool operator==(const Route&, const Route&) = default;
};

// routes[s - 1][i]: the blocks on port i in step s = 1..n.
using StepPorts = std::vector<std::vector<std::vector<Route>>>;

struct SbntSchedule {
  StepPorts out, in;
};

// All-to-all broadcast: the block of every source down its tree (destination unused, = source).
SbntSchedule sbnt_broadcast_schedule(std::uint32_t coordinate, int n);
// All-to-all personalized: the block (source, destination) down source's tree to destination.
SbntSchedule sbnt_personalized_schedule(std::uint32_t coordinate, int n);
// All-to-all reduction: the partial block for every destination up destination's tree, deepest first: in step s a
// node sends what it holds for the destinations n + 1 - s links away (source unused, = destination).
SbntSchedule sbnt_reduction_schedule(std::uint32_t coordinate, int n);

}  // namespace hcemu::kernels::detail
