// `hcemu`: the command line of the emulator. Everything is in hcemu_tools (src/cli); see docs/cli.md.
#include <iostream>

#include "cli/commands.hpp"

int main(int argc, char** argv) { return hcemu::cli::run_main(argc, argv, std::cout, std::cerr); }
