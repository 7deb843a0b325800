#pragma once
// Two allreduce kernels of one's own, written against hcemu's node API only, and their closed forms on hcemu's
// model (docs/model.md): every node holds m doubles and ends with the sum over all nodes, element by element.
#include <cstddef>
#include <optional>
#include <span>

#include "hcemu/config.hpp"
#include "hcemu/node.hpp"
#include "hcemu/time.hpp"

namespace allreduce {

// Recursive doubling, the exchange pattern of Johnsson & Ho (1987) §4.2's SBT-b(1,N) with a sum in place of the
// concatenation: in step k = 0..d-1 every node exchanges its whole vector with its neighbour across dimension k and
// adds what it received. d steps of m doubles each.
void recursive_doubling(hcemu::Node& node, std::span<double> data);

// The ring: a reduce-scatter, then an allgather, around the binary-reflected Gray-code Hamiltonian circuit of the cube
// that Johnsson & Ho (1987) §4.2's CRA(1,N) passes blocks along (node at ring position g = IG(id) sends to G(g + 1)). The vector is cut into 2^d blocks of b = ⌈m/2^d⌉
// doubles (the last ones padded); in each of 2^d - 1 steps of the reduce-scatter every node sends one block to its
// successor, receives one from its predecessor and adds it into its own; 2^d - 1 steps of the allgather then pass
// the summed blocks on. Each node sends 2(2^d - 1)·b doubles, about 2m whatever d: the bandwidth-optimal allreduce of
// Patarasuk & Yuan (2009), at the cost of 2(2^d - 1) start-ups.
void ring(hcemu::Node& node, std::span<double> data);

// The closed forms, on free resources and any port model, switching and packet size (every step is a pairwise
// exchange with a neighbour, all nodes in step; docs/model.md §9's E(L, 1) = model::pairwise_exchange_time), with
// t_a per addition (docs/model.md §6):
//   recursive doubling: d·(E(8m, 1) + t_a·m)
//   ring:               (2^d - 1)·(E(8b, 1) + t_a·b) + (2^d - 1)·E(8b, 1),  b = ⌈m/2^d⌉
hcemu::Time recursive_doubling_time(const hcemu::MachineConfig& config, std::size_t m);
hcemu::Time ring_time(const hcemu::MachineConfig& config, std::size_t m);

// No allreduce of m >= 1 doubles ends sooner: every node's result depends on all 2^d inputs, and a node takes in at
// most q messages at once (q = 1 with one or half-duplex ports, N with k:N, d with all ports), each holding its
// input for at least a start-up λ (docs/model.md §3-4); the inputs a node has combined grow at most (q + 1)-fold per
// λ, so ⌈log_(q+1) 2^d⌉ start-ups pass before any node has them all: d·λ with one port. nullopt for m = 0.
std::optional<hcemu::Time> lower_bound(const hcemu::MachineConfig& config, std::size_t m);

}  // namespace allreduce
