// The R x C torus of Suh, Shin & An (docs/model.md §1), or the mesh without its wrap-around: four directed links per
// node, routes x first, then y, each leg the shorter way round its ring (model/torus.hpp).
#include "timing/wiring.hpp"

namespace hcemu::timing {
namespace {

class Torus final : public Wiring {
 public:
  explicit Torus(const model::TorusShape& shape) : shape_(shape) {}

  int nodes() const override { return shape_.nodes(); }
  int link_count() const override { return model::torus_link_slots(shape_); }
  LinkEnds ends(int link) const override {
    const int from = link / model::kTorusDirections;
    const int direction = link % model::kTorusDirections;
    return {from, model::torus_neighbor(shape_, from, static_cast<Direction>(direction)), direction};
  }
  // A port per direction a message can arrive travelling in, and one for messages to oneself.
  int input_ports() const override { return model::kTorusDirections + 1; }

  void route(Route& r, int source, int destination, const model::TorusRoutePreference& ways) const override {
    r.links.clear();
    const model::TorusRoute path = model::torus_route(shape_, source, destination, ways);
    path.for_each_link([&](const model::TorusLink& link) { r.links.push_back(model::torus_link_index(link)); });
    r.in_port = path.hops() == 0 ? model::kTorusDirections : static_cast<int>(path.link(path.hops() - 1).direction);
  }

  // Every link of a ring carries the legs of routes from the other nodes of its row or column.
  bool private_to(int, int) const override { return false; }

 private:
  model::TorusShape shape_;
};

}  // namespace

std::unique_ptr<Wiring> make_torus(const model::TorusShape& shape) { return std::make_unique<Torus>(shape); }

}  // namespace hcemu::timing
