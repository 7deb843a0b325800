#pragma once
// The machine presets: the TOML files of configs/, built into the binary (see preset_data.cpp.in).
#include <string>
#include <string_view>
#include <vector>

namespace hcemu::cli {

struct PresetFile {
  const char* name;  // "ipsc860"
  const char* path;  // "configs/ipsc860.toml", for error messages
  const char* text;  // the file's TOML
};

const std::vector<PresetFile>& preset_files();

// nullptr when there is no preset of that name.
const PresetFile* find_preset(std::string_view name);
std::vector<std::string> preset_names();

inline constexpr std::string_view kDefaultPreset = "ipsc860";

}  // namespace hcemu::cli
