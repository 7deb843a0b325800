#include <ostream>

#include <CLI/CLI.hpp>

#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "hcemu/errors.hpp"

namespace hcemu::cli {

int run_main(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"hcemu: an emulator of hypercube multicomputers (Intel iPSC/860, iPSC, link-bound cubes).\n"
               "Full usage: docs/cli.md.",
               "hcemu"};
  app.require_subcommand(1);
  std::vector<std::pair<std::string, Action>> commands = {
      {"run", add_run_command(app)},     {"plan", add_plan_command(app)},
      {"sweep", add_sweep_command(app)}, {"fit", add_fit_command(app)},
      {"configs", add_configs_command(app)},
  };

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e, out, err);
    return code == 0 ? kExitOk : kExitUsage;
  }
  try {
    for (auto& [name, action] : commands)
      if (app.got_subcommand(name)) return action(out, err);
    return kExitUsage;
  } catch (const ConfigError& e) {
    err << "hcemu: " << e.what() << '\n';
    return kExitUsage;
  } catch (const UsageError& e) {
    err << "hcemu: " << e.what() << '\n';
    return kExitUsage;
  } catch (const std::exception& e) {
    err << "hcemu: " << e.what() << '\n';
    return kExitRunFailed;
  }
}

}  // namespace hcemu::cli
