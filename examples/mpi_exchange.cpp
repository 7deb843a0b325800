// The tour's Direct exchange on a machine spread over MPI ranks (docs/mpi.md): started by
// `mpirun -np R hcemu_mpi_exchange`, every rank holds 2^d / R of the nodes, and every rank gets the whole report,
// which equals the run in one process and the closed form.
#include <hcemu/hcemu.hpp>
#include <hcemu/mpi.hpp>
#include <iostream>

int main(int argc, char** argv) {
  hcemu::mpi::Session session(argc, argv);  // MPI_Init_thread ... MPI_Finalize
  hcemu::MachineConfig config;
  config.d = 4;  // 16 nodes, 16 / R per rank
  config.lambda = 95.0;
  config.tau = 0.394;
  config.delta_msg = 15.45;
  config.barrier_b = 150.0;
  config.protocol = hcemu::Protocol::forced;

  const hcemu::Kernel direct = [](hcemu::Node& node) {
    const std::size_t m = 64;
    auto out = node.allocate<std::byte>(m * node.size());
    auto in = node.allocate<std::byte>(m * node.size());
    std::vector<hcemu::Request> receives;
    for (int k = 1; k < node.size(); ++k)
      receives.push_back(node.post_recv(node.id() ^ k, in.span().subspan((node.id() ^ k) * m, m), k));
    node.barrier();
    for (int k = 1; k < node.size(); ++k) {
      const int partner = node.id() ^ k;
      hcemu::Request send = node.isend(partner, out.span().subspan(partner * m, m), k);
      node.wait(receives[k - 1]);
      node.wait(send);
    }
  };
  hcemu::Machine spread = session.machine(config);  // over every rank of the job
  const hcemu::RunReport report = spread.run(direct);
  // The same machine in this process alone, to compare: a machine not given the session's Spread.
  const hcemu::RunReport alone = hcemu::Machine(config).run(direct);
  const double predicted = 150.0 * 4 + 15 * (95.0 + 15.45 + 0.394 * 64);
  if (session.rank() == 0) {
    report.print(std::cout);
    std::cout << std::fixed << "over " << report.ranks << " ranks: predicted " << predicted << " us, emulated "
              << report.makespan_us() << " us, in one process " << alone.makespan_us() << " us\n";
  }
  return report.makespan == hcemu::from_us(predicted) && alone.makespan == report.makespan ? 0 : 1;
}
