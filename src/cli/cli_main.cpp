// hcemu::cli::main (hcemu/cli.hpp): the whole `hcemu` command, for the hcemu binary and for a program of one's own
// with its own algorithms registered. Everything else is in hcemu_tools (src/cli); see docs/cli.md.
#include <iostream>

#include "cli/commands.hpp"
#include "cli/output_file.hpp"
#include "hcemu/cli.hpp"

#if defined(HCEMU_WITH_MPI)
#include "cli/mpi_main.hpp"
#endif

namespace hcemu::cli {

int main(int argc, char** argv) {
#if defined(HCEMU_WITH_MPI)
  if (hcemu::mpi::launched_by_mpirun()) return hcemu::cli::run_main_on_ranks(argc, argv);
#endif
  // Standard output through a buffer that checks every write: run_main reports one that failed (output_file.hpp).
  return hcemu::cli::run_main(argc, argv, hcemu::cli::standard_output(), std::cerr);
}

}  // namespace hcemu::cli
