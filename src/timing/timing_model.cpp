#include "timing/timing_model.hpp"

#include <algorithm>

#include "timing/checked_time.hpp"

namespace hcemu::timing {

namespace {
CostTable costs_for(const MachineConfig& config, Timing timing) {
  // Native timing injects no delay at all: every cost is zero and the clocks are real time.
  return timing == Timing::native ? CostTable{} : CostTable::from(config);
}
}  // namespace

TimingModel::TimingModel(const MachineConfig& config, Timing timing)
    : cost_(costs_for(config, timing)),
      ports_(config.ports),
      several_outputs_(config.ports.kind == Ports::Kind::k && config.ports.n >= 2),
      protocol_(config.protocol, cost_.sys_copy),
      d_(config.d),
      wiring_(make_wiring(config)),
      transfers_(make_transfer_model(config, timing, cost_, *wiring_)),
      links_(*wiring_) {}

void TimingModel::reset() { links_.reset(); }

void TimingModel::issue(Transfer& t, const PortState& ports, int source, int destination, std::size_t bytes,
                        Time issue, std::uint64_t seq, const model::TorusRoutePreference& ways) const {
  // docs/model.md §4: a transfer is ready when its sender has issued it and its output resource is free.
  const PortState::Slot slot = ports.output_slot();
  transfers_->prepare(t, source, destination, bytes, std::max(issue, slot.free), slot.channel, seq, ways);
}

Time TimingModel::take_receive(PortState& ports, const TransferTimes& message, std::size_t bytes, Time posted,
                               bool late) const {
  add_time(ports.input_completion(message.arrival, message.input_hold, message.in_port), 0, "a receive's completion");
  const Time through_input = ports.take_input(message.arrival, message.input_hold, message.in_port);
  return add_time(std::max(posted, through_input), protocol_.late_copy(bytes, late),
                  "a receive's completion");
}

Time TimingModel::barrier_release(Time latest_entry) const {
  return add_time(latest_entry, cost_.barrier(d_), "a barrier's release");
}
Time TimingModel::copy(std::size_t bytes) const { return scale_time(cost_.rho, bytes, "a copy"); }
// docs/model.md §14: every call also pays its fixed overhead.
Time TimingModel::compute(std::uint64_t flops) const {
  return add_time(scale_time(cost_.flop, flops, "a computation"), cost_.compute_overhead, "a computation");
}
Time TimingModel::elapse(Time t) const {
  if (t > kTimeLimit) time_overflow("an elapse");
  return orders_in_model_time() ? t : 0;  // native timing injects no delay
}

Time TimingModel::peek_receive(const PortState& ports, const TransferTimes& message, std::size_t bytes, Time posted,
                               bool late) const {
  const Time through_input = ports.input_completion(message.arrival, message.input_hold, message.in_port);
  return add_time(std::max(posted, through_input), protocol_.late_copy(bytes, late),
                  "a receive's completion");
}

}  // namespace hcemu::timing
