// `hcemu configs`: the built-in machine presets, each with the paper and section its numbers come from.
#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/config_builder.hpp"
#include "cli/config_loader.hpp"
#include "cli/json_document.hpp"
#include "cli/option_checks.hpp"
#include "cli/presets.hpp"
#include "cli/text_table.hpp"
#include "hcemu/report_json.hpp"

namespace hcemu::cli {

namespace {

struct ConfigsOptions {
  bool keys = false;
  bool json = false;
  std::string show;
};


int list(const ConfigsOptions& options, std::ostream& out) {
  if (!options.show.empty()) {
    const PresetFile* preset = find_preset(options.show);
    if (!preset) {
      std::string hint = nearest_key(options.show, preset_names());
      throw UsageError("no preset named '" + options.show + "'" +
                       (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
    }
    out << preset->text;
    return kExitOk;
  }
  if (options.keys) {
    if (options.json) {
      nlohmann::json array = nlohmann::json::array();
      for (const ConfigKey& k : config_keys())
        array.push_back({{"key", k.name},
                         {"symbol", k.symbol},
                         {"scope", to_string(k.scope)},
                         {"type", to_string(k.type)},
                         {"unit", k.unit()},
                         {"range", k.range()},
                         {"default", k.default_text()},
                         {"flag", k.flag},
                         {"meaning", k.doc}});
      out << json_document("configs", nullptr, "keys", std::move(array)).dump(2) << '\n';
      return kExitOk;
    }
    TextTable table({"key", "symbol", "scope", "unit", "range", "default", "meaning"});
    for (const ConfigKey& k : config_keys())
      table.add_row({std::string(k.name), std::string(k.symbol), std::string(to_string(k.scope)), k.unit(), k.range(),
                     k.default_text(), std::string(k.doc)});
    table.print(out);
    return kExitOk;
  }
  nlohmann::json array = nlohmann::json::array();
  TextTable table({"preset", "machine", "source"});
  for (const auto& preset : preset_files()) {
    ConfigBuilder builder;
    apply_toml(builder, preset.text, preset.path);
    MachineConfig config = builder.resolve();
    table.add_row({preset.name, builder.summary, builder.source});
    nlohmann::json j = {{"name", preset.name}, {"summary", builder.summary}, {"source", builder.source},
                        {"file", preset.path}, {"config", nlohmann::json(config)}};
    // The keys a file writes beside the machine's (delta_msg_per_d), when it sets them.
    for (const ConfigKey& k : config_keys())
      if (auto value = k.get(builder.setup()); k.scope == KeyScope::file && value)
        std::visit([&](const auto& v) { j["config"][std::string(k.name)] = v; }, *value);
    array.push_back(std::move(j));
  }
  if (options.json) {
    out << json_document("configs", nullptr, "presets", std::move(array)).dump(2) << '\n';
  } else {
    table.print(out);
    out << "\nUse one with --config NAME; `hcemu configs --show NAME` prints its file, with how it maps the paper's "
           "numbers onto the config keys.\n";
  }
  return kExitOk;
}

}  // namespace

Action add_configs_command(CLI::App& app) {
  auto options = std::make_shared<ConfigsOptions>();
  auto* sub = app.add_subcommand("configs", "The machine presets, each with its source");
  sub->add_flag("--keys", options->keys, "List the config keys instead");
  sub->add_option("--show", options->show, "Print one preset's TOML file")
      ->type_name("NAME")
      ->check(non_empty("a preset's name"));
  sub->add_flag("--json", options->json, "Print JSON: schema_version, context, and presets (or keys; docs/cli.md)");
  return [options](std::ostream& out, std::ostream&) { return list(*options, out); };
}

}  // namespace hcemu::cli
