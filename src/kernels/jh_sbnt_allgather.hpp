#pragma once
// An all-to-all broadcast along N translated spanning trees (model::TreeSchedule), step by step, so that two of them
// in disjoint subcubes can run side by side (Johnsson & Ho 1987 §5.2.1: the n-port two-dimensional algorithm 1
// broadcasts C within processor rows and D within processor columns at the same time). Step s: pack(s), send(s),
// wait for arrivals(s), unpack(s). The default trees are the SBnT's, SBnT-b(n,N).
#include <cstddef>
#include <span>
#include <vector>

#include "hcemu/kernels/subcube.hpp"
#include "hcemu/model/spanning_trees.hpp"
#include "hcemu/node.hpp"
#include "jh_cube.hpp"
#include "jh_sbnt_schedule.hpp"

namespace hcemu::kernels::detail {

class TreeAllgather {
 public:
  // Posts every receive; `all` holds one m-byte block per coordinate of `cube`, and `schedule_of(dims)` gives the
  // trees. Not a collective of its own: the caller's CollectiveScope holds it, and `tag` tells its messages from
  // those of another TreeAllgather the caller runs step by step beside it (the two of a 2-D matrix multiplication).
  TreeAllgather(Node& node, std::span<std::byte> all, std::size_t m, Subcube cube, int tag,
                model::TreeSchedule (*schedule_of)(int n) = model::sbnt_all_port_schedule);
  int steps() const { return steps_; }
  // Copies the blocks (parts) of step s (1-based) into one message per port (Node::copy, ρ per byte).
  void pack(int s);
  void send(int s);
  std::vector<Request>& arrivals(int s) { return arriving_[static_cast<std::size_t>(s - 1)]; }
  // Copies the blocks (parts) that arrived in step s to their places in `all` (Node::copy).
  void unpack(int s);
  void finish();  // waits for the sends

 private:
  std::span<std::byte> buffer(std::vector<std::vector<Buffer<std::byte>>>& buffers, int s, std::size_t port) {
    return buffers[static_cast<std::size_t>(s - 1)][port].span();
  }
  // Where a route's bytes are in `all`, and the bytes of a list of routes.
  std::span<std::byte> place(const Route& route) const;
  std::size_t bytes(const std::vector<Route>& routes) const;
  Node& node_;
  std::span<std::byte> all_;
  std::size_t m_;
  CubeView view_;
  int tag_;
  int steps_ = 0;
  std::size_t parts_ = 1;
  SbntSchedule schedule_;
  std::vector<std::vector<Buffer<std::byte>>> outgoing_, incoming_;
  std::vector<std::vector<Request>> arriving_;
  std::vector<Request> sends_;
};

// Runs a TreeAllgather on its own, every step in turn, in a collective scope of its own.
void tree_allgather(Node& node, std::span<std::byte> all, std::size_t m, Subcube cube,
                    model::TreeSchedule (*schedule_of)(int n));

}  // namespace hcemu::kernels::detail
