#pragma once
// How the nodes are wired: the directed links, the route of a message, and which links only one source can ever
// book (docs/model.md §1). One implementation per kind of hcemu::Topology (the config's name for the shape), one
// file each; the timing layer sees only this.
#include <bit>
#include <memory>
#include <string>

#include "hcemu/config.hpp"
#include "hcemu/model/torus.hpp"
#include "timing/route.hpp"

namespace hcemu::timing {

// The two ends of a directed link and its name in reports.
struct LinkEnds {
  int from = 0;
  int to = 0;
  int label = 0;  // hypercube: the dimension it crosses
};

class Wiring {
 public:
  virtual ~Wiring() = default;

  virtual int nodes() const = 0;
  virtual int link_count() const = 0;
  virtual LinkEnds ends(int link) const = 0;
  // Input ports of a node: one per link that ends at it, plus one for messages to oneself (the last).
  virtual int input_ports() const = 0;
  int self_port() const { return input_ports() - 1; }

  // On a torus, `ways` says which way round its ring each leg goes (a cube ignores it). Written into `r`, whose
  // storage a message in flight reuses, rather than returned.
  virtual void route(Route& r, int source, int destination, const model::TorusRoutePreference& ways = {}) const = 0;
  // True when no source but `source` can ever route a message over `link`: a booking on it need not wait for
  // the other nodes' clocks (docs/model.md §7 orders only what can contend).
  virtual bool private_to(int link, int source) const = 0;
  // d where every route is the hypercube's e-cube route (for_each_ecube_link), which its two ends give; 0 otherwise.
  virtual int ecube_dimension() const { return 0; }
};

// The e-cube route on the d-cube (docs/model.md §1): link k of node i is link i * d + k, and the route corrects the
// bits where `source` and `destination` differ from the lowest up. Calls f(link) for each, first hop first.
template <class F>
void for_each_ecube_link(int d, int source, int destination, F&& f) {
  int at = source;
  for (auto rest = static_cast<unsigned>(source ^ destination); rest != 0; rest &= rest - 1) {
    const int k = std::countr_zero(rest);
    f(at * d + k);
    at ^= 1 << k;
  }
}

// The 2^d-node hypercube with e-cube routing.
std::unique_ptr<Wiring> make_hypercube(int d);
// An R x C torus or mesh with dimension-ordered routing (model/torus.hpp).
std::unique_ptr<Wiring> make_torus(const model::TorusShape& shape);
// The wiring of the config's hcemu::Topology.
std::unique_ptr<Wiring> make_wiring(const MachineConfig& config);

}  // namespace hcemu::timing
