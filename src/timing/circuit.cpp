// docs/model.md §3, circuit switching: the message's packets go back to back over one circuit, and the whole route
// is held for all of them; each packet pays λ + δ' + δ·h + τ·L.
#include <algorithm>

#include "hcemu/model/transfer.hpp"
#include "model/transfer_table.hpp"
#include "timing/checked_time.hpp"
#include "timing/transfer.hpp"

namespace hcemu::timing {
namespace {

class Circuit final : public TransferModel {
 public:
  Circuit(const CostTable& cost, const Wiring& wiring) : TransferModel(wiring), cost_(cost), in_range_(cost) {}

  CommitStep commit(Transfer& t, LinkTable& links, Time forget_before) const override {
    const Time duration = t.duration;
    TransferTimes& x = t.times;
    // A message to oneself books nothing (an empty route): its packets go back to back through the node's ports.
    x.start = links.book({t.route.links.data(), t.route.links.size()}, t.key.ready, duration, t.source, forget_before);
    x.sender_done = x.arrival = x.start + duration;
    x.first_byte = x.start + cost_.circuit_first_byte(cost_.packet_bytes(t.bytes, 0), t.route.hops());
    x.input_hold = duration;
    return {true, true, false};
  }
  // Every time it brings comes at least its duration after its start, which is no earlier than its ready time.
  Time least_lead(const Transfer& t) const override { return t.duration; }
  Leads leads() const override { return Leads::whole_route; }

 protected:
  void start(Transfer& t) const override {
    in_range_(t);
    const std::size_t packets = cost_.packet_count(t.bytes);
    const int hops = t.route.hops();
    // Here, on the sender's thread, rather than when the transfer is placed, one at a time. A message of one packet
    // (every message where packets are not limited) is one circuit_packet, inline: model::message_time's general
    // sum over packets shows in a large exchange's profile.
    t.duration = packets == 1 ? cost_.circuit_packet(t.bytes, hops, false)
                              : model::message_time(cost_, Switching::circuit, t.bytes, hops);
  }

 private:
  const CostTable& cost_;
  RangeCheck in_range_;
};

}  // namespace

std::unique_ptr<TransferModel> make_circuit(const CostTable& cost, const Wiring& wiring) {
  return std::make_unique<Circuit>(cost, wiring);
}

}  // namespace hcemu::timing
