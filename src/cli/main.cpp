// `hcemu`: the command line of the emulator (docs/cli.md), all of it in hcemu::cli::main (hcemu/cli.hpp).
#include "hcemu/cli.hpp"

int main(int argc, char** argv) { return hcemu::cli::main(argc, argv); }
