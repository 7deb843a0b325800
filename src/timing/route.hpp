#pragma once
// The directed links a message crosses, in order (docs/model.md §1), and the input port it arrives on.
#include <boost/container/small_vector.hpp>

namespace hcemu::timing {

struct Route {
  // Link indices of the topology, first hop first. A hypercube route has at most d hops; a torus route may be
  // longer, which only costs an allocation on those rare long routes.
  boost::container::small_vector<int, 16> links;
  // The receiver's input port the message arrives on (all-port nodes have one per incoming link); the topology's
  // self_port() for a message to oneself.
  int in_port = 0;

  int hops() const { return static_cast<int>(links.size()); }
};

}  // namespace hcemu::timing
