#include "timing/transfer.hpp"

#include <algorithm>

#include "model/transfer_table.hpp"
#include "timing/checked_time.hpp"

namespace hcemu::timing {

TransferModel::TransferModel(const CostTable& cost, Switching switching, const Topology& topology)
    : cost_(cost), switching_(switching), topology_(topology) {}

void TransferModel::prepare(Transfer& t, int source, int destination, std::size_t bytes, Time ready, int channel,
                            std::uint64_t seq, const model::TorusRoutePreference& ways) const {
  topology_.route(t.route, source, destination, ways);
  prepare_on_route(t, source, destination, bytes, ready, channel, seq);
}

void TransferModel::prepare_routed(Transfer& t, int source, int destination, std::size_t bytes, Time ready,
                                   int channel, std::uint64_t seq, Route route) const {
  t.route = std::move(route);
  prepare_on_route(t, source, destination, bytes, ready, channel, seq);
}

void TransferModel::prepare_on_route(Transfer& t, int source, int destination, std::size_t bytes, Time ready,
                                     int channel, std::uint64_t seq) const {
  // Bound the transfer's duration before anything multiplies: (packets + hops) whole-packet hops over the route,
  // which is at least its time under either switching.
  const std::size_t packets = cost_.packet_count(bytes);
  const int hops = t.route.hops();
  const WideTime per_packet = static_cast<WideTime>(std::max(cost_.lambda, cost_.lambda0)) + cost_.delta_msg +
                              static_cast<WideTime>(cost_.delta_hop) * hops +
                              static_cast<WideTime>(cost_.tau) * cost_.packet_bytes(bytes, 0);
  if (per_packet * (static_cast<WideTime>(packets) + hops) + ready > kTimeLimit)
    time_overflow("a transfer of " + std::to_string(bytes) + " bytes from node " + std::to_string(source) +
                  " to node " + std::to_string(destination));
  t.key = OrderKey{ready, source, seq, 0};
  t.source = source;
  t.destination = destination;
  t.bytes = bytes;
  t.channel = channel;
  t.times = TransferTimes{};
  t.times.in_port = t.route.in_port;
  // Here, on the sender's thread, rather than when the transfer is placed, one at a time. A message of one packet
  // (every message where packets are not limited) is one circuit_packet, inline: model::message_time's general
  // sum over packets had been 3% of a d = 12 exchange's profile.
  t.duration = 0;
  if (switching_ == Switching::circuit && hops > 0)
    t.duration = packets == 1 ? cost_.circuit_packet(bytes, hops)
                              : model::message_time(cost_, Switching::circuit, bytes, hops);
  t.forwarding.reset();
  if (switching_ == Switching::store_and_forward && hops > 0) {
    t.forwarding = std::make_unique<Forwarding>();
    t.forwarding->packet_end.assign(packets, ready);  // the whole message is at the sender
  }
}

bool TransferModel::books_alone(const Transfer& t) const {
  return std::all_of(t.route.links.begin(), t.route.links.end(),
                     [&](int link) { return topology_.private_to(link, t.source); });
}

CommitStep TransferModel::commit(Transfer& t, LinkTable& links, Time forget_before) const {
  if (t.route.hops() == 0) return commit_local(t);
  if (switching_ == Switching::circuit) return commit_circuit(t, links, forget_before);
  return commit_hop(t, links, forget_before);
}

// docs/model.md §3, circuit: the packets go back to back and the whole route is held for all of them.
CommitStep TransferModel::commit_circuit(Transfer& t, LinkTable& links, Time forget_before) const {
  const int hops = t.route.hops();
  const Time duration = t.duration;
  TransferTimes& x = t.times;
  x.start = links.book({t.route.links.data(), t.route.links.size()}, t.key.ready, duration, t.source, forget_before);
  x.sender_done = x.arrival = x.start + duration;
  x.first_byte = x.start + cost_.circuit_first_byte(cost_.packet_bytes(t.bytes, 0), hops);
  x.input_hold = duration;
  return {true, true, false};
}

// A message to oneself crosses no link: its packets go back to back through the node's own ports.
CommitStep TransferModel::commit_local(Transfer& t) const {
  TransferTimes& x = t.times;
  const Time ready = t.key.ready;
  x.start = ready;
  x.first_byte = ready + (switching_ == Switching::circuit
                              ? cost_.circuit_first_byte(cost_.packet_bytes(t.bytes, 0), 0)
                              : cost_.startup(cost_.packet_bytes(t.bytes, 0)));
  x.input_hold = model::message_time(cost_, switching_, t.bytes, 0);
  x.sender_done = x.arrival = ready + x.input_hold;
  return {true, true, false};
}

// docs/model.md §3, store-and-forward: every packet takes every hop as its own transfer of λ + τ·L, when it has
// fully arrived from the previous hop and the previous packet has left the link. The emulator does the forwarding:
// one hop at a time, each served in the order of docs/model.md §7.
CommitStep TransferModel::commit_hop(Transfer& t, LinkTable& links, Time forget_before) const {
  Forwarding& f = *t.forwarding;
  TransferTimes& x = t.times;
  const std::size_t packets = f.packet_end.size();
  const std::uint32_t hop = f.hop;
  const bool last_hop = hop + 1 == t.route.links.size();

  // With packet p arriving at a_p, starting at s_0 the packets leave at e_p = max(a_p, e_{p-1}) + T_p: the link is
  // held from s_0 to max(s_0 + ΣT, max_{p>=1} (a_p + Σ_{q>=p} T_q)).
  Time total = 0, tail = 0;
  for (std::size_t p = packets; p-- > 0;) {
    total += cost_.hop_packet(cost_.packet_bytes(t.bytes, p));
    if (p > 0) tail = std::max(tail, f.packet_end[p] + total);
  }
  const int link = t.route.links[hop];
  const Time start = links.book({&link, 1}, f.packet_end[0], total, t.source, forget_before, tail);
  Time end = start;
  for (std::size_t p = 0; p < packets; ++p) {
    const std::size_t size = cost_.packet_bytes(t.bytes, p);
    const Time packet_start = p == 0 ? start : std::max(f.packet_end[p], end);
    end = packet_start + cost_.hop_packet(size);
    f.packet_end[p] = end;
    if (last_hop) x.input_hold += cost_.hop_packet(size);
    if (p == 0 && last_hop) x.first_byte = packet_start + cost_.startup(size);
  }

  CommitStep result;
  if (hop == 0) {
    x.start = start;
    x.sender_done = end;  // every packet has left the sender
    result.sender_released = true;
  }
  if (last_hop) {
    x.arrival = end;
    result.arrived = true;
    return result;
  }
  f.hop = hop + 1;
  t.key.ready = f.packet_end[0];  // the next hop is ready when the first packet has arrived
  t.key.step = f.hop;
  result.more = true;
  return result;
}

}  // namespace hcemu::timing
