#include "timing/transfer.hpp"

#include <algorithm>
#include <array>
#include <bit>

#include "hcemu/model/transfer.hpp"

namespace hcemu::timing {

namespace {
// The e-cube route (MODEL.md section 1): correct the differing bits from the lowest to the highest.
struct Route {
  std::array<int, 16> links{};
  int hops = 0;
  std::span<const int> all() const { return {links.data(), static_cast<std::size_t>(hops)}; }
  std::span<const int> hop(int i) const { return {links.data() + i, 1}; }
};

Route route_of(int src, int dst, int d) {
  Route r;
  int at = src;
  for (int k = 0; k < d; ++k) {
    if (((src ^ dst) >> k) & 1) {
      r.links[static_cast<std::size_t>(r.hops++)] = LinkTable::index(at, k, d);
      at ^= 1 << k;
    }
  }
  return r;
}

int last_dim(int src, int dst) {
  const unsigned diff = static_cast<unsigned>(src ^ dst);
  return diff == 0 ? -1 : static_cast<int>(std::bit_width(diff)) - 1;
}

CostTable costs_for(const MachineConfig& config, Timing timing) {
  // Native timing injects no delay at all: every cost is zero and the clocks are real time.
  return timing == Timing::native ? CostTable{} : CostTable::from(config);
}
}  // namespace

TimingModel::TimingModel(const MachineConfig& config, Timing timing)
    : cost_(costs_for(config, timing)),
      switching_(config.switching),
      d_(config.d),
      native_(timing == Timing::native),
      links_(config.d) {}

TransferTimes TimingModel::send(PortState& sender, int src, int dst, std::size_t bytes, Time issue) {
  const auto slot = sender.output_slot();
  const Time ready = std::max(issue, slot.free);
  TransferTimes t = switching_ == Switching::circuit ? send_circuit(sender, src, dst, bytes, ready, slot.channel)
                                                     : send_store_and_forward(sender, src, dst, bytes, ready,
                                                                              slot.channel);
  t.in_link = last_dim(src, dst);
  return t;
}

// MODEL.md section 3, circuit: the packets go back to back and the whole route is held for all of them.
TransferTimes TimingModel::send_circuit(PortState& sender, int src, int dst, std::size_t bytes, Time ready,
                                        int channel) {
  const Route route = route_of(src, dst, d_);
  const Time duration = model::message_time(cost_, Switching::circuit, bytes, route.hops);
  TransferTimes t;
  t.start = links_.book(route.all(), ready, duration, src);
  t.sender_done = t.arrival = t.start + duration;
  t.first_byte = t.start + cost_.circuit_first_byte(cost_.packet_bytes(bytes, 0), route.hops);
  t.input_hold = duration;
  sender.take_output(channel, t.sender_done);
  return t;
}

// MODEL.md section 3, store-and-forward: every packet takes every hop as its own transfer, when it has fully
// arrived from the previous hop and the link is free. The emulator does the forwarding, here, at once.
TransferTimes TimingModel::send_store_and_forward(PortState& sender, int src, int dst, std::size_t bytes,
                                                  Time ready, int channel) {
  const Route route = route_of(src, dst, d_);
  TransferTimes t;
  t.start = ready;
  Time last_end = ready;
  std::array<Time, 16> prev_end{};  // when the previous packet left each hop: packets never overtake
  for (std::size_t p = 0; p < cost_.packet_count(bytes); ++p) {
    const std::size_t size = cost_.packet_bytes(bytes, p);
    const Time hop = cost_.hop_packet(size);
    t.input_hold += hop;
    if (route.hops == 0) {  // to oneself: one local transfer, back to back
      const Time s = std::max(ready, last_end);
      if (p == 0) t.start = s, t.first_byte = s + cost_.startup(size);
      last_end = t.sender_done = s + hop;
      continue;
    }
    Time at = ready;  // when this packet is ready to take the next hop
    for (int i = 0; i < route.hops; ++i) {
      const Time s = links_.book(route.hop(i), std::max(at, prev_end[static_cast<std::size_t>(i)]), hop, src);
      prev_end[static_cast<std::size_t>(i)] = s + hop;
      if (p == 0 && i == 0) t.start = s;
      if (p == 0 && i == route.hops - 1) t.first_byte = s + cost_.startup(size);
      at = s + hop;
      if (i == 0) t.sender_done = at;
    }
    last_end = at;
  }
  t.arrival = last_end;
  sender.take_output(channel, t.sender_done);
  return t;
}

}  // namespace hcemu::timing
