#pragma once
// When a message moves, in model time (docs/model.md §3 and §7). A sender fixes its message's ready time when it
// issues it; its bookings of links are made later, in the order of docs/model.md §7, by whoever commits them
// (runtime/coordinator.hpp). This layer knows λ, τ, δ, routes and links, and nothing of threads or kernels.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "hcemu/config.hpp"
#include "common/cost_table.hpp"
#include "hcemu/time.hpp"
#include "timing/links.hpp"
#include "timing/order_key.hpp"
#include "timing/route.hpp"
#include "timing/topology.hpp"

namespace hcemu::timing {

// A message's times, known once its bookings are made.
struct TransferTimes {
  Time start = 0;        // its first packet leaves
  Time sender_done = 0;  // a blocking send returns: circuit, the end; store-and-forward, its packets' first hops
  Time first_byte = 0;   // its first byte reaches the receiver (what FORCED compares with the post time)
  Time arrival = 0;      // its last byte reaches the receiver, if the receiver's input is free
  Time input_hold = 0;   // how long it holds the receiver's input resource
  int in_port = 0;       // the receiver's input port it arrives on
};

// The hops of a store-and-forward message still to be booked. Packet p takes hop i when it has fully arrived from hop
// i-1 and packet p-1 has left hop i (docs/model.md §3); a message's packets go back to back, so the message holds
// each link from its first packet's start there to its last packet's end, and each hop is one booking, served in
// the order of docs/model.md §7 by the ready time of its first packet.
struct Forwarding {
  std::vector<Time> packet_end;  // per packet: when it left the last booked hop (its arrival at the next)
  std::uint32_t hop = 0;         // the next hop to book
};

// The timing part of one message in flight.
struct Transfer {
  OrderKey key;  // of its next booking
  int source = 0;
  int destination = 0;
  std::size_t bytes = 0;
  int channel = -1;  // the sender's output channel (PortState::Slot), -1 when the model has none
  Route route;
  Time duration = 0;  // circuit: how long it holds its route (docs/model.md §3), known once routed
  TransferTimes times;
  std::unique_ptr<Forwarding> forwarding;  // store-and-forward over links
};

// What one commit did.
struct CommitStep {
  bool sender_released = false;  // times.sender_done is known: the sender's port and a blocking send may go on
  bool arrived = false;          // every time is known: the message can be delivered
  bool more = false;             // more bookings to make, at the new `key`
};

class TransferModel {
 public:
  TransferModel(const CostTable& cost, Switching switching, const Topology& topology);

  // The transfer as issued by `source` when it is ready (docs/model.md §4: issued, and its output resource free).
  void prepare(Transfer& t, int source, int destination, std::size_t bytes, Time ready, int channel,
               std::uint64_t seq, const model::TorusRoutePreference& ways) const;
  // The same, on a route already chosen: another process's copy of a transfer its sender prepared (docs/mpi.md).
  void prepare_routed(Transfer& t, int source, int destination, std::size_t bytes, Time ready, int channel,
                      std::uint64_t seq, Route route) const;

  // True when the transfer's bookings may be made as soon as it is issued: it needs no link, or only links no other
  // source can ever book, so no transfer that is ready earlier can come to contend with it.
  bool books_alone(const Transfer& t) const;

  // Makes the transfer's next booking: the whole route under circuit switching, one hop of one packet under
  // store-and-forward. Bookings that end by `forget_before` can be dropped: no transfer will be ready before then.
  CommitStep commit(Transfer& t, LinkTable& links, Time forget_before) const;

 private:
  // What prepare and prepare_routed share, once t.route is set: the times, and the checks on the model's range.
  void prepare_on_route(Transfer& t, int source, int destination, std::size_t bytes, Time ready, int channel,
                        std::uint64_t seq) const;
  CommitStep commit_circuit(Transfer& t, LinkTable& links, Time forget_before) const;
  CommitStep commit_local(Transfer& t) const;
  CommitStep commit_hop(Transfer& t, LinkTable& links, Time forget_before) const;
  const CostTable& cost_;
  Switching switching_;
  const Topology& topology_;
};

}  // namespace hcemu::timing
