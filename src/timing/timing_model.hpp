#pragma once
// Every "when" and "whether" of docs/model.md, in one place the runtime asks: when a message may start and when its
// bytes arrive (§3, §4, §7, §12: the config's TransferModel), whether a matched message is delivered, delivered late
// or discarded (§5: ProtocolRules), when a receive completes and in which order a wait takes its arrivals (§4), when
// a barrier releases (§6), what local work costs, and whether transfers are placed in model time at all (§8). The
// runtime only moves bytes and parks nodes.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "hcemu/config.hpp"
#include "hcemu/report.hpp"
#include "hcemu/time.hpp"
#include "timing/links.hpp"
#include "common/ports.hpp"
#include "timing/protocol.hpp"
#include "timing/transfer.hpp"
#include "timing/wiring.hpp"

namespace hcemu::timing {

class TimingModel {
 public:
  TimingModel(const MachineConfig& config, Timing timing);

  // How the nodes are wired (the config's hcemu::Topology made into links and routes).
  const Wiring& topology() const { return *wiring_; }
  PortState make_ports() const { return PortState(ports_, wiring_->input_ports(), cost_.port_overlap); }
  void reset();  // for the next run of the same machine

  // Whether transfers that may contend are placed in the model-time order of docs/model.md §7: false under native
  // timing, whose clocks are the host's and whose transfers hold nothing, so each is placed as it is issued.
  bool orders_in_model_time() const { return transfers_->keeps_model_time(); }

  // --- sending (docs/model.md §3, §4, §7) ---
  // The transfer issued by `source` at `issue`, taking the output resource from `ports` (whose earlier transfers
  // must all be placed: their holds applied with take_output).
  void issue(Transfer& t, const PortState& ports, int source, int destination, std::size_t bytes, Time issue,
             std::uint64_t seq, const model::TorusRoutePreference& ways = {}) const;
  bool books_alone(const Transfer& t) const { return transfers_->books_alone(t); }
  // Another process's copy of a transfer its sender issued, as the sender's record gives it (docs/mpi.md).
  void copy_issued(Transfer& t, int source, int destination, std::size_t bytes, Time ready, int channel,
                   std::uint64_t seq, Route route) const {
    transfers_->prepare_routed(t, source, destination, bytes, ready, channel, seq, std::move(route));
  }
  // Books the transfer's next step on the links. Callers serialise commits of transfers that share a link: see
  // LinkTable.
  CommitStep commit(Transfer& t, Time forget_before) { return transfers_->commit(t, links_, forget_before); }
  // The least time from the transfer's ready time to its arrival and to release_event below, whatever its bookings
  // (TransferModel::least_lead less the port overlap's share); 0 where the model cannot say before booking, and with
  // several output channels (release_event).
  Time least_lead(const Transfer& t) const { return several_outputs_ ? 0 : lead_past_release(t); }
  // The same where the transfer's release ends no wait of its sender, which bounds the release's event otherwise
  // (runtime/coordinator_batch.cpp): its arrival, and on one output its release too. Differs only with several.
  Time lead_past_release(const Transfer& t) const {
    const Time lead = transfers_->least_lead(t);
    return lead - cost_.overlap(lead);
  }
  bool several_outputs() const { return several_outputs_; }
  // The sender's output resource is held until the transfer has left it, less the overlap's share (docs/model.md
  // §14).
  static void take_output(PortState& ports, const Transfer& t) {
    ports.take_output(t.channel, t.times.start, t.times.sender_done);
  }
  // When the sender's output resource is free for its next transfer: the earliest ready time of what the sender
  // issues once this transfer is released (docs/model.md §4, §14).
  Time output_free(const TransferTimes& x) const {
    return x.sender_done - cost_.overlap(x.sender_done - x.start);
  }
  // No earlier than this, the sender, told that its transfer (queued at `ready`, times `x`) has been placed, can
  // issue its next one (docs/model.md §4, §7). With one output resource that is output_free. With k:N channels, N >=
  // 2, a sender waits for its transfers to be placed only to learn which channel frees first; its next transfer may
  // take another channel, free since before `ready`, and be ready at the sender's clock, which is no earlier than
  // this transfer's ready time (its issue came after this one's, and every channel is free no earlier than the one
  // this transfer took).
  Time release_event(const TransferTimes& x, Time ready) const { return several_outputs_ ? ready : output_free(x); }

  // --- receiving (docs/model.md §4, §5) ---
  MatchOutcome on_match(const TransferTimes& message, Time posted) const { return protocol_.on_match(message, posted); }
  // The receive completes at max(posted, completion through the input resource), plus the copy out of the system
  // buffer for a late UNFORCED message. take_* holds the input resource; peek_* only looks.
  Time take_receive(PortState& ports, const TransferTimes& message, std::size_t bytes, Time posted, bool late) const;
  Time peek_receive(const PortState& ports, const TransferTimes& message, std::size_t bytes, Time posted,
                    bool late) const;
  // Inside one wait, arrivals take the input resource in order of arrival, ties by source id.
  static bool takes_input_before(const TransferTimes& a, int source_a, const TransferTimes& b, int source_b) {
    return a.arrival != b.arrival ? a.arrival < b.arrival : source_a < source_b;
  }

  // --- synchronisation and local work (docs/model.md §6) ---
  // These throw TimeOverflow past the model's range.
  Time barrier_release(Time latest_entry) const;
  Time copy(std::size_t bytes) const;
  Time compute(std::uint64_t flops) const;
  Time elapse(Time t) const;

  // What every transfer's least_lead bounds (TransferModel::leads): where it bounds each booking, a window of
  // transfers can be placed by the processes that own their links (docs/mpi.md).
  TransferModel::Leads leads() const { return transfers_->leads(); }
  std::uint32_t leads_to_wake(const Transfer& t) const { return transfers_->leads_to_wake(t); }
  void copy_booking(int link, Time start, Time end, int owner, Time forget_before) {
    links_.copy(link, start, end, owner, forget_before);
  }
  // The links this process keeps, when it places only the transfers of nodes [first_node, first_node + nodes)
  // (LinkTable::keep_reachable_from), and whether it keeps one.
  void keep_links_from(int first_node, int nodes) { links_.keep_reachable_from(first_node, nodes); }
  bool keeps_link(int link) const { return links_.keeps(link); }

  std::vector<LinkStats> link_stats() const { return links_.stats(); }
  void record_links(bool on) { links_.record(on); }
  std::vector<LinkSpan> link_history() const { return links_.history(); }

 private:
  CostTable cost_;
  Ports ports_;
  bool several_outputs_;  // k:N ports, N >= 2 (release_event)
  ProtocolRules protocol_;
  int d_;
  std::unique_ptr<Wiring> wiring_;
  std::unique_ptr<TransferModel> transfers_;
  LinkTable links_;
};

}  // namespace hcemu::timing
