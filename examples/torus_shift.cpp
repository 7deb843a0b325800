// A kernel of one's own on a 2-D torus: every node passes a block to its +x neighbour, then the block it got to its
// +y neighbour, so that node (x, y) ends with the block of node (x - 1, y - 1). Written against the node API only
// (coordinates(), neighbor(Direction)), compiled and run by the test suite (example.torus_shift), and checked against
// its closed form worked by hand. Copy it to start a torus kernel of your own (docs/kernels/torus.md).
#include <atomic>
#include <hcemu/hcemu.hpp>
#include <iostream>

namespace {

// One ring step: receive from the node behind us in `direction`'s ring, send to the node ahead. Every node does it at
// once, so every link of the ring carries one message, and no two messages share a link.
void ring_step(hcemu::Node& node, hcemu::Direction ahead, hcemu::Direction behind, std::span<const std::byte> out,
               std::span<std::byte> in) {
  hcemu::Request receive = node.post_recv(node.neighbor(behind), in, 0);
  hcemu::Request send = node.isend(node.neighbor(ahead), out, 0);
  node.wait(receive);
  node.wait(send);
}

}  // namespace

int main() {
  hcemu::MachineConfig config;
  config.d = 5;                                           // 2^5 = 32 nodes ...
  config.topology = hcemu::Topology::parse("torus:4x8");  // ... as 4 rows of 8 (node (x, y) has id y·8 + x)
  config.lambda = 50.0;                                   // start-up λ, µs
  config.tau = 0.01;                                      // τ, µs per byte
  config.delta_msg = 2.0;                                 // circuit set-up per message δ', µs
  config.delta_hop = 0.5;                                 // and per hop δ, µs
  config.ports = hcemu::Ports::parse("one");              // one send and one receive at a time
  config.protocol = hcemu::Protocol::unforced;            // a message may arrive before its receive
  const std::size_t m = 1000;

  std::atomic<int> wrong = 0;  // the nodes are threads
  hcemu::Machine machine(config);
  hcemu::RunReport report = machine.run([&](hcemu::Node& node) {
    auto mine = node.allocate<std::byte>(m);
    auto middle = node.allocate<std::byte>(m);
    auto last = node.allocate<std::byte>(m);
    for (auto& b : mine.span()) b = static_cast<std::byte>(node.id());
    ring_step(node, hcemu::Direction::plus_x, hcemu::Direction::minus_x, mine.span(), middle.span());  // along x
    ring_step(node, hcemu::Direction::plus_y, hcemu::Direction::minus_y, middle.span(), last.span());  // along y
    // The block came from (x - 1, y - 1), round the wrap-around links where x or y is 0.
    const hcemu::Coordinates at = node.coordinates();
    const int from_x = (at.x + node.cols() - 1) % node.cols(), from_y = (at.y + node.rows() - 1) % node.rows();
    const auto expected = static_cast<std::byte>(from_y * node.cols() + from_x);
    for (std::byte b : last.span())
      if (b != expected) {
        ++wrong;
        break;
      }
  });
  report.print(std::cout);
  // By hand: two steps, each one message of m bytes over one hop, every node at once on links of its own (no
  // contention): 2·(λ + δ' + δ·1 + τ·m) under circuit switching (docs/model.md).
  const double predicted = 2 * (50.0 + 2.0 + 0.5 * 1 + 0.01 * static_cast<double>(m));
  std::cout << std::fixed << "predicted " << predicted << " us, emulated " << report.makespan_us() << " us, "
            << report.contention_events() << " contention events, " << wrong << " wrong blocks\n";
  return report.makespan == hcemu::from_us(predicted) && report.contention_events() == 0 && wrong == 0 ? 0 : 1;
}
