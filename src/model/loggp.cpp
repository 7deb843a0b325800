// docs/model.md §12: the LogGP model's times and closed forms (Alexandrov, Ionescu, Schauser & Scheiman 1995 §2).
#include "hcemu/model/loggp.hpp"

#include <algorithm>
#include <string>

#include "hcemu/errors.hpp"

namespace hcemu::model {

namespace {
__extension__ typedef __int128 Wide;

Time within_range(Wide t, const char* what) {
  if (t > kTimeLimit)
    throw TimeOverflow(std::string(what) + " would take more than the model's range of 2^62 ps (about 53 days)");
  return static_cast<Time>(t);
}
}  // namespace

LogGP LogGP::from(const MachineConfig& config) {
  return {from_us(config.loggp_latency), from_us(config.loggp_overhead), from_us(config.loggp_gap),
          from_us(config.loggp_gap_per_byte)};
}

Time LogGP::bytes_after_first(std::size_t bytes) const {
  return bytes == 0 ? 0 : within_range(Wide{G} * static_cast<Wide>(bytes - 1), "one LogGP message");
}

Time LogGP::hold(std::size_t bytes) const {
  return std::max(o, within_range(Wide{g} + bytes_after_first(bytes), "one LogGP message"));
}

Time LogGP::message(std::size_t bytes) const {
  return within_range(Wide{2} * o + L + bytes_after_first(bytes), "one LogGP message");
}

Time loggp_ping_pong_time(const MachineConfig& config, std::size_t bytes, int round_trips) {
  return within_range(Wide{2} * round_trips * LogGP::from(config).message(bytes), "the ping-pong's closed form");
}

Time loggp_direct_exchange_time(const MachineConfig& config, std::size_t m) {
  const LogGP c = LogGP::from(config);
  Time step = c.message(m);
  if (config.ports.kind == Ports::Kind::half) step = std::max<Time>(step, within_range(Wide{2} * c.hold(m), "a step"));
  return within_range(Wide{step} * ((Wide{1} << config.d) - 1), "the Direct exchange's closed form");
}

Time loggp_binomial_broadcast_time(const MachineConfig& config, std::size_t m) {
  return within_range(Wide{config.d} * LogGP::from(config).message(m), "the broadcast's closed form");
}

}  // namespace hcemu::model
