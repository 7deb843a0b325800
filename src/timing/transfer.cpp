// What every transfer model shares: routing, the fields every model records, and the factory that chooses a model.
// To add a model: one file that implements TransferModel, a line in make_transfer_model, and its config rows
// (src/common/config_keys.cpp); docs/model.md §12 is the example.
#include "timing/transfer.hpp"

#include <algorithm>

#include "model/transfer_table.hpp"
#include "timing/checked_time.hpp"

namespace hcemu::timing {

void TransferModel::prepare(Transfer& t, int source, int destination, std::size_t bytes, Time ready, int channel,
                            std::uint64_t seq, const model::TorusRoutePreference& ways) const {
  wiring_.route(t.route, source, destination, ways);
  prepare_on_route(t, source, destination, bytes, ready, channel, seq);
}

void TransferModel::prepare_routed(Transfer& t, int source, int destination, std::size_t bytes, Time ready,
                                   int channel, std::uint64_t seq, Route route) const {
  t.route = std::move(route);
  prepare_on_route(t, source, destination, bytes, ready, channel, seq);
}

void TransferModel::prepare_on_route(Transfer& t, int source, int destination, std::size_t bytes, Time ready,
                                     int channel, std::uint64_t seq) const {
  t.key = OrderKey{ready, source, seq, 0};
  t.source = source;
  t.destination = destination;
  t.bytes = bytes;
  t.channel = channel;
  t.times = TransferTimes{};
  t.times.in_port = t.route.in_port;
  t.duration = 0;
  t.forwarding.packet_end.clear();
  t.forwarding.hop = 0;
  start(t);
}

bool TransferModel::books_alone(const Transfer& t) const {
  return std::all_of(t.route.links.begin(), t.route.links.end(),
                     [&](int link) { return wiring_.private_to(link, t.source); });
}

std::string TransferModel::describe(const Transfer& t) {
  return "a transfer of " + std::to_string(t.bytes) + " bytes from node " + std::to_string(t.source) + " to node " +
         std::to_string(t.destination);
}

void check_packets_in_range(const CostTable& cost, const Transfer& t) {
  const std::size_t packets = cost.packet_count(t.bytes);
  const int hops = t.route.hops();
  const std::size_t first = cost.packet_bytes(t.bytes, 0);
  const WideTime per_packet = static_cast<WideTime>(cost.max_startup()) + cost.delta_msg +
                              static_cast<WideTime>(cost.delta_hop) * hops +
                              static_cast<WideTime>(std::max(cost.tau, cost.tau_short)) * first;
  if (per_packet * (static_cast<WideTime>(packets) + hops) + t.key.ready > kTimeLimit)
    time_overflow(TransferModel::describe(t));
}

RangeCheck::RangeCheck(const CostTable& cost) : cost_(cost) {
  // check_packets_in_range's bound for `bytes` or fewer over kSmallHops hops or fewer: at most max(bytes, 1) packets
  // of at most `bytes` each. It must leave half the range, for the ready time.
  using Wide = CostTable::Wide;
  const Wide per_byte = std::max(cost.tau, cost.tau_short);
  const Wide startup = Wide{cost.max_startup()} + cost.delta_msg + Wide{cost.delta_hop} * kSmallHops;
  for (std::size_t bytes : {std::size_t{1} << 20, std::size_t{1} << 12, std::size_t{64}, std::size_t{0}}) {
    const Wide bound = (startup + per_byte * static_cast<Wide>(bytes)) *
                       static_cast<Wide>(std::max<std::size_t>(bytes, 1) + kSmallHops);
    if (bound <= kTimeLimit / 2) {
      small_ = true;
      small_bytes_ = bytes;
      return;
    }
  }
}

std::unique_ptr<TransferModel> make_transfer_model(const MachineConfig& config, Timing timing, const CostTable& cost,
                                                   const Wiring& wiring) {
  if (timing == Timing::native) return make_native(wiring);
  switch (config.switching) {
    case Switching::circuit:
      return make_circuit(cost, wiring);
    case Switching::store_and_forward:
      return make_store_and_forward(cost, wiring);
    case Switching::loggp:
      return make_loggp(config, wiring);
  }
  return make_circuit(cost, wiring);
}

}  // namespace hcemu::timing
