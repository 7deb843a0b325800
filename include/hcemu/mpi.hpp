#pragma once
// Spreading a machine over MPI ranks (docs/mpi.md). Built when CMake finds MPI (HCEMU_WITH_MPI), in the library
// hcemu::mpi; the rest of hcemu never includes MPI.
//
//   int main(int argc, char** argv) {
//     hcemu::mpi::Session session(argc, argv);   // MPI_Init_thread ... MPI_Finalize
//     hcemu::Machine machine(config);             // its 2^d nodes in blocks of consecutive ids over the ranks
//     hcemu::RunReport report = machine.run(kernel);  // every rank runs it and gets the same whole report
//     if (session.rank() == 0) report.print(std::cout);
//   }
//
// Started by `mpirun -np R`, every rank makes the same machines in the same order and runs the same kernels on
// them; the clocks, contention counts, discards and results are exactly those of a run in one process.
#include <string>
#include <vector>

namespace hcemu::mpi {

class Session {
 public:
  // Initialises MPI (asking for MPI_THREAD_MULTIPLE) unless it is already, and registers the transport: from here on,
  // every Machine run on more than one rank is spread over them, and d may reach 16 + log2(ranks) (at most 20; make
  // the session before reading any config). Throws hcemu::Error when MPI cannot give threads.
  Session(int& argc, char**& argv);
  // Finalises MPI if this session initialised it.
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  int rank() const;
  int ranks() const;
  std::string host() const;  // this rank's host name
  // Every rank's host name, in rank order (a collective: every rank calls it).
  std::vector<std::string> hosts() const;
  // Ends every rank at once with `code` (MPI_Abort): for an error that only some ranks met.
  [[noreturn]] void abort(int code) const;
};

// While one lives, machines made on this thread run in this process alone, even in a session (tests compare the two).
class InProcess {
 public:
  InProcess();
  ~InProcess();
  InProcess(const InProcess&) = delete;
  InProcess& operator=(const InProcess&) = delete;
};

// True when this process was started by an MPI launcher (mpirun, srun): the environment says so.
bool launched_by_mpirun();

}  // namespace hcemu::mpi
