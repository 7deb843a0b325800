#include "cli/machine_options.hpp"

#include <CLI/CLI.hpp>
#include <bit>
#include <cctype>
#include <charconv>
#include <tuple>

#include "cli/cli_error.hpp"
#include "cli/config_loader.hpp"
#include "cli/presets.hpp"
#include "hcemu/errors.hpp"
#include "runtime/engine.hpp"

namespace hcemu::cli {

void MachineOptions::add_to(CLI::App& app, bool with_sync) {
  std::string presets;
  for (const auto& name : preset_names()) presets += (presets.empty() ? "" : ", ") + name;
  app.add_option("--config", config, "A preset (" + presets + ") or a TOML file")->capture_default_str();
  app.add_option("--set", sets,
                 "Override one config key: --set key=value (repeatable; hcemu configs --keys). A preset's own lambda0 "
                 "stays when only lambda is set")
      ->type_name("KEY=VALUE")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  for (const ConfigKey& key : config_keys()) {
    if (key.flag.empty()) continue;
    std::string help = std::string(key.doc) + "; " + key.range();
    help.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(help.front())));
    if (!key.unit().empty()) help += " " + key.unit();
    help += " (key " + std::string(key.name) + "; default: the config's)";
    // -d is the config's d on every topology: 2^d nodes (a square torus of 2^k x 2^k is -d 2k).
    if (key.name == "d")
      help += ". On a torus or mesh too: -d 6 is 8 x 8; with torus:RxC the sides give d and -d may be left out";
    std::string type = std::string(key.name);
    for (char& c : type) c = c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    if (key.type == KeyType::boolean) {  // a switch: given, it sets the key true
      std::string& text = flags[std::string(key.name)];
      app.add_flag_callback(std::string(key.flag), [&text] { text = "true"; }, help);
      continue;
    }
    app.add_option(std::string(key.flag), flags[std::string(key.name)], help)->type_name(type);
  }
  if (with_sync)
    app.add_option("--sync", sync, "Exchange synchronisation: none, barrier or pairwise (Nicol & Bokhari §4)")
        ->capture_default_str();
}

MachineConfig MachineOptions::build() const { return build_family().config; }

namespace {

// The text a flag was given, or empty.
std::string flag_text(const std::map<std::string, std::string, std::less<>>& flags, std::string_view key) {
  auto given = flags.find(key);
  return given == flags.end() ? std::string() : given->second;
}

// The config's d for `-d D`: D, 2^D nodes, on every topology. Explicit sides R x C fix d = log2(R·C): -d may be left
// out (the sides from --topology then set it) or must agree. Empty text: the flag was not given.
std::string config_dimension(const Topology& topology, const std::string& text, bool sides_from_flag) {
  if (!topology.grid() || topology.rows == 0) return text;
  const int sides_d = std::countr_zero(static_cast<unsigned>(topology.rows * topology.cols));
  if (text.empty()) return sides_from_flag ? std::to_string(sides_d) : text;
  int d = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
  if (ec != std::errc() || end != text.data() + text.size() || d == sides_d) return text;  // the key's own error
  throw UsageError("-d " + text + " with topology " + topology.str() + ": the sides " + std::to_string(topology.rows) +
                   " x " + std::to_string(topology.cols) + " are 2^" + std::to_string(sides_d) +
                   " nodes (d = " + std::to_string(sides_d) + "); leave -d out");
}

}  // namespace

MachineFamily MachineOptions::build_family() const {
  ConfigBuilder builder;
  apply_config(builder, config);
  for (const auto& assignment : sets) apply_assignment(builder, assignment);
  // The topology the machine ends with: its flag's, or the one the file and --set left. It says what -d means.
  Topology topology = builder.setup().config.topology;
  const std::string topology_flag = flag_text(flags, "topology");
  bool sides_from_flag = false;
  if (!topology_flag.empty()) {
    try {
      topology = Topology::parse(topology_flag);
      sides_from_flag = true;
    } catch (const ConfigError&) {
      // The flag's own error comes when it is set below.
    }
  }
  const std::string d_text = config_dimension(topology, flag_text(flags, "d"), sides_from_flag);
  // d and the topology check each other: when both change, the machine is a cube between the two.
  if (!d_text.empty() && !topology_flag.empty())
    builder.set_text("topology", "cube", Origin{"--topology " + topology_flag, 0});
  for (const ConfigKey& key : config_keys()) {
    const std::string text = key.name == "d" ? d_text : flag_text(flags, key.name);
    if (text.empty()) continue;
    // The origin names the flag as its first spelling, as given: "-d 6", "--ports all" (d that follows the sides of
    // --topology names that flag).
    std::string origin = std::string(key.flag.substr(0, key.flag.find(','))) + " " + flag_text(flags, key.name);
    if (key.name == "d" && flag_text(flags, "d").empty()) origin = "--topology " + topology_flag;
    builder.set_text(key.name, text, Origin{origin, 0});
  }
  return builder.family();
}

std::string placing_early_unused(const EmulatorSettings& settings) {
  if (!settings.placing_early) return "";
  std::string why;
  if (settings.engine != EngineKind::tasks)
    why = "the os_threads engine has no workers that could place";
  else if (settings.timing != Timing::virtual_time)
    why = std::string(to_string(settings.timing)) + " timing";
  else if (settings.spread.ranks() > 1)
    why = "the machine is spread over MPI ranks";
  else if (settings.workers == 1 || (settings.workers == 0 && hcemu::detail::cores_of_this_process() == 1))
    why = "one worker";
  if (why.empty()) return "";
  return "placing_early has no effect here (" + why +
         "): transfers are placed once every node has stopped (docs/engine.md, \"Placing while others run\")";
}

std::string machine_shape(const MachineConfig& config) {
  std::string text = "d = " + std::to_string(config.d) + " (" + std::to_string(config.nodes()) + " nodes";
  if (config.topology.grid()) {
    const auto [rows, cols] = config.topology.sides(config.d);
    text += ", " + std::string(config.topology.kind == Topology::Kind::torus ? "torus " : "mesh ") +
            std::to_string(rows) + " x " + std::to_string(cols);
  }
  return text + ")";
}

std::string topology_name(const MachineConfig& config) {
  if (!config.topology.grid()) return "cube";
  Topology sided = config.topology;
  std::tie(sided.rows, sided.cols) = config.topology.sides(config.d);
  return sided.str();
}

bool MachineOptions::lambda_changed_but_not_lambda0() const {
  ConfigBuilder file;
  apply_config(file, config);
  const MachineConfig before = file.family().config;
  const MachineConfig after = build_family().config;
  return before.lambda0.has_value() && after.lambda != before.lambda && after.lambda0 == before.lambda0;
}

bool MachineOptions::given(std::string_view key) const {
  if (!flag_text(flags, key).empty()) return true;
  for (const std::string& assignment : sets) {
    std::string_view name(assignment);
    name = name.substr(0, name.find('='));
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (name == key) return true;
  }
  return false;
}

Sync MachineOptions::parsed_sync() const { return parse_sync(sync); }

namespace {
// "2,3" -> {2, 3}, each at least `least`; throws UsageError naming `flag` with `expected` otherwise.
std::vector<int> parse_ints(const std::string& flag, const std::string& text, int least, const char* expected) {
  std::vector<int> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto comma = text.find(',', start);
    std::string_view piece(text.data() + start, (comma == std::string::npos ? text.size() : comma) - start);
    int part = 0;
    auto [end, ec] = std::from_chars(piece.data(), piece.data() + piece.size(), part);
    if (piece.empty() || ec != std::errc() || end != piece.data() + piece.size() || part < least)
      throw UsageError(flag + " " + text + ": expected " + expected);
    parts.push_back(part);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return parts;
}
}  // namespace

std::vector<int> parse_partition(const std::string& text) {
  return parse_ints("--partition", text, 1, "positive integers separated by commas, like 2,3");
}

std::vector<int> parse_list(const std::string& flag, const std::string& text) {
  return parse_ints(flag, text, 0, "integers >= 0 separated by commas, like 1,2");
}

std::string partition_label(const std::vector<int>& partition) {
  if (partition.empty()) return "";
  std::string label = "(";
  for (std::size_t i = 0; i < partition.size(); ++i) label += (i ? "," : "") + std::to_string(partition[i]);
  return label + ")";
}

}  // namespace hcemu::cli
