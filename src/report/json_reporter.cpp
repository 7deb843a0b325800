// A run report as JSON, and the reporter that writes one or several.
#include <ostream>

#include "hcemu/report_json.hpp"
#include "hcemu/reporter.hpp"

namespace hcemu {

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
  j["ranks"] = r.ranks;
  j["rounds"] = r.rounds;
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
  if (r.engine_stats) j["engine_stats"] = *r.engine_stats;
}

void to_json(nlohmann::json& j, const EngineStats& s) {
  using nlohmann::json;
  json workers = json::array();
  for (const WorkerStats& w : s.per_worker)
    workers.push_back({{"running_seconds", w.running_seconds},
                       {"placing_seconds", w.placing_seconds},
                       {"idle_seconds", w.idle_seconds},
                       {"slices", w.slices}});
  j = {{"engine", s.engine},
       {"workers", s.workers},
       {"placement_passes", s.placement_passes},
       {"transfers_placed", s.transfers_placed},
       {"horizons_answered", s.horizons_answered},
       {"placing_seconds", s.placing_seconds},
       {"wall_seconds", s.wall_seconds},
       {"serial_fraction", s.serial_fraction()},
       {"lookahead_ps", s.lookahead},
       {"per_worker", std::move(workers)}};
}

nlohmann::json to_json(const RunReport& report) {
  nlohmann::json j;
  to_json(j, report);
  return j;
}

struct JsonReporter::Runs {
  nlohmann::json runs = nlohmann::json::array();
};

JsonReporter::JsonReporter(std::ostream& out) : out_(out), runs_(std::make_unique<Runs>()) {}
JsonReporter::~JsonReporter() = default;

void JsonReporter::report(std::string_view label, const RunReport& run) {
  runs_->runs.push_back({{"label", std::string(label)}, {"report", to_json(run)}});
}

void JsonReporter::finish() {
  if (runs_->runs.size() == 1)
    out_ << runs_->runs.front()["report"].dump(2) << '\n';
  else
    out_ << runs_->runs.dump(2) << '\n';
  runs_->runs = nlohmann::json::array();
}

}  // namespace hcemu
