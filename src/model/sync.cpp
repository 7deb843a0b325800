#include "hcemu/model/sync.hpp"

#include <string>

#include "hcemu/errors.hpp"

namespace hcemu {

std::string_view to_string(Sync s) {
  switch (s) {
    case Sync::none: return "none";
    case Sync::barrier: return "barrier";
    case Sync::pairwise: return "pairwise";
  }
  return "?";
}

Sync parse_sync(std::string_view s) {
  if (s == "none") return Sync::none;
  if (s == "barrier") return Sync::barrier;
  if (s == "pairwise") return Sync::pairwise;
  throw ConfigError("sync", "expected none, barrier or pairwise, got '" + std::string(s) + "'");
}

}  // namespace hcemu
