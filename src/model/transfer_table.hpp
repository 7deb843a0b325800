#pragma once
// The single-transfer times of hcemu/model/transfer.hpp over a CostTable already made, for the closed forms and the
// timing layer, which hold one (docs/model.md §3).
#include <cstddef>

#include "common/cost_table.hpp"
#include "hcemu/config.hpp"
#include "hcemu/model/transfer.hpp"
#include "hcemu/time.hpp"

namespace hcemu::model {

// From the start of a message of `bytes` over `hops` hops, on free resources, to the end of its arrival.
// circuit: its packets back to back, each λ + δ' + δ·h + τ·L (docs/model.md §3).
// store_and_forward: packet p takes hop i when it has fully arrived from hop i-1 and packet p-1 has left the
// link: end[p][i] = max(end[p][i-1], end[p-1][i]) + λ + τ·L_p.
Time message_time(const CostTable& cost, Switching switching, std::size_t bytes, int hops);

// How long the message holds the sender's output resource: circuit, the whole message; store-and-forward,
// all its packets' first hops.
Time sender_hold(const CostTable& cost, Switching switching, std::size_t bytes, int hops);

// How long the message holds the receiver's input resource: circuit, the whole message; store-and-forward,
// all its packets' last hops.
Time receiver_hold(const CostTable& cost, Switching switching, std::size_t bytes, int hops);

}  // namespace hcemu::model
