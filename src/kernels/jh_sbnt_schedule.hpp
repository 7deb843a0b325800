#pragma once
// Who sends what to whom in every step when N translated Spanning Balanced n-Trees (Johnsson & Ho 1987 §4.1.5)
// carry an all-to-all broadcast, reduction or personalized communication inside a subcube. Every node computes its
// own lists from model::sbnt_parent/sbnt_children in relative addresses (coordinate ^ source); a sender's list for a
// port and step is, entry by entry, its neighbour's list of what arrives on that port in that step (both sorted by
// source, then destination), which is how a message's blocks are found without headers.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hcemu/model/spanning_trees.hpp"

namespace hcemu::kernels::detail {

// A block, or one part of it, on its way: from source to destination, in subcube coordinates.
struct Route {
  std::uint32_t source, destination;
  std::uint32_t part = 0;  // which of a model::TreeSchedule's parts (its tree); 0 for a whole block
  friend bool operator<(const Route& a, const Route& b) {
    if (a.source != b.source) return a.source < b.source;
    return a.destination != b.destination ? a.destination < b.destination : a.part < b.part;
  }
  friend bool operator==(const Route&, const Route&) = default;
};

// routes[s - 1][i]: the blocks on port i in step s = 1..n (1..steps for a model::TreeSchedule).
using StepPorts = std::vector<std::vector<std::vector<Route>>>;

struct SbntSchedule {
  StepPorts out, in;
};

// All-to-all broadcast along the schedule's trees: part k of every source's block down its tree k, in the steps
// the schedule gives (destination unused, = source). model::sbnt_all_port_schedule is the SBnT-b(n,N) of the paper's
// pseudo-code.
SbntSchedule tree_broadcast_schedule(std::uint32_t coordinate, const model::TreeSchedule& schedule);
// All-to-all personalized: the block (source, destination) down source's tree to destination.
SbntSchedule sbnt_personalized_schedule(std::uint32_t coordinate, int n);
// All-to-all reduction: the partial block for every destination up destination's tree, deepest first: in step s a
// node sends what it holds for the destinations n + 1 - s links away (source unused, = destination).
SbntSchedule sbnt_reduction_schedule(std::uint32_t coordinate, int n);

}  // namespace hcemu::kernels::detail
