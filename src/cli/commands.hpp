#pragma once
// The subcommands of `hcemu`. Each registers its options on a CLI11 subcommand and returns a function that runs it
// and gives the exit code (cli_error.hpp). Output goes to `out`, warnings to `err`;
// errors are thrown and run_main() reports them.
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "hcemu/config.hpp"

namespace CLI {
class App;
}

namespace hcemu::cli {

using Action = std::function<int(std::ostream& out, std::ostream& err)>;

Action add_run_command(CLI::App& app);
Action add_plan_command(CLI::App& app);
// `plan matmul`, a subcommand of `plan` (src/cli/plan_matmul_command.cpp).
Action add_plan_matmul_command(CLI::App& plan);
Action add_sweep_command(CLI::App& app);
Action add_fit_command(CLI::App& app);
Action add_configs_command(CLI::App& app);
// `hcemu help [command]`: the help of hcemu or of one command, as --help prints it (src/cli/help_command.cpp).
Action add_help_command(CLI::App& app);
// `hcemu version`, and the flag `hcemu --version` (src/cli/version_command.cpp).
Action add_version_command(CLI::App& app);

// Whether this process writes the files asked for (--trace, --csv, --plot): under mpirun only rank 0 does.
bool writes_files();
void set_writes_files(bool on);
// Where the command's machines run: this process alone, or under mpirun the ranks of its hcemu::mpi::Session. Every
// config the command builds carries it in its settings (ConfigBuilder).
const Spread& process_spread();
void set_process_spread(Spread spread);
// How many MPI ranks run this command together (1: none).
int process_ranks();
// The hosts of those ranks, in rank order (empty: none).
const std::vector<std::string>& process_hosts();
void set_process_hosts(std::vector<std::string> hosts);

// Parses argv and runs the chosen subcommand: the whole of `hcemu`, callable from tests. Flushes `out` at the end;
// when it could not be written, says so ("hcemu: standard output: No space left on device") and returns 1.
int run_main(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace hcemu::cli
