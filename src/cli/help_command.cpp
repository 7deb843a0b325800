// `hcemu help [command [subcommand]]`: the same text as `hcemu --help` and `hcemu <command> --help`.
#include <CLI/CLI.hpp>
#include <memory>
#include <ostream>

#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/config_builder.hpp"

namespace hcemu::cli {

namespace {

// "run, plan, sweep, fit, configs, help or version": the commands of `app`, as the parser's errors name them.
std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  return names;
}

std::string listed(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return text;
}

}  // namespace

Action add_help_command(CLI::App& app) {
  auto words = std::make_shared<std::vector<std::string>>();
  auto* sub = app.add_subcommand("help", "Print the help of hcemu, or of a command: hcemu help run, hcemu help plan "
                                         "matmul (the same as hcemu run --help)");
  sub->add_option("command", *words, "The command, and its subcommand");
  return [&app, words](std::ostream& out, std::ostream&) {
    const CLI::App* target = &app;
    std::string path = app.get_name();  // "hcemu plan matmul": how the usage line names the command
    for (const std::string& word : *words) {
      const CLI::App* next = nullptr;
      for (const CLI::App* candidate : target->get_subcommands([](const CLI::App*) { return true; }))
        if (candidate->get_name() == word) next = candidate;
      if (!next) {
        const auto names = command_names(*target);
        const std::string command = path.substr(app.get_name().size() + (target == &app ? 0 : 1));
        if (names.empty())
          throw UsageError("help: " + command + " has no subcommands, so none named '" + word + "' (hcemu help " +
                           command + ")");
        const std::string hint = nearest_key(word, names);
        const std::string of = target == &app ? "" : " of " + command;
        throw UsageError("help: no command '" + word + "'" + of +
                         (hint.empty() ? "" : " (did you mean '" + hint + "'?)") + "; the commands" + of + " are " +
                         listed(names));
      }
      target = next;
      path += " " + target->get_name();
    }
    out << target->get_formatter()->make_help(target, path, CLI::AppFormatMode::Normal);
    return kExitOk;
  };
}

}  // namespace hcemu::cli
