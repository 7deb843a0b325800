#pragma once
// When a message moves, in model time (MODEL.md sections 3, 4 and 7). The runtime asks; this layer knows λ, τ,
// δ, ports and links, and nothing of kernels or threads.
#include <cstddef>
#include <cstdint>

#include "hcemu/config.hpp"
#include "hcemu/time.hpp"
#include "timing/links.hpp"
#include "timing/ports.hpp"

namespace hcemu::timing {

// A message's times, fixed by its sender when it is issued.
struct TransferTimes {
  Time start = 0;        // its first packet leaves
  Time sender_done = 0;  // a blocking send returns: circuit, the end; store-and-forward, the end of the first hop
  Time first_byte = 0;   // its first byte reaches the receiver (what FORCED compares with the post time)
  Time arrival = 0;      // its last byte reaches the receiver, if the receiver's input is free
  Time input_hold = 0;   // how long it holds the receiver's input resource
  int in_link = -1;      // the dimension of its last hop, -1 for a message to oneself
};

class TimingModel {
 public:
  TimingModel(const MachineConfig& config, Timing timing);

  // Books the sender's output resource and the links of the route; called by the sender's thread.
  TransferTimes send(PortState& sender, int src, int dst, std::size_t bytes, Time issue);
  // The receiver's program matches the message now: it takes the input resource; returns the completion.
  Time take_input(PortState& receiver, const TransferTimes& t) const {
    return receiver.take_input(t.arrival, t.input_hold, t.in_link);
  }
  Time peek_input(const PortState& receiver, const TransferTimes& t) const {
    return receiver.input_completion(t.arrival, t.input_hold, t.in_link);
  }

  Time late_copy(std::size_t bytes) const { return cost_.sys_copy * static_cast<Time>(bytes); }
  Time barrier() const { return cost_.barrier(d_); }
  Time copy(std::size_t bytes) const { return cost_.copy(bytes); }
  Time compute(std::uint64_t flops) const { return cost_.flop * static_cast<Time>(flops); }
  Time elapse(double us) const { return native_ ? 0 : from_us(us); }

  std::vector<LinkStats> link_stats() const { return links_.stats(); }
  void set_horizon(Time t) { links_.set_horizon(t); }  // see LinkTable::set_horizon

 private:
  TransferTimes send_circuit(PortState& sender, int src, int dst, std::size_t bytes, Time ready, int channel);
  TransferTimes send_store_and_forward(PortState& sender, int src, int dst, std::size_t bytes, Time ready,
                                       int channel);
  CostTable cost_;
  Switching switching_;
  int d_;
  bool native_;
  LinkTable links_;
};

}  // namespace hcemu::timing
