// `hcemu version` and `hcemu --version`: the version, the commit, the build and whether MPI is in it.
#include <CLI/CLI.hpp>
#include <ostream>

#include "report/build_info.hpp"
#include "cli/cli_error.hpp"
#include "cli/commands.hpp"

namespace hcemu::cli {

namespace {

// "hcemu 0.1.0 (commit 1a2b3c4d5e6f)\nbuild: RelWithDebInfo, GNU 12.2.0, with MPI".
std::string version_text() {
  const hcemu::detail::BuildInfo& b = hcemu::detail::build_info();
  std::string text = "hcemu " + std::string(b.version);
  if (!b.git_commit.empty()) text += " (commit " + std::string(b.git_commit) + ")";
  text += "\nbuild: " + std::string(b.build_type) + ", " + std::string(b.compiler) +
          (b.mpi ? ", with MPI" : ", without MPI");
  return text;
}

}  // namespace

Action add_version_command(CLI::App& app) {
  constexpr const char* kWhat = "Print the version, the git commit, the build type and compiler, and whether MPI is in";
  app.set_version_flag("--version", version_text(), kWhat);
  app.add_subcommand("version", kWhat);
  return [](std::ostream& out, std::ostream&) {
    out << version_text() << '\n';
    return kExitOk;
  };
}

}  // namespace hcemu::cli
