#pragma once
// What this build of hcemu is: the version of CMake's project(), the git commit it was configured from, how it was
// compiled, and whether MPI is in it. CMake fills it in (build_info.cpp.in); `hcemu --version` prints it and every
// JSON document's context carries it (report/json_context.hpp).
#include <string_view>

namespace hcemu::detail {

struct BuildInfo {
  std::string_view version;     // "0.1.0"
  std::string_view git_commit;  // the commit checked out when CMake configured the build; empty outside a git checkout
  std::string_view build_type;  // CMAKE_BUILD_TYPE: "RelWithDebInfo", "Debug", ...
  std::string_view compiler;    // "GNU 12.2.0"
  bool mpi = false;             // built with MPI (HCEMU_WITH_MPI): under mpirun the command spreads its machines
};

const BuildInfo& build_info();

}  // namespace hcemu::detail
