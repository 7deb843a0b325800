// docs/model.md §3, store-and-forward: every packet takes every hop as its own transfer of λ + τ·L, when it has fully
// arrived from the previous hop and the previous packet has left the link. The emulator does the forwarding: one hop
// at a time, each served in the order of docs/model.md §7.
#include <algorithm>

#include "hcemu/model/transfer.hpp"
#include "model/transfer_table.hpp"
#include "timing/checked_time.hpp"
#include "timing/transfer.hpp"

namespace hcemu::timing {
namespace {

class StoreAndForward final : public TransferModel {
 public:
  StoreAndForward(const CostTable& cost, const Wiring& wiring)
      : TransferModel(wiring), cost_(cost), in_range_(cost) {}

  CommitStep commit(Transfer& t, LinkTable& links, Time forget_before) const override {
    return t.route.hops() == 0 ? commit_local(t) : commit_hop(t, links, forget_before);
  }
  // A hop starts no earlier than its ready time, and its first packet takes T_0 = λ + τ·L_0 over it. So everything
  // its placing brings comes T_0 or more after its ready time: the next hop, ready when that packet has arrived; the
  // sender's release, once every packet has left (hop 0); the arrival (the last hop). A message to oneself brings
  // both at its whole time. Each hop books one link and touches its own message, so the hops of a batch that share
  // no link are placed at once like circuits (runtime/coordinator_batch.cpp).
  Time least_lead(const Transfer& t) const override { return t.duration; }
  Leads leads() const override { return Leads::each_hop; }
  std::uint32_t leads_to_wake(const Transfer& t) const override {
    const Forwarding& f = t.forwarding;
    return !f.active() || f.hop == 0 ? 1 : static_cast<std::uint32_t>(t.route.links.size()) - f.hop;
  }

 protected:
  void start(Transfer& t) const override {
    in_range_(t);
    if (t.route.hops() == 0) {
      t.duration = model::message_time(cost_, Switching::store_and_forward, t.bytes, 0);
      return;
    }
    t.duration = cost_.hop_packet(cost_.packet_bytes(t.bytes, 0), cost_.is_split(t.bytes));  // T_0
    t.forwarding.packet_end.assign(cost_.packet_count(t.bytes), t.key.ready);  // the whole message is at the sender
  }

 private:
  // A message to oneself crosses no link: its packets go back to back through the node's own ports.
  CommitStep commit_local(Transfer& t) const {
    TransferTimes& x = t.times;
    const Time ready = t.key.ready;
    x.start = ready;
    x.first_byte = ready + cost_.startup(cost_.packet_bytes(t.bytes, 0));
    x.input_hold = t.duration;  // its whole time (start)
    x.sender_done = x.arrival = ready + x.input_hold;
    return {true, true, false};
  }

  CommitStep commit_hop(Transfer& t, LinkTable& links, Time forget_before) const;
  // commit_hop for a message of one packet (every message where packets are not limited): its hop is T_0, known
  // since start, with no later packet to wait for.
  CommitStep commit_packet(Transfer& t, LinkTable& links, Time forget_before) const;
  // What is left of a hop once it is booked: the sender's release after the first, the arrival after the last, or
  // the next hop's key.
  static CommitStep after_hop(Transfer& t, bool last_hop, Time start, Time end);

  const CostTable& cost_;
  RangeCheck in_range_;
};

CommitStep StoreAndForward::commit_hop(Transfer& t, LinkTable& links, Time forget_before) const {
  if (t.forwarding.packet_end.size() == 1) return commit_packet(t, links, forget_before);
  Forwarding& f = t.forwarding;
  TransferTimes& x = t.times;
  const std::size_t packets = f.packet_end.size();
  const std::uint32_t hop = f.hop;
  const bool last_hop = hop + 1 == t.route.links.size();

  // With packet p arriving at a_p, starting at s_0 the packets leave at e_p = max(a_p, e_{p-1}) + T_p: the link is
  // held from s_0 to max(s_0 + ΣT, max_{p>=1} (a_p + Σ_{q>=p} T_q)).
  const bool split = cost_.is_split(t.bytes);
  Time total = 0, tail = 0;
  for (std::size_t p = packets; p-- > 0;) {
    total += cost_.hop_packet(cost_.packet_bytes(t.bytes, p), split);
    if (p > 0) tail = std::max(tail, f.packet_end[p] + total);
  }
  const int link = t.route.links[hop];
  const Time start = links.book({&link, 1}, f.packet_end[0], total, t.source, forget_before, tail);
  Time end = start;
  for (std::size_t p = 0; p < packets; ++p) {
    const std::size_t size = cost_.packet_bytes(t.bytes, p);
    const Time packet_start = p == 0 ? start : std::max(f.packet_end[p], end);
    end = packet_start + cost_.hop_packet(size, split);
    f.packet_end[p] = end;
    if (last_hop) x.input_hold += cost_.hop_packet(size, split);
    if (p == 0 && last_hop) x.first_byte = packet_start + cost_.startup(size);
  }
  return after_hop(t, last_hop, start, end);
}

CommitStep StoreAndForward::commit_packet(Transfer& t, LinkTable& links, Time forget_before) const {
  Forwarding& f = t.forwarding;
  TransferTimes& x = t.times;
  const bool last_hop = f.hop + 1 == t.route.links.size();
  const int link = t.route.links[f.hop];
  const Time start = links.book({&link, 1}, f.packet_end[0], t.duration, t.source, forget_before, 0);
  const Time end = start + t.duration;
  f.packet_end[0] = end;
  if (last_hop) {
    x.input_hold += t.duration;
    x.first_byte = start + cost_.startup(t.bytes);
  }
  return after_hop(t, last_hop, start, end);
}

CommitStep StoreAndForward::after_hop(Transfer& t, bool last_hop, Time start, Time end) {
  Forwarding& f = t.forwarding;
  TransferTimes& x = t.times;
  CommitStep result;
  f.hop_start = start;
  f.hop_end = end;
  if (f.hop == 0) {
    x.start = start;
    x.sender_done = end;  // every packet has left the sender
    result.sender_released = true;
  }
  if (last_hop) {
    x.arrival = end;
    result.arrived = true;
    return result;
  }
  ++f.hop;
  t.key.ready = f.packet_end[0];  // the next hop is ready when the first packet has arrived
  t.key.step = f.hop;
  result.more = true;
  return result;
}

}  // namespace

std::unique_ptr<TransferModel> make_store_and_forward(const CostTable& cost, const Wiring& wiring) {
  return std::make_unique<StoreAndForward>(cost, wiring);
}

}  // namespace hcemu::timing
