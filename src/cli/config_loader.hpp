#pragma once
// Machine configs from TOML (a built-in preset or a file) and from `--set key=value`, applied to a ConfigBuilder
// layer after layer. Every error names the file, line and key.
#include <string>
#include <string_view>

#include "cli/config_builder.hpp"
#include "hcemu/config.hpp"

namespace hcemu::cli {

// A TOML document: every top-level key is a config key (hcemu/config_keys.hpp), or one of the descriptive
// keys `name`, `source`, `summary`, or `base` (a preset or file to start from). `path` names it in errors.
void apply_toml(ConfigBuilder& builder, std::string_view text, const std::string& path);

// NAME of a built-in preset, or the path of a TOML file.
void apply_config(ConfigBuilder& builder, std::string_view name_or_file);

// "key=value", as given to --set.
void apply_assignment(ConfigBuilder& builder, std::string_view assignment);

// A preset or file resolved on its own (for tests and `hcemu configs`).
MachineConfig load_config(std::string_view name_or_file);

}  // namespace hcemu::cli
