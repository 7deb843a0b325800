#pragma once
// A node's port resources (docs/model.md §4). Owned and touched by the node alone: its sends take the output side
// once their start is known, its receives take the input side when its program completes them. Beside the cost
// table, below the timing layer, so that a closed form that follows a schedule's chains (model/outer_product_chain.hpp)
// queues at the ports by the emulator's own rules.
#include <boost/container/small_vector.hpp>
#include <cstdint>

#include "hcemu/config.hpp"
#include "hcemu/time.hpp"

namespace hcemu::timing {

class PortState {
 public:
  // `input_ports`: one per incoming link and one for oneself (Wiring::input_ports), used by `all`. `overlap`: the
  // share of a hold, in millionths (CostTable::port_overlap), by which the node's next transfer may overlap it
  // (docs/model.md §14).
  PortState(const Ports& ports, int input_ports, std::int64_t overlap = 0);
  void reset();  // every resource free at time 0

  // When the output resource can next start a transfer, and which channel that is (-1: the model has no output
  // port besides the first link, as under `all`).
  struct Slot {
    int channel;
    Time free;
  };
  Slot output_slot() const;
  // The transfer that started at `start` holds its channel until `until`, less the overlap's share of that hold.
  void take_output(int channel, Time start, Time until);
  bool has_output() const { return !out_free_.empty(); }

  // docs/model.md §4: a message matched now completes at max(arrival, input_free + hold), and holds the input
  // resource until then, less the overlap's share of its hold (§14). `in_port` is the port it arrived on
  // (Route::in_port).
  Time input_completion(Time arrival, Time hold, int in_port) const;
  Time take_input(Time arrival, Time hold, int in_port);
  // Whether the input shares its resource with the output (`half`), so that taking it must wait for the node's
  // own transfers to be placed.
  bool input_shares_output() const { return kind_ == Ports::Kind::half; }

 private:
  int input_index(int in_port, Time arrival, Time hold) const;
  Ports::Kind kind_;
  std::int64_t overlap_;
  // Inside the node's own object, not in blocks of their own: every message a node sends or receives reads one, long
  // after the node last ran.
  boost::container::small_vector<Time, 2> out_free_;
  boost::container::small_vector<Time, 2> in_free_;  // for `half` the single entry of out_free_ is used instead
};

}  // namespace hcemu::timing
