// The README's tour of the API, compiled and run by the test suite so that the two stay in step.
#include <hcemu/hcemu.hpp>
#include <iostream>

int main() {
  hcemu::MachineConfig config;     // every key of docs/model.md; times in µs, sizes in bytes
  config.d = 3;                    // 8 nodes
  config.lambda = 95.0;            // start-up λ
  config.tau = 0.394;              // τ per byte
  config.delta_msg = 15.45;        // circuit set-up per message, δ'
  config.barrier_b = 150.0;        // barrier Q(d) = 150·d µs
  config.ports = hcemu::Ports::parse("one");
  config.protocol = hcemu::Protocol::forced;

  hcemu::Machine machine(config);
  hcemu::RunReport report = machine.run([](hcemu::Node& node) {
    // Direct complete exchange, XOR schedule (Bokhari 1993 §2.2): post every receive, barrier, then exchange.
    const std::size_t m = 64;
    auto out = node.allocate<std::byte>(m * node.size());  // from the node's own arena
    auto in = node.allocate<std::byte>(m * node.size());
    std::vector<hcemu::Request> receives;
    for (int k = 1; k < node.size(); ++k)
      receives.push_back(node.post_recv(node.id() ^ k, in.span().subspan((node.id() ^ k) * m, m), k));
    node.barrier();  // under FORCED, no message may leave before every receive is posted
    for (int k = 1; k < node.size(); ++k) {
      const int partner = node.id() ^ k;
      hcemu::Request send = node.isend(partner, out.span().subspan(partner * m, m), k);
      node.wait(receives[k - 1]);
      node.wait(send);
    }
  });
  report.print(std::cout);  // makespan, per-node clocks, messages, links, discards
  // (2^3 - 1) transfers of λ + δ' + τ·64 after the barrier: the closed form of docs/model.md §9.
  const double predicted = 150.0 * 3 + 7 * (95.0 + 15.45 + 0.394 * 64);
  std::cout << std::fixed << "predicted " << predicted << " us, emulated " << report.makespan_us() << " us\n";
  return report.makespan == hcemu::from_us(predicted) && report.forced_discards.empty() ? 0 : 1;
}
