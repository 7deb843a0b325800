// A run report as JSON, and the reporter that writes a document of runs.
#include <optional>
#include <ostream>
#include <sstream>

#include "hcemu/report_json.hpp"
#include "hcemu/reporter.hpp"
#include "report/json_context.hpp"
#include "report/report_json_writer.hpp"

namespace hcemu {

namespace detail {

// Every object's keys in the order nlohmann::json (a std::map) keeps them, so that the text equals dump(2)'s.
void write_report_json(JsonWriter& out, const RunReport& r, bool per_node) {
  out.begin_object();
  out.key("bytes").value(r.bytes());
  out.key("config").value(nlohmann::json(r.config));
  out.key("contention_delay_us").value(to_us(r.contention_delay()));
  out.key("contention_events").value(r.contention_events());
  out.key("emulator").value(nlohmann::json(r.settings));
  if (r.engine_stats) out.key("engine_stats").value(nlohmann::json(*r.engine_stats));
  out.key("forced_discards").begin_array();
  for (const auto& d : r.forced_discards) {
    out.begin_object();
    out.key("arrival_us").value(to_us(d.arrival));
    out.key("bytes").value(std::uint64_t{d.bytes});
    out.key("destination").value(d.destination);
    out.key("post_time_us");
    if (d.post_time)
      out.value(to_us(*d.post_time));
    else
      out.null();
    out.key("source").value(d.source);
    out.key("tag").value(d.tag);
    out.end_object();
  }
  out.end_array();
  if (r.lateness) {
    out.key("lateness").begin_object();
    out.key("max_us").value(r.lateness->max_us);
    out.key("p50_us").value(r.lateness->p50_us);
    out.key("p99_us").value(r.lateness->p99_us);
    out.key("samples").value(std::uint64_t{r.lateness->samples});
    out.end_object();
  }
  if (per_node) {
    out.key("links").begin_array();
    for (const auto& l : r.links) {
      out.begin_object();
      out.key("busy_us").value(to_us(l.busy));
      out.key("contention_delay_us").value(to_us(l.contention_delay));
      out.key("contention_events").value(l.contention_events);
      out.key("dim").value(l.dim);
      out.key("from").value(l.from);
      out.key("to").value(l.to());
      out.end_object();
    }
    out.end_array();
  }
  out.key("makespan_ps").value(std::int64_t{r.makespan});
  out.key("makespan_us").value(r.makespan_us());
  out.key("messages").value(r.messages());
  if (per_node) {
    out.key("nodes").begin_array();
    for (const auto& s : r.nodes) {
      out.begin_object();
      out.key("arena_high_water").value(std::uint64_t{s.arena_high_water});
      out.key("bytes_received").value(s.bytes_received);
      out.key("bytes_sent").value(s.bytes_sent);
      out.key("final_clock_us").value(to_us(s.final_clock));
      out.key("host_time_us").value(to_us(s.host_time));
      out.key("messages_received").value(s.messages_received);
      out.key("messages_sent").value(s.messages_sent);
      out.end_object();
    }
    out.end_array();
  }
  out.key("ranks").value(r.ranks);
  out.key("rounds").value(r.rounds);
  out.key("unreceived").value(nlohmann::json(r.unreceived));
  out.key("wall_seconds").value(r.wall_seconds);
  out.end_object();
}

JsonRunsDocument::JsonRunsDocument(std::ostream& out, const nlohmann::json& context) : writer_(out) {
  writer_.begin_object();
  writer_.key("context").value(context);
  writer_.key("runs").begin_array();
}

void JsonRunsDocument::close() {
  writer_.end_array();
  writer_.key("schema_version").value(kJsonSchemaVersion);
  writer_.end_object();
  writer_.end_document();
}

}  // namespace detail

void to_json(nlohmann::json& j, const RunReport& r) {
  std::ostringstream text;
  {
    detail::JsonWriter out(text);
    detail::write_report_json(out, r, true);
  }
  j = nlohmann::json::parse(text.str());
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
       {"batches", s.batches},
       {"steps_whole", s.steps_whole},
       {"transfers_placed", s.transfers_placed},
       {"transfers_shared", s.transfers_shared},
       {"shared_levels", s.shared_levels},
       {"placed_by_senders", s.placed_by_senders},
       {"horizons_answered", s.horizons_answered},
       {"placing_seconds", s.placing_seconds},
       {"shared_seconds", s.shared_seconds},
       {"wall_seconds", s.wall_seconds},
       {"serial_fraction", s.serial_fraction()},
       {"lookahead_ps", s.lookahead},
       {"lookahead_limit_ps", s.lookahead_limit},
       {"rounds", s.rounds},
       {"phases", s.phases},
       {"waiting_seconds", s.waiting_seconds},
       {"whole_queue", s.whole_queue},
       {"early_passes", s.early_passes},
       {"early_seconds", s.early_seconds},
       {"per_worker", std::move(workers)}};
}

nlohmann::json to_json(const RunReport& report) {
  nlohmann::json j;
  to_json(j, report);
  return j;
}

struct JsonReporter::Document {
  std::optional<detail::JsonRunsDocument> runs;  // opened by the first run, whose machine the context names
};

JsonReporter::JsonReporter(std::ostream& out, bool per_node)
    : out_(out), per_node_(per_node), document_(std::make_unique<Document>()) {}
JsonReporter::~JsonReporter() = default;

void JsonReporter::open(const RunReport* first) {
  detail::ContextSource source{{}, detail::own_command_line(), first ? first->ranks : 1,
                               first ? &first->config : nullptr, first ? &first->settings : nullptr};
  document_->runs.emplace(out_, detail::json_context(source));
}

void JsonReporter::report(std::string_view label, const RunReport& run) {
  if (!document_->runs) open(&run);
  detail::JsonWriter& out = document_->runs->writer();
  out.begin_object();
  out.key("label").value(label);
  out.key("report");
  detail::write_report_json(out, run, per_node_);
  out.end_object();
}

void JsonReporter::finish() {
  if (!document_->runs) open(nullptr);
  document_->runs->close();
  document_->runs.reset();
}

}  // namespace hcemu
