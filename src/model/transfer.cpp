#include "hcemu/model/transfer.hpp"

#include <algorithm>
#include <vector>

#include "model/transfer_table.hpp"

namespace hcemu::model {

namespace {
// The sum of `one(size)` over the packets of a message: all full but the last. The terms are not negative, so the
// sum is within range exactly when every partial sum is; it is taken wide (at most 2^40 packets of 2^62 ps each).
// `one(size, split)`: split tells whether the message is cut into packets (docs/model.md §14).
template <class PerPacket>
Time over_packets(const CostTable& cost, std::size_t bytes, PerPacket one) {
  const std::size_t packets = cost.packet_count(bytes);
  const std::size_t last = cost.packet_bytes(bytes, packets - 1);
  const bool split = cost.is_split(bytes);
  CostTable::Wide total = one(last, split);
  if (packets > 1) total += CostTable::Wide{one(cost.packet, split)} * static_cast<CostTable::Wide>(packets - 1);
  return CostTable::within_range(total);
}
}  // namespace

Time message_time(const CostTable& cost, Switching switching, std::size_t bytes, int hops) {
  const std::size_t packets = cost.packet_count(bytes);
  if (switching == Switching::circuit)
    return over_packets(cost, bytes, [&](std::size_t size, bool split) { return cost.circuit_packet(size, hops, split); });
  if (hops == 0)  // a message to oneself crosses no link: one "hop" of start-up and copy
    return over_packets(cost, bytes, [&](std::size_t size, bool split) { return cost.hop_packet(size, split); });
  // end_prev[i]: when the previous packet left hop i.
  std::vector<Time> end_prev(static_cast<std::size_t>(hops), 0);
  for (std::size_t p = 0; p < packets; ++p) {
    const Time hop = cost.hop_packet(cost.packet_bytes(bytes, p), cost.is_split(bytes));
    Time arrived = 0;
    for (std::size_t i = 0; i < end_prev.size(); ++i) {
      arrived = CostTable::within_range(CostTable::Wide{std::max(arrived, end_prev[i])} + hop);
      end_prev[i] = arrived;
    }
  }
  return end_prev.back();
}

namespace {
Time all_packets_one_hop(const CostTable& cost, std::size_t bytes) {
  return over_packets(cost, bytes, [&](std::size_t size, bool split) { return cost.hop_packet(size, split); });
}
}  // namespace

Time sender_hold(const CostTable& cost, Switching switching, std::size_t bytes, int hops) {
  return switching == Switching::circuit ? message_time(cost, switching, bytes, hops) : all_packets_one_hop(cost, bytes);
}

Time receiver_hold(const CostTable& cost, Switching switching, std::size_t bytes, int hops) {
  return sender_hold(cost, switching, bytes, hops);
}

Time pairwise_exchange_time(const MachineConfig& config, std::size_t bytes, int hops) {
  const CostTable cost = CostTable::from(config);
  const Time message = message_time(cost, config.switching, bytes, hops);
  if (config.ports.kind != Ports::Kind::half) return message;
  // docs/model.md §4, `half`: the receive completes at max(arrival, port free + its own hold); the port is free
  // the overlap's share of the send's hold early (§14).
  const Time out = sender_hold(cost, config.switching, bytes, hops);
  return std::max(message, out - cost.overlap(out) + receiver_hold(cost, config.switching, bytes, hops));
}

Time message_time(const MachineConfig& config, std::size_t bytes, int hops) {
  return message_time(CostTable::from(config), config.switching, bytes, hops);
}

Time sender_hold(const MachineConfig& config, std::size_t bytes, int hops) {
  return sender_hold(CostTable::from(config), config.switching, bytes, hops);
}

Time receiver_hold(const MachineConfig& config, std::size_t bytes, int hops) {
  return receiver_hold(CostTable::from(config), config.switching, bytes, hops);
}

}  // namespace hcemu::model
