#include <CLI/CLI.hpp>
#include <cctype>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/config_builder.hpp"
#include "cli/json_document.hpp"
#include "cli/kernel_options.hpp"
#include "cli/option_checks.hpp"
#include "cli/output_file.hpp"
#include "cli/plugin_loader.hpp"
#include "hcemu/algorithm.hpp"
#include "hcemu/errors.hpp"

namespace hcemu::cli {

namespace {

// The option a command-line word names ("--set" of "--set=x"), or "" where the word is no option (a value, or a
// negative number).
std::string option_of(const std::string& word) {
  if (word.size() < 2 || word.front() != '-' || std::isdigit(static_cast<unsigned char>(word[1]))) return "";
  return word.substr(0, word.find('='));
}

// The parser's error as one sentence for "hcemu: ...": which command it was about, the bad word, the choices.
std::string parse_error_sentence(const CLI::ParseError& e, const CLI::App& app,
                                 const std::vector<std::pair<std::string, Action>>& commands, int argc,
                                 const char* const* argv) {
  std::string names, command;
  std::vector<std::string> candidates;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    names += (i == 0 ? "" : i + 1 == commands.size() ? " or " : ", ") + commands[i].first;
    candidates.push_back(commands[i].first);
    if (app.got_subcommand(commands[i].first)) command = commands[i].first;
  }
  const std::string help = command.empty() ? "hcemu --help" : "hcemu " + command + " --help";
  std::string what = e.what();
  if (command.empty()) {
    if (argc < 2) return "a command is required: " + names + " (" + help + ")";
    const std::string word = argv[1];
    if (!word.empty() && word.front() != '-') {
      const std::string hint = nearest_key(word, candidates);
      return "unknown command '" + word + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
             "; the commands are " + names + " (" + help + ")";
    }
  }
  const std::string where = command.empty() ? "" : command + ": ";
  if (what.rfind("The following argument", 0) == 0) {
    // CLI11 lists the words last first: put them back in the order they were given.
    std::vector<std::string> words;
    for (const auto& word : CLI::detail::split(what.substr(what.find(':') + 2), ' ')) words.insert(words.begin(), word);
    for (const std::string& word : words) {
      // An option this command does not take ("plan --algo"): say so, and which of its subcommands takes it.
      const std::string option = option_of(word);
      if (option.empty()) continue;
      std::string takers;
      if (const CLI::App* sub = command.empty() ? nullptr : app.get_subcommand(command))
        for (const CLI::App* inner : sub->get_subcommands([](const CLI::App*) { return true; }))
          if (inner->get_option_no_throw(option) != nullptr)
            takers += "; " + command + " " + inner->get_name() + " takes it";
      return (command.empty() ? "hcemu" : command) + " has no option " + option + takers + " (" + help +
             " lists its options)";
    }
    std::string given;
    for (const std::string& word : words) given += (given.empty() ? "" : " ") + word;
    return where + "unexpected argument '" + given + "' (" + help + " lists what it takes)";
  }
  // "--dim: At Most 1 required but received 2": an option that takes one value, given twice.
  // "--bytes excludes ": the option and its hidden older name (--m), which CLI11 does not name, both given.
  if (what.size() > 10 && what.compare(what.size() - 10, 10, " excludes ") == 0)
    return where + what.substr(0, what.size() - 10) + " is given twice, once under its older name; it takes one " +
           "value (" + help + ")";
  constexpr std::string_view twice = ": At Most 1 required but received ";
  if (const auto at = what.find(twice); at != std::string::npos)
    return where + what.substr(0, at) + " is given " + what.substr(at + twice.size()) + " times; it takes one value (" +
           help + ")";
  if (what.rfind("Could not convert: ", 0) == 0) {
    const std::string rest = what.substr(19);
    const auto eq = rest.find(" = ");
    if (eq != std::string::npos)
      return where + rest.substr(0, eq) + ": cannot read '" + rest.substr(eq + 3) + "' as a number (" + help + ")";
  }
  // "--bytes: 1 required UINT:... missing": the option was given without its value.
  if (const auto colon = what.find(": "); colon != std::string::npos && what.find(" required ") != std::string::npos &&
                                          what.size() > 8 && what.compare(what.size() - 8, 8, " missing") == 0)
    return where + what.substr(0, colon) + " needs a value (" + help + ")";
  if (what == "kernel is required") {
    // An option the command does not take comes first: "hcemu run --bogus" is likelier a slip in the option than
    // a kernel forgotten.
    if (const CLI::App* sub = command.empty() ? nullptr : app.get_subcommand(command))
      for (int i = 2; i < argc; ++i) {
        const std::string option = option_of(argv[i]);
        if (!option.empty() && sub->get_option_no_throw(option) == nullptr)
          return command + " has no option " + option + " (" + help + " lists its options)";
      }
    return where + "a kernel is required: " + kernel_names() + " (" + help + ")";
  }
  // A hidden option's error comes without its name (": --pieces: expected ..."; decimal_integer adds it).
  if (what.rfind(": ", 0) == 0) what = what.substr(2);
  if (!what.empty()) what.front() = static_cast<char>(std::tolower(static_cast<unsigned char>(what.front())));
  return where + what + " (" + help + ")";
}

}  // namespace

namespace {
bool files_here = true;
Spread spread_here;
std::vector<std::string> hosts_here;
}  // namespace

const std::vector<std::string>& process_hosts() { return hosts_here; }
void set_process_hosts(std::vector<std::string> hosts) { hosts_here = std::move(hosts); }

const Spread& process_spread() { return spread_here; }
void set_process_spread(Spread spread) { spread_here = spread; }
int process_ranks() { return spread_here.ranks(); }

bool writes_files() { return files_here; }
void set_writes_files(bool on) { files_here = on; }

namespace {

// Reads the registry (the program's own rows, registered before main, are checked here) and loads the libraries of
// rows that --load names, before the command line is built from the rows. Returns argv without the --load options.
std::vector<const char*> with_every_algorithm(int argc, const char* const* argv) {
  hcemu::families();
  return load_requested_libraries(argc, argv);
}

int run_command(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  std::vector<const char*> args;
  try {
    args = with_every_algorithm(argc, argv);
  } catch (const UsageError& e) {
    err << "hcemu: " << e.what() << '\n';
    return kExitUsage;
  }
  argc = static_cast<int>(args.size());
  argv = args.data();

  CLI::App app{"hcemu: an emulator of hypercube multicomputers (Intel iPSC/860, iPSC, link-bound cubes) and "
               "2-D tori.\n"
               "Started by mpirun (built with MPI), every machine is spread over the ranks: docs/mpi.md.\n"
               "Full usage: docs/cli.md; the symbols and names (λ, τ, δ, ρ, FORCED, SBT...): docs/glossary.md; the papers:\n"
               "docs/references.md.",
               "hcemu"};
  app.require_subcommand(1);
  std::vector<std::pair<std::string, Action>> commands;
  try {
    commands = {
        {"run", add_run_command(app)},     {"plan", add_plan_command(app)},
        {"sweep", add_sweep_command(app)}, {"fit", add_fit_command(app)},
        {"configs", add_configs_command(app)}, {"help", add_help_command(app)},
        {"version", add_version_command(app)},
    };
  } catch (const CLI::ConstructionError& e) {
    // A parameter of a program's own row named like an option of the command (--seed, --root).
    err << "hcemu: an algorithm's parameter clashes with an option of the command: " << e.what() << '\n';
    return kExitUsage;
  }
  // Taken off argv before parsing (with_every_algorithm); declared for --help.
  std::vector<std::string> loaded;
  const std::string load_help =
      "A shared library of one's own algorithms (built with hcemu/plugin.hpp) to load first; repeatable, before or "
      "after the command (docs/your_algorithm.md)";
  app.add_option("--load", loaded, load_help)->type_name("FILE.so");
  for (const char* name : {"run", "sweep", "fit"})
    app.get_subcommand(name)->add_option("--load", loaded, load_help)->type_name("FILE.so");

  read_integers_in_decimal(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e, out, err) == 0 ? kExitOk : kExitUsage;
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e, out, err) == 0 ? kExitOk : kExitUsage;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e, out, err) == 0 ? kExitOk : kExitUsage;
    err << "hcemu: " << parse_error_sentence(e, app, commands, argc, argv) << '\n';
    return kExitUsage;
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

}  // namespace

int run_main(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  set_command_line(argc, argv);
  const int code = run_command(argc, argv, out, err);
  // Output that could not be written (a full disk, /dev/full) is a failure like a file that could not be written.
  const std::string failure = output_failure(out);
  if (failure.empty()) return code;
  err << "hcemu: standard output: " << failure << '\n';
  return code == kExitOk ? kExitRunFailed : code;
}

}  // namespace hcemu::cli
