#pragma once
// The two parts every hcemu JSON document opens with, `schema_version` and `context`, for the command's documents
// (cli/json_document.hpp) and the library's JsonReporter alike. docs/cli.md ("JSON output") lists every field.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "hcemu/config.hpp"

namespace hcemu::detail {

// Raised when a field changes meaning or goes away; a new field leaves it as it is.
inline constexpr int kJsonSchemaVersion = 5;

// What made a document: `command` (null when empty: the library's reporter), its command line, the MPI ranks, and the
// machine's config name, engine, workers and timing (null without a machine).
struct ContextSource {
  std::string_view command;
  std::vector<std::string> command_line;
  int ranks = 1;
  const MachineConfig* config = nullptr;
  const EmulatorSettings* settings = nullptr;
};

// The context: the build (build_info.hpp), the host and its hardware threads, the UTC date and time, and `source`.
nlohmann::json json_context(const ContextSource& source);

// This process's command line, argv[0] first (/proc/self/cmdline).
std::vector<std::string> own_command_line();

}  // namespace hcemu::detail
