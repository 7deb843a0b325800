// Spread over MPI ranks, each rank knows only its own nodes: their stats, what they received and lost, their trace
// spans, their lateness. Every rank sends its part to every other, and each merges them in node order (the ranks
// hold blocks of consecutive ids, in rank order), so that Machine::run returns the same whole report on every rank.
// The links are the same on every rank where each places every transfer that books one; where the ranks share them
// out, merge_links adds every rank's up (runtime/coordinator.hpp).
#include <algorithm>
#include <tuple>

#include "runtime/run_state.hpp"

namespace hcemu::detail {

namespace {

void put(Wire& w, const TraceSpan& s) {
  w.put(s.node);
  w.put_string(s.kind);
  w.put(s.start);
  w.put(s.end);
  w.put(s.peer);
  w.put<std::uint64_t>(s.bytes);
  w.put(s.tag);
  w.put(s.message);
  w.put_string(s.call);
}

TraceSpan get_span(WireReader& r) {
  TraceSpan s;
  s.node = r.get<int>();
  s.kind = r.get_string();
  s.start = r.get<Time>();
  s.end = r.get<Time>();
  s.peer = r.get<int>();
  s.bytes = static_cast<std::size_t>(r.get<std::uint64_t>());
  s.tag = r.get<int>();
  s.message = r.get<std::uint64_t>();
  s.call = r.get_string();
  return s;
}

}  // namespace

void RunState::merge_ranks(RunReport& report, std::vector<double>& lateness, int& error_node, std::string& error) {
  Wire w;
  w.put(error_node);
  w.put_string(error);
  w.put<double>(report.wall_seconds);
  w.put<std::uint64_t>(report.nodes.size());
  for (const NodeStats& s : report.nodes) w.put(s);
  w.put<std::uint64_t>(report.forced_discards.size());
  for (const ForcedDiscard& d : report.forced_discards) {
    w.put(d.source);
    w.put(d.destination);
    w.put(d.tag);
    w.put<std::uint64_t>(d.bytes);
    w.put(d.arrival);
    w.put<bool>(d.post_time.has_value());
    w.put<Time>(d.post_time.value_or(0));
  }
  w.put<std::uint64_t>(report.unreceived.size());
  for (const std::string& u : report.unreceived) w.put_string(u);
  w.put<std::uint64_t>(lateness.size());
  for (double x : lateness) w.put(x);
  w.put<std::uint64_t>(report.trace.size());
  for (const TraceSpan& s : report.trace) put(w, s);

  const std::vector<std::vector<std::byte>> parts = transport_->all_gather(w.bytes());
  report.nodes.clear();
  report.forced_discards.clear();
  report.unreceived.clear();
  report.trace.clear();
  lateness.clear();
  error_node = -1;
  error.clear();
  for (const std::vector<std::byte>& part : parts) {
    WireReader r(part);
    const int node = r.get<int>();
    std::string e = r.get_string();
    if (error_node < 0 && node >= 0) error_node = node, error = std::move(e);
    report.wall_seconds = std::max(report.wall_seconds, r.get<double>());
    for (auto n = r.get<std::uint64_t>(); n > 0; --n) report.nodes.push_back(r.get<NodeStats>());
    for (auto n = r.get<std::uint64_t>(); n > 0; --n) {
      ForcedDiscard d;
      d.source = r.get<int>();
      d.destination = r.get<int>();
      d.tag = r.get<int>();
      d.bytes = static_cast<std::size_t>(r.get<std::uint64_t>());
      d.arrival = r.get<Time>();
      const bool posted = r.get<bool>();
      const Time post = r.get<Time>();
      if (posted) d.post_time = post;
      report.forced_discards.push_back(d);
    }
    for (auto n = r.get<std::uint64_t>(); n > 0; --n) report.unreceived.push_back(r.get_string());
    for (auto n = r.get<std::uint64_t>(); n > 0; --n) lateness.push_back(r.get<double>());
    for (auto n = r.get<std::uint64_t>(); n > 0; --n) report.trace.push_back(get_span(r));
  }
}

// With the links partitioned among the ranks (runtime/coordinator.hpp), each rank counts what it placed: a link's
// busy time and contention are the sums of every rank's.
void RunState::merge_links(RunReport& report) {
  Wire w;
  w.put<std::uint64_t>(report.links.size());
  for (const LinkStats& l : report.links) w.put(l);
  w.put<std::uint64_t>(report.link_trace.size());
  for (const LinkSpan& l : report.link_trace) w.put(l);
  std::vector<LinkStats> all;
  report.link_trace.clear();
  for (const std::vector<std::byte>& part : transport_->all_gather(w.bytes())) {
    WireReader r(part);
    for (auto n = r.get<std::uint64_t>(); n > 0; --n) all.push_back(r.get<LinkStats>());
    for (auto n = r.get<std::uint64_t>(); n > 0; --n) report.link_trace.push_back(r.get<LinkSpan>());
  }
  std::stable_sort(all.begin(), all.end(), [](const LinkStats& a, const LinkStats& b) {
    return std::tie(a.from, a.dim) < std::tie(b.from, b.dim);
  });
  report.links.clear();
  for (const LinkStats& l : all) {
    if (!report.links.empty() && report.links.back().from == l.from && report.links.back().dim == l.dim) {
      LinkStats& sum = report.links.back();
      sum.busy += l.busy;
      sum.contention_events += l.contention_events;
      sum.contention_delay += l.contention_delay;
    } else {
      report.links.push_back(l);
    }
  }
  std::stable_sort(report.link_trace.begin(), report.link_trace.end(), [](const LinkSpan& a, const LinkSpan& b) {
    return std::tie(a.from, a.dim, a.start) < std::tie(b.from, b.dim, b.start);
  });
}

}  // namespace hcemu::detail
