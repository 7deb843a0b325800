#include "cli/real_time.hpp"

namespace hcemu::cli {

namespace {
bool real_time(const EmulatorSettings& settings) { return settings.timing != Timing::virtual_time; }
}  // namespace

std::string make_forced_safe_in_real_time(MachineFamily& family, bool protocol_given) {
  if (!real_time(family.settings) || family.config.protocol != Protocol::forced || protocol_given) return "";
  family.config.protocol = Protocol::unforced;
  return std::string(to_string(family.settings.timing)) +
         " timing: the machine runs UNFORCED, since under real time a node may send before its partner has posted "
         "the receive, and FORCED would lose the message; --protocol forced keeps FORCED (the exchange then wants "
         "--sync barrier, which posts every receive before any send, as the iPSC/860's programs did)";
}

std::string real_time_forced_fix(const MachineConfig& config, const EmulatorSettings& settings) {
  if (!real_time(settings) || config.protocol != Protocol::forced) return "";
  return "under " + std::string(to_string(settings.timing)) +
         " timing a node may send before its partner has posted the receive, and FORCED loses the message: "
         "--protocol unforced keeps it (the exchange: --sync barrier posts every receive before any send)";
}

bool measures_the_host(const EmulatorSettings& settings) { return settings.timing == Timing::native; }

}  // namespace hcemu::cli
