#pragma once
// When a message moves, in model time (docs/model.md §3, §7 and §12). A sender fixes its message's ready time when it
// issues it; its bookings of links are made later, in the order of docs/model.md §7, by whoever commits them
// (runtime/coordinator.hpp). This layer knows λ, τ, δ, routes and links, and nothing of threads or kernels.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "hcemu/config.hpp"
#include "common/cost_table.hpp"
#include "hcemu/time.hpp"
#include "timing/links.hpp"
#include "timing/order_key.hpp"
#include "timing/route.hpp"
#include "timing/wiring.hpp"

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
// Kept in the message itself, a message of one packet (every one where packets are not limited) without an allocation:
// its placing reads it on a line that the placer fetches ahead with the message's (runtime/coordinator_batch.cpp),
// where a separate block was two misses in a row per hop.
struct Forwarding {
  // Per packet: when it left the last booked hop (its arrival at the next). Empty: no forwarding (another model, or a
  // message to oneself).
  boost::container::small_vector<Time, 1> packet_end;
  std::uint32_t hop = 0;            // the next hop to book
  Time hop_start = 0, hop_end = 0;  // the last hop booked holds its link over [hop_start, hop_end)
  bool active() const { return !packet_end.empty(); }
};

// The timing part of one message in flight.
struct Transfer {
  OrderKey key;  // of its next booking
  int source = 0;
  int destination = 0;
  std::size_t bytes = 0;
  int channel = -1;  // the sender's output channel (PortState::Slot), -1 when the model has none
  Route route;
  // Known once prepared. Circuit: how long it holds its route (§3); store-and-forward: its first packet's time on one
  // link, T_0, its lead (its whole time for a message to oneself); LogGP: how long it holds its ports (§12), its lead.
  Time duration = 0;
  TransferTimes times;
  Forwarding forwarding;  // store-and-forward over links
};

// What one commit did.
struct CommitStep {
  bool sender_released = false;  // times.sender_done is known: the sender's port and a blocking send may go on
  bool arrived = false;          // every time is known: the message can be delivered
  bool more = false;             // more bookings to make, at the new `key`
};

// The rules by which one message moves, in model time: one implementation per model, one file each (circuit.cpp,
// store_and_forward.cpp, loggp.cpp, native.cpp), chosen once per machine by make_transfer_model. The shared part
// routes the message and fills in what every model records; a model adds its own times, and books links when it
// commits. The protocols' rules (§5) are apart, in protocol.hpp: they do not depend on how a message travels.
class TransferModel {
 public:
  explicit TransferModel(const Wiring& wiring) : wiring_(wiring) {}
  virtual ~TransferModel() = default;

  // The transfer as issued by `source` when it is ready (docs/model.md §4: issued, and its output resource free).
  void prepare(Transfer& t, int source, int destination, std::size_t bytes, Time ready, int channel,
               std::uint64_t seq, const model::TorusRoutePreference& ways) const;
  // The same, on a route already chosen: another process's copy of a transfer its sender prepared (docs/mpi.md).
  void prepare_routed(Transfer& t, int source, int destination, std::size_t bytes, Time ready, int channel,
                      std::uint64_t seq, Route route) const;

  // True when the transfer's bookings may be made as soon as it is issued: it needs no link, or only links no other
  // source can ever book, so no transfer that is ready earlier can come to contend with it.
  virtual bool books_alone(const Transfer& t) const;

  // Makes the transfer's next booking: the whole route under circuit switching, one hop of one packet under
  // store-and-forward. Bookings that end by `forget_before` can be dropped: no transfer will be ready before then. A
  // booking that would pass the model's range throws TimeOverflow and leaves the transfer and the links as they were.
  virtual CommitStep commit(Transfer& t, LinkTable& links, Time forget_before) const = 0;

  // The least time from the transfer's ready time to anything its placing brings (its arrival, the end of its hold
  // on the sender's output), known before it books anything, where commit makes all its bookings at once and touches
  // nothing but its route's links. Transfers ready closer together than that can be placed at once, in parallel where
  // they share no link (runtime/coordinator_batch.cpp). 0 where the model cannot say: its transfers are placed one
  // by one.
  virtual Time least_lead(const Transfer& t) const {
    (void)t;
    return 0;
  }
  // What least_lead bounds, known before any booking: nothing (the model cannot say), every booking of a transfer
  // that books its whole route at once for [start, start + duration) (circuit switching), each booking of one hop
  // on one link, whose placing brings nothing earlier than its ready time plus the lead (store-and-forward: the next
  // hop, the sender's release, the arrival), or the events of a transfer that books no link at all (LogGP). Where it
  // bounds them, the processes that own the links can place a window of transfers without each other's queues
  // (docs/mpi.md).
  enum class Leads { none, whole_route, each_hop, no_links };
  virtual Leads leads() const { return Leads::none; }
  // Where leads() bounds bookings: how many least_leads after the ready time of its next booking the transfer's first
  // event that can wake a node comes (its sender's release, its arrival). 1 where that booking brings one; a
  // store-and-forward message past its first hop brings none before its last, each hop ready no earlier than the
  // one before it plus the lead: its hops still to go.
  virtual std::uint32_t leads_to_wake(const Transfer& t) const {
    (void)t;
    return 1;
  }

  // False when the model keeps no model time (native timing: real time is the clock, and nothing is delayed), so
  // that transfers need not be placed in the order of docs/model.md §7 and an elapse injects nothing.
  virtual bool keeps_model_time() const { return true; }

  // "a transfer of B bytes from node S to node D", for the errors of a transfer that would pass the model's range.
  static std::string describe(const Transfer& t);

 protected:
  // The model's own part of prepare, once the route and what every model records are set: its times known before
  // any booking, and its checks on the model's range (a transfer that would pass it throws TimeOverflow, naming
  // `what` it is).
  virtual void start(Transfer& t) const = 0;
  const Wiring& wiring_;

 private:
  void prepare_on_route(Transfer& t, int source, int destination, std::size_t bytes, Time ready, int channel,
                        std::uint64_t seq) const;
};

// The models of docs/model.md §3: throws TimeOverflow when the transfer could pass the model's range. Checked before
// anything multiplies, with (packets + hops) whole-packet hops over the route, at least its time under either.
void check_packets_in_range(const CostTable& cost, const Transfer& t);

// check_packets_in_range for one cost table, with the common case settled at once: a transfer of at most
// small_bytes over at most kSmallHops hops, ready in the first half of the range, is shown to stay within it when
// the table is made, without the wide arithmetic of every transfer.
class RangeCheck {
 public:
  explicit RangeCheck(const CostTable& cost);
  void operator()(const Transfer& t) const {
    if (small_ && t.bytes <= small_bytes_ && t.route.hops() <= kSmallHops && t.key.ready <= kTimeLimit / 2) return;
    check_packets_in_range(cost_, t);
  }

 private:
  static constexpr int kSmallHops = 64;
  const CostTable& cost_;
  bool small_ = false;  // whether any size passes at once (not with start-ups near the range)
  std::size_t small_bytes_ = 0;
};

// One per model; the factory below chooses among them.
std::unique_ptr<TransferModel> make_circuit(const CostTable& cost, const Wiring& wiring);
std::unique_ptr<TransferModel> make_store_and_forward(const CostTable& cost, const Wiring& wiring);
std::unique_ptr<TransferModel> make_loggp(const MachineConfig& config, const Wiring& wiring);
std::unique_ptr<TransferModel> make_native(const Wiring& wiring);
// The config's model: native under native timing, otherwise the config's switching. `cost` and `wiring` must outlive
// the model.
std::unique_ptr<TransferModel> make_transfer_model(const MachineConfig& config, Timing timing, const CostTable& cost,
                                                   const Wiring& wiring);

}  // namespace hcemu::timing
