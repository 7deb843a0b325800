// The hypercube of docs/model.md §1: link k of node i leads to i ^ 2^k; e-cube routing corrects the differing
// bits from the lowest to the highest.
#include <bit>

#include "timing/wiring.hpp"

namespace hcemu::timing {
namespace {

class Hypercube final : public Wiring {
 public:
  explicit Hypercube(int d) : d_(d) {}

  int nodes() const override { return 1 << d_; }
  int link_count() const override { return d_ << d_; }
  LinkEnds ends(int link) const override {
    const int from = link / d_, dim = link % d_;
    return {from, from ^ (1 << dim), dim};
  }
  int input_ports() const override { return d_ + 1; }  // one per dimension, and oneself

  void route(Route& r, int source, int destination, const model::TorusRoutePreference&) const override {
    r.links.clear();
    for_each_ecube_link(d_, source, destination, [&](int link) { r.links.push_back(link); });
    const unsigned diff = static_cast<unsigned>(source ^ destination);
    // The last hop corrects the highest differing bit: the message comes in on that dimension's link.
    r.in_port = diff == 0 ? d_ : static_cast<int>(std::bit_width(diff)) - 1;
  }

  // Link (a, k) is used by the routes whose source agrees with a on the bits from k up (the lower ones are already
  // corrected when the message is at a): 2^k sources. Only the dimension-0 links have one source, their own node.
  bool private_to(int link, int source) const override { return link == source * d_; }  // (source, 0)
  int ecube_dimension() const override { return d_; }

 private:
  int d_;
};

}  // namespace

std::unique_ptr<Wiring> make_hypercube(int d) { return std::make_unique<Hypercube>(d); }

std::unique_ptr<Wiring> make_wiring(const MachineConfig& config) {
  if (!config.topology.grid()) return make_hypercube(config.d);
  const auto [rows, cols] = config.topology.sides(config.d);
  return make_torus(model::TorusShape{rows, cols, config.topology.kind == hcemu::Topology::Kind::torus});
}

}  // namespace hcemu::timing
