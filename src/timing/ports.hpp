#pragma once
// A node's port resources (MODEL.md section 4). Owned and touched by the node's own thread only: its sends take
// the output side when they are issued, its receives take the input side when its program matches them.
#include <vector>

#include "hcemu/config.hpp"
#include "hcemu/time.hpp"

namespace hcemu::timing {

class PortState {
 public:
  PortState(const Ports& ports, int d);

  // When the output resource can next start a transfer, and which channel that is (-1: the model has no output
  // port besides the first link, as under `all`).
  struct Slot {
    int channel;
    Time free;
  };
  Slot output_slot() const;
  void take_output(int channel, Time until);

  // MODEL.md section 4: a message matched now completes at max(arrival, input_free + hold), and holds the input
  // resource until then. `in_link` is the dimension it arrived on (-1 for a message to oneself).
  Time input_completion(Time arrival, Time hold, int in_link) const;
  Time take_input(Time arrival, Time hold, int in_link);

 private:
  int input_index(int in_link, Time arrival, Time hold) const;
  Ports::Kind kind_;
  std::vector<Time> out_free_;
  std::vector<Time> in_free_;  // for `half` the single entry of out_free_ is used instead
};

}  // namespace hcemu::timing
