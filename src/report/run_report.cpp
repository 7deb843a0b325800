// What a run report adds up, and its readable form.
#include <ostream>

#include "hcemu/report.hpp"
#include "hcemu/reporter.hpp"

namespace hcemu {

std::uint64_t RunReport::messages() const {
  std::uint64_t n = 0;
  for (const auto& s : nodes) n += s.messages_sent;
  return n;
}
std::uint64_t RunReport::bytes() const {
  std::uint64_t n = 0;
  for (const auto& s : nodes) n += s.bytes_sent;
  return n;
}
std::uint64_t RunReport::contention_events() const {
  std::uint64_t n = 0;
  for (const auto& l : links) n += l.contention_events;
  return n;
}
Time RunReport::contention_delay() const {
  Time t = 0;
  for (const auto& l : links) t += l.contention_delay;
  return t;
}

void RunReport::print(std::ostream& out) const { ConsoleReporter(out).report({}, *this); }

}  // namespace hcemu
