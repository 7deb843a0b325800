#include "report/chrome_trace_tracks.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hcemu::detail {

namespace {

using nlohmann::json;

enum class Role { program, out, in, link, waits };

struct Slice {
  Time start = 0, end = 0;
  json fields;                // name, cat, args
  std::uint64_t message = 0;  // on a port: the message whose flow starts (out) or ends (in) here
  std::size_t lane = 0;
};

// A family of tracks: a node's program, its output or input port, a link, the waits for a link. Slices that overlap
// go on lanes of their own: taken in order of start, each goes to the first lane free by then, so no two slices of
// a lane overlap and there are as many lanes as slices overlap at most. The program is one lane: its spans follow
// one another on the node's clock.
struct Tracks {
  Role role;
  std::string name;
  std::vector<Slice> slices;
  std::vector<std::pair<Time, json>> instants;  // on the first lane
  std::size_t lanes = 1;
  int first_tid = 0;

  void add(Time start, Time end, json fields, std::uint64_t message = 0) {
    slices.push_back(Slice{start, end, std::move(fields), message, 0});
  }

  void place() {
    std::stable_sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) {
      return a.start != b.start ? a.start < b.start : a.end < b.end;
    });
    if (role == Role::program) return;
    std::vector<Time> free_at;
    for (Slice& s : slices) {
      auto lane = std::find_if(free_at.begin(), free_at.end(), [&](Time t) { return t <= s.start; });
      if (lane == free_at.end()) lane = free_at.insert(free_at.end(), s.start);
      *lane = s.end;
      s.lane = static_cast<std::size_t>(lane - free_at.begin());
    }
    lanes = std::max<std::size_t>(1, free_at.size());
  }

  std::string lane_name(std::size_t lane) const { return lane == 0 ? name : name + " " + std::to_string(lane + 1); }
};

// "recv from 3", "exchange with 3", "wait send to 3", "wait_all", "barrier".
std::string program_slice_name(const TraceSpan& s) {
  if (s.kind != "wait") return s.kind;
  const std::string call = s.call.empty() ? s.kind : s.call;
  if (s.peer < 0) return call;
  const auto ends_with = [&](std::string_view tail) { return std::string_view(call).ends_with(tail); };
  const char* word = ends_with("send")       ? " to "
                     : ends_with("recv")     ? " from "
                     : ends_with("exchange") ? " with "
                                             : " peer ";
  return call + word + std::to_string(s.peer);
}

// What the slice's name does not say already (its peer and call are in the name): a message is about 0.9 KB of
// the file, and a run has millions.
json span_args(const TraceSpan& s) {
  json args = json::object();
  if (s.bytes > 0 || s.kind != "wait") args["bytes"] = s.bytes;
  if (s.kind == "send" || s.kind == "recv" || s.kind == "wait") args["tag"] = s.tag;
  if (s.message != 0) args["message"] = s.message;
  return args;
}

// A flow's ends bind to the slices of this category: Chrome DevTools binds a flow event to the slice of its own
// category, process, thread and timestamp, so the send and receive slices and the flow share one.
constexpr const char* kMessageCategory = "message";

// On a torus of side 2 a node reaches its neighbour by two links (+x and -x): their names then say which.
std::string link_name(const LinkSpan& l, bool ambiguous) {
  std::string name = "link " + std::to_string(l.from) + "->" + std::to_string(l.to);
  static const char* const kDirections[] = {"+x", "-x", "+y", "-y"};
  if (ambiguous) {
    name += ' ';  // appended piece by piece: GCC 12 warns of an overlap in " " + std::string (-Wrestrict)
    name += l.dim >= 0 && l.dim < 4 ? std::string(kDirections[l.dim]) : std::to_string(l.dim);
  }
  return name;
}

// Every family of tracks of the run, in the order they are shown: node by node, each followed by the links it drives.
std::vector<Tracks> lay_out(const RunReport& run, const TraceFilter& filter) {
  const int nodes = static_cast<int>(run.nodes.size());
  std::vector<Tracks> program, out, in;
  for (int i = 0; i < nodes; ++i) {
    const std::string node = "node " + std::to_string(i);
    program.push_back(Tracks{Role::program, node, {}, {}, 1, 0});
    out.push_back(Tracks{Role::out, node + " out", {}, {}, 1, 0});
    in.push_back(Tracks{Role::in, node + " in", {}, {}, 1, 0});
  }
  const auto valid = [&](int node) { return node >= 0 && node < nodes && filter.keeps_node(node); };
  for (const TraceSpan& s : run.trace) {
    if (!valid(s.node) || !filter.keeps_span(s.start, s.end)) continue;
    const auto i = static_cast<std::size_t>(s.node);
    if (s.kind == "send") {
      out[i].add(s.start, s.end,
                 {{"name", "send to " + std::to_string(s.peer)}, {"cat", kMessageCategory}, {"args", span_args(s)}},
                 s.message);
    } else if (s.kind == "recv") {
      in[i].add(s.start, s.end,
                {{"name", "recv from " + std::to_string(s.peer)}, {"cat", kMessageCategory}, {"args", span_args(s)}},
                s.message);
    } else {
      program[i].add(s.start, s.end, {{"name", program_slice_name(s)}, {"cat", s.kind}, {"args", span_args(s)}});
    }
  }
  for (const ForcedDiscard& d : run.forced_discards) {
    if (!valid(d.destination) || !filter.keeps_instant(d.arrival)) continue;
    json args = {{"source", d.source}, {"destination", d.destination}, {"tag", d.tag},
                 {"bytes", d.bytes},   {"arrival_ps", d.arrival},      {"posted_ps", nullptr}};
    if (d.post_time) args["posted_ps"] = *d.post_time;
    program[static_cast<std::size_t>(d.destination)].instants.emplace_back(
        d.arrival, json{{"name", "FORCED discard from " + std::to_string(d.source) + ", tag " + std::to_string(d.tag)},
                        {"cat", "discard"},
                        {"args", std::move(args)}});
  }

  // A deadlocked run: where each blocked node stuck, at its clock then.
  for (const BlockedOperation& b : run.blocked) {
    if (!valid(b.node) || !filter.keeps_instant(run.nodes[static_cast<std::size_t>(b.node)].final_clock)) continue;
    const auto i = static_cast<std::size_t>(b.node);
    std::string name = "blocked in " + b.operation;
    if (b.peer >= 0) name += " (peer " + std::to_string(b.peer) + ", tag " + std::to_string(b.tag) + ")";
    json args = {{"operation", b.operation}, {"peer", b.peer}, {"tag", b.tag}};
    if (!b.detail.empty()) args["detail"] = b.detail;
    program[i].instants.emplace_back(run.nodes[i].final_clock,
                                     json{{"name", name}, {"cat", "deadlock"}, {"args", std::move(args)}});
  }

  // Links, by (from, dim), each with the waits of the transfers that found it held by another's.
  std::map<std::pair<int, int>, std::pair<Tracks, Tracks>> links;
  std::map<std::pair<int, int>, std::set<int>> labels_between;  // (from, to) -> the links' labels
  for (const LinkSpan& l : run.link_trace) labels_between[{l.from, l.to}].insert(l.dim);
  for (const LinkSpan& l : run.link_trace) {
    // A link goes with the node that drives it; its wait, which ends where its booking starts, with the booking.
    if (!filter.keeps_node(l.from) || !filter.keeps_span(l.start - l.delay, l.end)) continue;
    auto [it, added] = links.try_emplace({l.from, l.dim});
    auto& [link, waits] = it->second;
    if (added) {
      const std::string name = link_name(l, labels_between[{l.from, l.to}].size() > 1);
      link = Tracks{Role::link, name, {}, {}, 1, 0};
      waits = Tracks{Role::waits, name + " waits", {}, {}, 1, 0};
    }
    const std::string owner = "node " + std::to_string(l.source);
    // Its name says whose transfer it is; only one that waited for the link has arguments.
    json booking = {{"name", owner}, {"cat", "link"}};
    if (l.delay > 0) booking["args"] = {{"waited_ps", l.delay}};
    link.add(l.start, l.end, std::move(booking));
    // How long it waited, ending when it got the link; the wait may have come in pieces, between other bookings.
    if (l.delay > 0)
      waits.add(l.start - l.delay, l.start,
                {{"name", owner + " waited"},
                 {"cat", "contention"},
                 {"args", {{"source", l.source}, {"waited_ps", l.delay}}}});
  }

  std::vector<Tracks> layout;
  auto link = links.begin();
  for (int i = 0; i < nodes; ++i) {
    const auto n = static_cast<std::size_t>(i);
    if (filter.keeps_node(i)) layout.push_back(std::move(program[n]));
    if (!out[n].slices.empty()) layout.push_back(std::move(out[n]));
    if (!in[n].slices.empty()) layout.push_back(std::move(in[n]));
    for (; link != links.end() && link->first.first <= i; ++link) {
      layout.push_back(std::move(link->second.first));
      if (!link->second.second.slices.empty()) layout.push_back(std::move(link->second.second));
    }
  }
  for (; link != links.end(); ++link) {  // from nodes the report does not list: not expected, but not lost
    layout.push_back(std::move(link->second.first));
    if (!link->second.second.slices.empty()) layout.push_back(std::move(link->second.second));
  }
  int tid = 1;
  for (Tracks& t : layout) {
    t.place();
    t.first_tid = tid;
    tid += static_cast<int>(t.lanes);
  }
  return layout;
}

}  // namespace

void write_run_tracks(TraceEventWriter& writer, const RunReport& run, std::string_view label, int pid,
                      const TraceFilter& filter) {
  const std::vector<Tracks> layout = lay_out(run, filter);

  writer.event({{"ph", "M"},
                {"name", "process_name"},
                {"pid", pid},
                {"args", {{"name", label.empty() ? std::string("hcemu run") : std::string(label)}}}});
  writer.event({{"ph", "M"}, {"name", "process_sort_index"}, {"pid", pid}, {"args", {{"sort_index", pid}}}});
  for (const Tracks& t : layout)
    for (std::size_t lane = 0; lane < t.lanes; ++lane) {
      const int tid = t.first_tid + static_cast<int>(lane);
      writer.event(
          {{"ph", "M"}, {"name", "thread_name"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", t.lane_name(lane)}}}});
      writer.event(
          {{"ph", "M"}, {"name", "thread_sort_index"}, {"pid", pid}, {"tid", tid}, {"args", {{"sort_index", tid}}}});
    }

  // A flow for every message with both slices in the file (a discarded message has no receive; a filter may leave
  // out either end).
  std::set<std::uint64_t> sent, received;
  for (const Tracks& t : layout)
    for (const Slice& s : t.slices) {
      if (s.message == 0) continue;
      if (t.role == Role::out) sent.insert(s.message);
      if (t.role == Role::in) received.insert(s.message);
    }
  std::map<std::uint64_t, std::uint64_t> flow_of;
  for (std::uint64_t m : sent)
    if (received.count(m) > 0) flow_of[m] = writer.new_flow_id();

  struct FlowEnd {
    Time at;
    bool start;
    std::uint64_t id;
    int tid;
  };
  std::vector<FlowEnd> flow_ends;
  for (const Tracks& t : layout) {
    for (const Slice& s : t.slices) {
      const int tid = t.first_tid + static_cast<int>(s.lane);
      json fields = s.fields;
      fields["ph"] = "X";
      fields["pid"] = pid;
      fields["tid"] = tid;
      writer.event(fields, s.start, s.end - s.start);
      const auto flow = s.message != 0 ? flow_of.find(s.message) : flow_of.end();
      if (flow != flow_of.end() && (t.role == Role::out || t.role == Role::in))
        flow_ends.push_back({s.start, t.role == Role::out, flow->second, tid});
    }
    for (const auto& [at, fields] : t.instants) {
      json instant = fields;
      instant["ph"] = "i";
      instant["s"] = "t";
      instant["pid"] = pid;
      instant["tid"] = t.first_tid;
      writer.event(instant, at);
    }
  }

  // Each end at its slice's start, where both trace viewers look for it: Perfetto binds it to the slice that encloses
  // it (bp "e" for the end), Chrome DevTools to the slice that starts there. DevTools reads flow events in file order
  // and drops an end met before its start, so they go in time order (a receive starts after its send:
  // docs/traces.md).
  std::stable_sort(flow_ends.begin(), flow_ends.end(), [](const FlowEnd& a, const FlowEnd& b) {
    return a.at != b.at ? a.at < b.at : a.start > b.start;
  });
  for (const FlowEnd& e : flow_ends) {
    json fields = {{"ph", e.start ? "s" : "f"}, {"cat", kMessageCategory}, {"name", kMessageCategory},
                   {"id", e.id},                {"pid", pid},              {"tid", e.tid}};
    if (!e.start) fields["bp"] = "e";
    writer.event(fields, e.at);
  }
}

std::uint64_t estimated_trace_bytes(const RunReport& run, const TraceFilter& filter) {
  // The average bytes of each kind of event as written (docs/traces.md: about 0.9 KB a message in all), times digits
  // that grow with the run: a long run's times and a large machine's node numbers take a few more.
  constexpr std::uint64_t kSlice = 130, kLinkBooking = 95, kFlowEnd = 90, kTrackNames = 170;
  const auto nodes = static_cast<int>(run.nodes.size());
  std::uint64_t bytes = 0, sends = 0, receives = 0;
  for (const TraceSpan& s : run.trace) {
    if (s.node < 0 || s.node >= nodes || !filter.keeps_node(s.node) || !filter.keeps_span(s.start, s.end)) continue;
    bytes += kSlice;
    sends += s.kind == "send";
    receives += s.kind == "recv";
  }
  std::set<std::pair<int, int>> links;
  for (const LinkSpan& l : run.link_trace) {
    if (!filter.keeps_node(l.from) || !filter.keeps_span(l.start - l.delay, l.end)) continue;
    bytes += kLinkBooking + (l.delay > 0 ? kSlice : 0);
    links.insert({l.from, l.dim});
  }
  bytes += 2 * kFlowEnd * std::min(sends, receives);
  int kept = 0;
  for (int i = 0; i < nodes; ++i) kept += filter.keeps_node(i);
  return bytes + kTrackNames * (3 * static_cast<std::uint64_t>(kept) + links.size());
}

}  // namespace hcemu::detail
