#pragma once
// Spreading a machine over MPI ranks (docs/mpi.md). Built when CMake finds MPI (HCEMU_WITH_MPI), in the library
// hcemu::mpi; the rest of hcemu never includes MPI.
//
//   int main(int argc, char** argv) {
//     hcemu::mpi::Session session(argc, argv);       // MPI_Init_thread ... MPI_Finalize
//     hcemu::Machine machine = session.machine(config);  // its 2^d nodes in blocks of consecutive ids over the ranks
//     hcemu::RunReport report = machine.run(kernel);  // every rank runs it and gets the same whole report
//     if (session.rank() == 0) report.print(std::cout);
//   }
//
// Started by `mpirun -np R`, every rank makes the same spread machines in the same order and runs the same kernels
// on them; the clocks, contention counts, discards and results are exactly those of a run in one process. Only the
// machines given the session's Spread are spread: any other runs in its own process, as without a session.
#include <memory>
#include <string>
#include <vector>

#include "hcemu/config.hpp"
#include "hcemu/machine.hpp"

namespace hcemu::mpi {

class Session {
 public:
  // Initialises MPI (asking for MPI_THREAD_MULTIPLE) unless it is already, and opens the transport that spread
  // machines use, on a communicator of its own. Throws hcemu::Error when MPI cannot give threads.
  Session(int& argc, char**& argv);
  // Finalises MPI if this session initialised it. Every machine spread over it must be gone by then.
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  int rank() const;
  int ranks() const;

  // Where a machine runs when its settings carry this (EmulatorSettings::spread): over this session's ranks, so that
  // d may reach max_spread_dimension(engine, ranks()) (16 + log2(ranks) on the tasks engine, at most 20). On one
  // rank, this process alone.
  Spread spread() const;
  // A machine spread over this session's ranks: Machine(config, settings) with settings.spread = spread().
  Machine machine(MachineConfig config, EmulatorSettings settings = {}) const;
  // Every rank's `mine`, the first that is not empty, in rank order (a collective: every rank calls it).
  std::string first_of_ranks(const std::string& mine) const;

  std::string host() const;  // this rank's host name
  // Every rank's host name, in rank order (a collective: every rank calls it).
  std::vector<std::string> hosts() const;
  // Ends every rank at once with `code` (MPI_Abort): for an error that only some ranks met.
  [[noreturn]] void abort(int code) const;

 private:
  std::unique_ptr<detail::Transport> transport_;
  bool initialised_here_ = false;
};

// True when this process was started by an MPI launcher (mpirun, srun): the environment says so.
bool launched_by_mpirun();

}  // namespace hcemu::mpi
