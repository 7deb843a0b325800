#include "hcemu/report.hpp"

#include <iomanip>
#include <ostream>

#include <nlohmann/json.hpp>

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

void RunReport::print(std::ostream& out) const {
  const auto flags = out.flags();
  out << std::fixed << std::setprecision(3);
  out << "machine   " << config.name << ", d = " << config.d << " (" << nodes.size() << " nodes), "
      << to_string(config.switching) << ", ports " << config.ports.str() << ", " << to_string(config.protocol)
      << ", " << to_string(settings.timing) << " timing\n";
  out << "makespan  " << makespan_us() << " us\n";
  out << "messages  " << messages() << " (" << bytes() << " bytes)\n";
  out << "contention " << contention_events() << " events, " << to_us(contention_delay()) << " us of delay\n";
  out << "forced discards " << forced_discards.size() << "\n";
  for (const auto& d : forced_discards) {
    out << "  " << d.source << " -> " << d.destination << " tag " << d.tag << ", " << d.bytes
        << " bytes, first byte at " << to_us(d.arrival) << " us, ";
    if (d.post_time) out << "receive posted at " << to_us(*d.post_time) << " us\n";
    else out << "no receive posted\n";
  }
  for (const auto& u : unreceived) out << "  " << u << "\n";
  if (lateness)
    out << "lateness  p50 " << lateness->p50_us << " us, p99 " << lateness->p99_us << " us, max "
        << lateness->max_us << " us over " << lateness->samples << " waits\n";
  out << "wall      " << wall_seconds << " s\n";
  constexpr std::size_t kRows = 16;
  out << "\n  node  final clock (us)  sent msgs  sent bytes  recv msgs  recv bytes  arena peak\n";
  for (std::size_t i = 0; i < nodes.size() && i < kRows; ++i) {
    const auto& s = nodes[i];
    out << std::setw(6) << i << std::setw(18) << to_us(s.final_clock) << std::setw(11) << s.messages_sent
        << std::setw(12) << s.bytes_sent << std::setw(11) << s.messages_received << std::setw(12)
        << s.bytes_received << std::setw(12) << s.arena_high_water << "\n";
  }
  if (nodes.size() > kRows) out << "  ... " << nodes.size() - kRows << " more nodes (see --json)\n";
  std::size_t contended = 0;
  for (const auto& l : links) contended += l.contention_events > 0;
  if (contended > 0) {
    out << "\n  link (from -> to)  busy (us)  contention events  delay (us)\n";
    std::size_t shown = 0;
    for (const auto& l : links) {
      if (l.contention_events == 0 || shown++ == kRows) continue;
      out << std::setw(8) << l.from << " -> " << std::setw(6) << l.to() << std::setw(11) << to_us(l.busy)
          << std::setw(19) << l.contention_events << std::setw(12) << to_us(l.contention_delay) << "\n";
    }
  }
  out.flags(flags);
}

void to_json(nlohmann::json& j, const MachineConfig& c) {
  j = {{"name", c.name},
       {"d", c.d},
       {"lambda", c.lambda},
       {"lambda0", c.lambda0.value_or(c.lambda)},
       {"tau", c.tau},
       {"delta_hop", c.delta_hop},
       {"delta_msg", c.delta_msg},
       {"rho", c.rho},
       {"barrier_a", c.barrier_a},
       {"barrier_b", c.barrier_b},
       {"packet", c.packet},
       {"flop", c.flop},
       {"sys_copy", c.sys_copy},
       {"switching", to_string(c.switching)},
       {"topology", c.topology.str()},
       {"ports", c.ports.str()},
       {"protocol", to_string(c.protocol)}};
}

void to_json(nlohmann::json& j, const EmulatorSettings& s) {
  j = {{"timing", to_string(s.timing)},
       {"time_scale", s.time_scale},
       {"arena_bytes", s.arena_bytes},
       {"stack_bytes", s.stack_bytes},
       {"yield_seed", s.yield_seed},
       {"trace", s.trace}};
}

void to_json(nlohmann::json& j, const RunReport& r) {
  using nlohmann::json;
  j = json::object();
  j["config"] = r.config;
  j["emulator"] = r.settings;
  j["makespan_us"] = r.makespan_us();
  j["makespan_ps"] = r.makespan;
  j["messages"] = r.messages();
  j["bytes"] = r.bytes();
  j["contention_events"] = r.contention_events();
  j["contention_delay_us"] = to_us(r.contention_delay());
  j["wall_seconds"] = r.wall_seconds;
  json nodes = json::array();
  for (const auto& s : r.nodes)
    nodes.push_back({{"final_clock_us", to_us(s.final_clock)},
                     {"messages_sent", s.messages_sent},
                     {"bytes_sent", s.bytes_sent},
                     {"messages_received", s.messages_received},
                     {"bytes_received", s.bytes_received},
                     {"arena_high_water", s.arena_high_water},
                     {"host_time_us", to_us(s.host_time)}});
  j["nodes"] = std::move(nodes);
  json links = json::array();
  for (const auto& l : r.links)
    links.push_back({{"from", l.from},
                     {"to", l.to()},
                     {"dim", l.dim},
                     {"busy_us", to_us(l.busy)},
                     {"contention_events", l.contention_events},
                     {"contention_delay_us", to_us(l.contention_delay)}});
  j["links"] = std::move(links);
  json discards = json::array();
  for (const auto& d : r.forced_discards)
    discards.push_back({{"source", d.source},
                        {"destination", d.destination},
                        {"tag", d.tag},
                        {"bytes", d.bytes},
                        {"arrival_us", to_us(d.arrival)},
                        {"post_time_us", d.post_time ? json(to_us(*d.post_time)) : json(nullptr)}});
  j["forced_discards"] = std::move(discards);
  j["unreceived"] = r.unreceived;
  if (r.lateness)
    j["lateness"] = {{"samples", r.lateness->samples},
                     {"p50_us", r.lateness->p50_us},
                     {"p99_us", r.lateness->p99_us},
                     {"max_us", r.lateness->max_us}};
}

nlohmann::json to_json(const RunReport& report) {
  nlohmann::json j;
  to_json(j, report);
  return j;
}

nlohmann::json to_chrome_trace(const RunReport& r) {
  using nlohmann::json;
  json events = json::array();
  for (std::size_t i = 0; i < r.nodes.size(); ++i)
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 0}, {"tid", i},
                      {"args", {{"name", "node " + std::to_string(i)}}}});
  for (const auto& s : r.trace) {
    json args = {{"bytes", s.bytes}, {"tag", s.tag}};
    if (s.peer >= 0) args["peer"] = s.peer;
    std::string name = s.kind;
    if (s.peer >= 0) name += (s.kind == "send" ? " to " : " from ") + std::to_string(s.peer);
    // Trace event times are microseconds.
    events.push_back({{"name", name}, {"cat", s.kind}, {"ph", "X"}, {"pid", 0}, {"tid", s.node},
                      {"ts", to_us(s.start)}, {"dur", to_us(s.end - s.start)}, {"args", std::move(args)}});
  }
  return {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ns"}};
}

}  // namespace hcemu
