// `hcemu`: the command line of the emulator. Everything is in hcemu_tools (src/cli); see docs/cli.md.
#include <iostream>

#include "cli/commands.hpp"
#include "cli/output_file.hpp"

#if defined(HCEMU_WITH_MPI)
#include "cli/mpi_main.hpp"
#endif

int main(int argc, char** argv) {
#if defined(HCEMU_WITH_MPI)
  if (hcemu::mpi::launched_by_mpirun()) return hcemu::cli::run_main_on_ranks(argc, argv);
#endif
  // Standard output through a buffer that checks every write: run_main reports one that failed (output_file.hpp).
  return hcemu::cli::run_main(argc, argv, hcemu::cli::standard_output(), std::cerr);
}
