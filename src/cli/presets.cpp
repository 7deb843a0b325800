#include "cli/presets.hpp"

namespace hcemu::cli {

const PresetFile* find_preset(std::string_view name) {
  for (const auto& preset : preset_files())
    if (name == preset.name) return &preset;
  return nullptr;
}

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  for (const auto& preset : preset_files()) names.emplace_back(preset.name);
  return names;
}

}  // namespace hcemu::cli
