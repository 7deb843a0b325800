#pragma once
// `mpirun -np R hcemu ...` (docs/mpi.md): every rank runs the same command, and every machine it makes is spread over
// the ranks (the session's Spread, in the settings of every config the command builds: set_process_spread). Rank 0 prints and writes files; the others keep quiet. All ranks end with the same exit code: at the end
// they agree on it, and rank 0 prints the first error of another rank if it met none itself. A rank that ends while
// the others are still stuck in a run (an error it met alone, before a run the others entered) waits a little for
// them, then prints its error and ends every rank with MPI_Abort, so that nothing hangs.
#include "hcemu/mpi.hpp"

namespace hcemu::cli {

int run_main_on_ranks(int argc, char** argv);

}  // namespace hcemu::cli
