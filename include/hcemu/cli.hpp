#pragma once
// The whole `hcemu` command as a function (CMake target hcemu::cli), for a program of one's own that registers its own
// algorithms (hcemu/algorithm.hpp) and gets every subcommand, option and output format with them beside the built-in
// ones, as Google Benchmark's BENCHMARK_MAIN() gives a program its benchmarks' command line:
//
//   #include "hcemu/algorithm.hpp"
//   #include "hcemu/cli.hpp"
//   HCEMU_REGISTER_FAMILY(allreduce_family());
//   int main(int argc, char** argv) { return hcemu::cli::main(argc, argv); }
//
//   ./myprog run allreduce --algo all -d 5 --preset ipsc860
//   ./myprog sweep allreduce --algo all -m 8,64,512,4096 --plot allreduce.svg
//
// docs/cli.md has every subcommand and option; docs/your_algorithm.md a whole example.
namespace hcemu::cli {

// Parses argv as `hcemu` does and runs the chosen subcommand: output on standard output, errors on standard error
// ("myprog: ..." is written "hcemu: ..."). Returns the exit code (docs/cli.md, "exit codes"): 0 success, 1 a run that
// failed verification or errored, 2 bad usage or config. Started by mpirun (hcemu built with MPI), every machine is
// spread over the ranks, as `mpirun hcemu` spreads them (docs/mpi.md).
int main(int argc, char** argv);

}  // namespace hcemu::cli
