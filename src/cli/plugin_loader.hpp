#pragma once
// `--load FILE.so` (docs/your_algorithm.md): a shared library of one's own algorithms, built against the installed
// package with hcemu/plugin.hpp, whose rows join the registry (hcemu/algorithm.hpp) before the command line is built,
// so that run, sweep, plan, fit, --help and --algo all see them as they see the built-in ones.
#include <string>
#include <vector>

namespace hcemu::cli {

// argv without the --load FILE and --load=FILE it holds, before the command or after it, each library loaded in the
// order given. Throws UsageError naming the file when one cannot be loaded: missing, not a shared library, not a
// library of rows (no HCEMU_PLUGIN()), built against another hcemu, or registering a name that is taken.
std::vector<const char*> load_requested_libraries(int argc, const char* const* argv);

// One library. Loading one again does nothing.
void load_library(const std::string& path);

}  // namespace hcemu::cli
