#include "cli/json_document.hpp"

#include <string>
#include <vector>

#include "cli/commands.hpp"

namespace hcemu::cli {

namespace {

std::vector<std::string>& command_line() {
  static std::vector<std::string> words;
  return words;
}

}  // namespace

void set_command_line(int argc, const char* const* argv) {
  command_line().assign(argv, argv + argc);
}

nlohmann::json run_context(std::string_view command, const MachineSetup* machine) {
  return hcemu::detail::json_context({command, command_line(), process_ranks(), machine ? &machine->config : nullptr,
                                      machine ? &machine->settings : nullptr});
}

nlohmann::json json_document(std::string_view command, const MachineSetup* machine, std::string_view key,
                             nlohmann::json payload) {
  nlohmann::json j;
  j["schema_version"] = kJsonSchemaVersion;
  j["context"] = run_context(command, machine);
  j[std::string(key)] = std::move(payload);
  return j;
}

}  // namespace hcemu::cli
