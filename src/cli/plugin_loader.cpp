#include "cli/plugin_loader.hpp"

#include <dlfcn.h>

#include <cstring>
#include <filesystem>
#include <string_view>

#include "harness/algorithm.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/plugin.hpp"

namespace hcemu::cli {

namespace {

// A loaded library's rows wait while it is checked (harness::hold_registrations): they are registered only when it
// was built against this hcemu, and dropped otherwise.
class HeldRegistrations {
 public:
  HeldRegistrations() { harness::hold_registrations(); }
  ~HeldRegistrations() {
    if (!released_) harness::release_registrations(false);
  }
  HeldRegistrations(const HeldRegistrations&) = delete;
  HeldRegistrations& operator=(const HeldRegistrations&) = delete;
  void keep() {
    released_ = true;
    harness::release_registrations(true);
  }

 private:
  bool released_ = false;
};

// Why dlopen refused the file, as a sentence for "--load FILE: ...".
std::string load_failure(const std::string& error) {
  if (error.find("invalid ELF header") != std::string::npos || error.find("file too short") != std::string::npos ||
      error.find("not an ELF") != std::string::npos)
    return "not a shared library (" + error + ")";
  if (error.find("undefined symbol") != std::string::npos)
    return "it needs a function this program does not export (" + error +
           "); a library of rows takes hcemu's functions from the program that loads it: the hcemu command exports "
           "them all, a program of one's own only when linked with ENABLE_EXPORTS; a library built against another "
           "hcemu version can also ask for one this version has not";
  return "cannot load it (" + error + ")";
}

}  // namespace

void load_library(const std::string& path) {
  const std::string where = "--load " + path + ": ";
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw UsageError(where + "no such file (a shared library of one's own algorithms, docs/your_algorithm.md)");
  if (std::filesystem::is_directory(path, ec)) throw UsageError(where + "a directory, not a shared library");
  // dlopen searches the library path for a bare name; a file named on the command line is the file there.
  const std::string file = path.find('/') == std::string::npos ? "./" + path : path;

  HeldRegistrations held;
  dlerror();
  void* library = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* error = dlerror();
    throw UsageError(where + load_failure(error ? error : "dlopen failed"));
  }
  // A refused library stays loaded: its rows were dropped, and nothing of it runs.
  using AbiFn = const char* (*)();
  auto abi = reinterpret_cast<AbiFn>(dlsym(library, "hcemu_plugin_abi_v1"));
  if (!abi)
    throw UsageError(where +
                     "not a library of hcemu algorithms: it has no hcemu_plugin_abi_v1, which HCEMU_PLUGIN() in one "
                     "of its sources defines (hcemu/plugin.hpp)");
  const std::string built_against = abi();
  if (built_against != HCEMU_PLUGIN_ABI)
    throw UsageError(where + "built against " + built_against + ", and this is " + HCEMU_PLUGIN_ABI +
                     "; rebuild it against this hcemu's package (find_package(hcemu) from its install prefix)");
  try {
    held.keep();
  } catch (const UsageError& e) {
    throw UsageError(where + e.what());
  }
}

std::vector<const char*> load_requested_libraries(int argc, const char* const* argv) {
  std::vector<const char*> rest;
  for (int i = 0; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (i == 0 || (word != "--load" && word.rfind("--load=", 0) != 0)) {
      rest.push_back(argv[i]);
      continue;
    }
    std::string path;
    if (word == "--load") {
      if (i + 1 >= argc) throw UsageError("--load needs a file: a shared library of one's own algorithms");
      path = argv[++i];
    } else {
      path = std::string(word.substr(std::strlen("--load=")));
    }
    if (path.empty()) throw UsageError("--load needs a file: a shared library of one's own algorithms");
    load_library(path);
  }
  return rest;
}

}  // namespace hcemu::cli
