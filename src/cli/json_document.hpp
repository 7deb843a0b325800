#pragma once
// The one shape of every `--json` output, so that a script reads every command the same way:
//   {"schema_version": N, "context": {...}, "<payload>": ...}
// `context` says what made the output (build, host, time, command line, machine settings); the payload is the
// command's own: `runs` for run and sweep, `plan` for plan, `fit` for fit, `presets` or `keys` for configs.
// docs/cli.md ("JSON output") lists every field; docs/hcemu-run.schema.json is run's and sweep's JSON Schema.
#include <nlohmann/json.hpp>
#include <string_view>

#include "hcemu/config_keys.hpp"
#include "report/json_context.hpp"

namespace hcemu::cli {

using hcemu::detail::kJsonSchemaVersion;

// The command line that the context reports (run_main records it).
void set_command_line(int argc, const char* const* argv);

// What made the output (report/json_context.hpp): the build, the host and its hardware threads, the UTC date and
// time, the command and its command line, the MPI ranks, and the machine's config name, engine, workers and timing
// mode (null for a command without a machine).
nlohmann::json run_context(std::string_view command, const MachineSetup* machine);

// {"schema_version", "context", key: payload}. `command` names the subcommand ("run", "plan matmul").
nlohmann::json json_document(std::string_view command, const MachineSetup* machine, std::string_view key,
                             nlohmann::json payload);

}  // namespace hcemu::cli
