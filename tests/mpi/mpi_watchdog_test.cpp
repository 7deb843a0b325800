// The MPI transport's watchdog (docs/mpi.md): a rank that stops taking part ends the job, with a message, within
// mpi_timeout_seconds, instead of hanging every other rank with no word. Under `mpirun -np 2`, rank 1 stops itself
// (SIGSTOP, as a debugger or an overloaded host would) at the point the argument names, and rank 0 waits for it in
// the transport:
//   before_run  rank 1 stops before the run: rank 0 waits in the run's opening barrier;
//   in_round    node 1 (on rank 1) stops inside its kernel while node 0 waits for its message: rank 0 waits in a
//               round's all-gather (virtual timing);
//   native      the same under native timing: rank 0 polls, and waits in the count of the ranks.
// The timeout is 2 s (argument 2, if given: seconds). Rank 0 must print the watchdog's message and end the whole job
// with a non-zero exit; tests/mpi/watchdog_check.sh runs this and checks that, bounded in time.
#include <array>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "hcemu/hcemu.hpp"
#include "hcemu/mpi.hpp"

int main(int argc, char** argv) {
  hcemu::mpi::Session session(argc, argv);
  const std::string where = argc > 1 ? argv[1] : "in_round";
  if (session.ranks() != 2 || (where != "before_run" && where != "in_round" && where != "native")) {
    std::fprintf(stderr, "usage: mpirun -np 2 mpi_watchdog_test before_run|in_round|native [seconds]\n");
    return 2;
  }
  hcemu::MachineConfig config;
  config.d = 1;  // node 0 on rank 0, node 1 on rank 1
  config.lambda = 10;
  config.tau = 0.1;
  hcemu::EmulatorSettings settings;
  settings.mpi_timeout_seconds = argc > 2 ? std::atof(argv[2]) : 2;
  if (where == "native") settings.timing = hcemu::Timing::native;
  hcemu::Machine machine = session.machine(config, settings);

  if (where == "before_run" && session.rank() == 1) std::raise(SIGSTOP);
  machine.run([](hcemu::Node& node) {
    std::array<int, 1> value{};
    if (node.id() == 0) {
      node.recv(1, value);
    } else {
      std::raise(SIGSTOP);  // the whole process, rank 1, stops here
      node.send(0, value);
    }
  });
  std::fprintf(stderr, "mpi_watchdog_test: rank %d: the run ended, though rank 1 stopped\n", session.rank());
  return 3;
}
