#include "hcemu/model/transfer.hpp"

#include <algorithm>
#include <vector>

#include "hcemu/detail/cost_table.hpp"

namespace hcemu::model {

Time message_time(const CostTable& cost, Switching switching, std::size_t bytes, int hops) {
  const std::size_t packets = cost.packet_count(bytes);
  if (switching == Switching::circuit) {
    Time total = 0;
    for (std::size_t p = 0; p < packets; ++p)
      total = CostTable::within_range(CostTable::Wide{total} + cost.circuit_packet(cost.packet_bytes(bytes, p), hops));
    return total;
  }
  if (hops == 0) {  // a message to oneself crosses no link: one "hop" of start-up and copy
    Time total = 0;
    for (std::size_t p = 0; p < packets; ++p)
      total = CostTable::within_range(CostTable::Wide{total} + cost.hop_packet(cost.packet_bytes(bytes, p)));
    return total;
  }
  // end_prev[i]: when the previous packet left hop i.
  std::vector<Time> end_prev(static_cast<std::size_t>(hops), 0);
  for (std::size_t p = 0; p < packets; ++p) {
    const Time hop = cost.hop_packet(cost.packet_bytes(bytes, p));
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
  Time total = 0;
  for (std::size_t p = 0; p < cost.packet_count(bytes); ++p)
    total = CostTable::within_range(CostTable::Wide{total} + cost.hop_packet(cost.packet_bytes(bytes, p)));
  return total;
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
  // MODEL.md section 4, `half`: the receive completes at max(arrival, port free + its own hold).
  return std::max(message, sender_hold(cost, config.switching, bytes, hops) +
                               receiver_hold(cost, config.switching, bytes, hops));
}

Time message_time(const MachineConfig& config, std::size_t bytes, int hops) {
  return message_time(CostTable::from(config), config.switching, bytes, hops);
}

}  // namespace hcemu::model
