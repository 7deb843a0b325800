// myallreduce: the whole hcemu command, with the allreduce family (allreduce_family.cpp, registered when the program
// starts) beside the built-in ones:
//   ./myallreduce run allreduce --algo all -d 5
//   ./myallreduce sweep allreduce --algo all -d 5 -m 8,64,512,4096 --plot allreduce.svg
#include "hcemu/cli.hpp"

int main(int argc, char** argv) { return hcemu::cli::main(argc, argv); }
