#include "cli/mpi_main.hpp"

#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/output_file.hpp"

namespace hcemu::cli {

namespace {

// How long a rank that has finished waits for the others before it ends them all (HCEMU_MPI_EXIT_WAIT, seconds).
double exit_wait_seconds() {
  if (const char* text = std::getenv("HCEMU_MPI_EXIT_WAIT")) {
    char* end = nullptr;
    const double s = std::strtod(text, &end);
    if (end != text && s >= 0) return s;
  }
  return 30;
}

}  // namespace

int run_main_on_ranks(int argc, char** argv) {
  std::optional<mpi::Session> session;
  try {
    session.emplace(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "hcemu: " << e.what() << '\n';
    return kExitRunFailed;
  }
  const int rank = session->rank();
  std::ostream quiet_out(nullptr);  // discards everything
  std::ostringstream quiet_err;     // kept: rank 0 prints it when only this rank failed
  set_writes_files(rank == 0);
  set_process_spread(session->spread());
  set_process_hosts(session->hosts());
  int code = run_main(argc, argv, rank == 0 ? standard_output() : quiet_out, rank == 0 ? std::cerr : quiet_err);

  // Agree on the exit code, without hanging on a rank that is still inside a run.
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(exit_wait_seconds());
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) break;
    if (std::chrono::steady_clock::now() > deadline) {
      const std::string mine = rank == 0 ? std::string() : quiet_err.str();
      std::cerr << (mine.empty() ? "hcemu: " : "hcemu (MPI rank " + std::to_string(rank) + "): ")
                << (mine.empty() ? "the other MPI ranks did not finish; ending them\n" : mine);
      std::cerr.flush();
      session->abort(code != 0 ? code : kExitRunFailed);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  int worst = 0;
  MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (worst != 0) {
    // Rank 0 says what went wrong when only other ranks saw it: the first of their errors, in rank order.
    const std::string first = session->first_of_ranks(code != 0 && rank != 0 ? quiet_err.str() : std::string());
    if (rank == 0 && code == 0) std::cerr << first;
  }
  return worst;
}

}  // namespace hcemu::cli
