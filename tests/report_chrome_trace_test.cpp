// The Chrome trace (--trace, ChromeTraceReporter) checked as a file, without Perfetto: every track's slices nest,
// every message is one flow from its send to its receive, FORCED discards are marked, every track is named, and times
// are the model's picoseconds written exactly. docs/traces.md describes the layout these tests hold it to.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core_support.hpp"
#include "hcemu/hcemu.hpp"
#include "hcemu/kernels/exchange.hpp"
#include "hcemu/model/transfer.hpp"
#include "hcemu/reporter.hpp"
#include "report/trace_event_writer.hpp"

namespace hcemu {
namespace {

using nlohmann::json;
using test::bytes_of;
using test::round_config;
using test::us;

using TrackKey = std::pair<int, int>;  // (pid, tid)

// Microseconds as written back to picoseconds: the file's decimals have six places at most, so this is exact.
Time ps(const json& microseconds) { return std::llround(microseconds.get<double>() * 1e6); }

struct Trace {
  std::string text;
  json file;
  std::map<TrackKey, std::string> track_names;
  std::map<int, std::string> process_names;

  const json& events() const { return file.at("traceEvents"); }
  std::string track(const json& e) const {
    auto it = track_names.find({e.at("pid").get<int>(), e.at("tid").get<int>()});
    return it == track_names.end() ? "" : it->second;
  }
  // The events of phase `ph` on the track named `name`.
  std::vector<json> on(const std::string& name, const std::string& ph) const {
    std::vector<json> out;
    for (const auto& e : events())
      if (e.at("ph") == ph && e.contains("tid") && track(e) == name) out.push_back(e);
    return out;
  }
};

Trace trace_of(const std::vector<std::pair<std::string, const RunReport*>>& runs) {
  std::ostringstream text;
  ChromeTraceReporter reporter(text);
  for (const auto& [label, run] : runs) reporter.report(label, *run);
  reporter.finish();
  Trace t;
  t.text = text.str();
  t.file = json::parse(t.text);
  for (const auto& e : t.events()) {
    if (e.at("ph") != "M") continue;
    if (e.at("name") == "thread_name")
      t.track_names[{e.at("pid").get<int>(), e.at("tid").get<int>()}] = e.at("args").at("name").get<std::string>();
    if (e.at("name") == "process_name") t.process_names[e.at("pid").get<int>()] = e.at("args").at("name");
  }
  return t;
}

Trace trace_of(const RunReport& run) { return trace_of({{"run", &run}}); }

// Everything Perfetto and chrome://tracing need to draw the file as meant; each failure is one line.
std::vector<std::string> structure_failures(const Trace& t) {
  std::vector<std::string> failures;
  std::map<TrackKey, std::vector<std::pair<Time, Time>>> slices;
  std::set<std::tuple<TrackKey, Time, std::string>> slice_starts;  // where Chrome DevTools binds a flow event
  std::map<std::uint64_t, std::vector<json>> starts, finishes;
  std::set<TrackKey> tracks_used;
  std::set<int> processes_used;
  for (const auto& e : t.events()) {
    const std::string ph = e.at("ph");
    if (ph == "M") continue;
    const TrackKey key{e.at("pid").get<int>(), e.at("tid").get<int>()};
    tracks_used.insert(key);
    processes_used.insert(key.first);
    if (ph == "X") {
      if (ps(e.at("dur")) < 0) failures.push_back("negative duration: " + e.dump());
      slices[key].push_back({ps(e.at("ts")), ps(e.at("ts")) + ps(e.at("dur"))});
      slice_starts.insert({key, ps(e.at("ts")), e.value("cat", "")});
    } else if (ph == "s") {
      starts[e.at("id").get<std::uint64_t>()].push_back(e);
    } else if (ph == "f") {
      // DevTools reads flow events in file order: a finish before its start is dropped.
      if (starts.count(e.at("id").get<std::uint64_t>()) == 0)
        failures.push_back("flow finish before its start: " + e.dump());
      finishes[e.at("id").get<std::uint64_t>()].push_back(e);
    } else if (ph != "i") {
      failures.push_back("unexpected phase: " + e.dump());
    }
  }

  // Slices of one track nest: two that overlap, one holds the other.
  for (auto& [key, spans] : slices) {
    std::sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    std::vector<std::pair<Time, Time>> open;
    for (const auto& s : spans) {
      while (!open.empty() && open.back().second <= s.first) open.pop_back();
      if (!open.empty() && s.second > open.back().second)
        failures.push_back("on " + t.track_names.at(key) + ": [" + std::to_string(open.back().first) + ", " +
                           std::to_string(open.back().second) + "] and [" + std::to_string(s.first) + ", " +
                           std::to_string(s.second) + "] overlap without nesting");
      open.push_back(s);
    }
  }

  // A flow event binds to a slice of its own track: in Perfetto to the one that holds its time, in Chrome DevTools to
  // the one of its category that starts at its time. Both hold when it sits at the start of a slice of its category.
  const auto bound = [&](const json& e) {
    const TrackKey key{e.at("pid").get<int>(), e.at("tid").get<int>()};
    return slice_starts.count({key, ps(e.at("ts")), e.value("cat", "")}) > 0;
  };
  for (const auto& [id, s] : starts) {
    const auto f = finishes.find(id);
    if (s.size() != 1 || f == finishes.end() || f->second.size() != 1) {
      failures.push_back("flow " + std::to_string(id) + ": " + std::to_string(s.size()) + " starts, " +
                         std::to_string(f == finishes.end() ? 0 : f->second.size()) + " finishes");
      continue;
    }
    const json& start = s.front();
    const json& finish = f->second.front();
    // DevTools keeps one slice per timestamp of a flow: ends at one time would make it a flow of one slice, dropped.
    if (ps(finish.at("ts")) <= ps(start.at("ts")))
      failures.push_back("flow finishes no later than it starts: " + finish.dump());
    if (start.at("cat") != finish.at("cat") || start.at("name") != finish.at("name"))
      failures.push_back("flow's ends differ in name or category: " + start.dump() + " " + finish.dump());
    if (finish.value("bp", "") != "e") failures.push_back("flow finish without bp e: " + finish.dump());
    if (!bound(start) || !bound(finish)) failures.push_back("flow " + std::to_string(id) + " has no slice to bind to");
  }
  for (const auto& [id, f] : finishes)
    if (starts.count(id) == 0) failures.push_back("flow " + std::to_string(id) + " finishes without a start");

  for (const auto& key : tracks_used)
    if (t.track_names.count(key) == 0)
      failures.push_back("track pid " + std::to_string(key.first) + " tid " + std::to_string(key.second) + " unnamed");
  for (int pid : processes_used)
    if (t.process_names.count(pid) == 0) failures.push_back("process " + std::to_string(pid) + " unnamed");
  return failures;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

std::size_t count_phase(const Trace& t, const std::string& ph) {
  std::size_t n = 0;
  for (const auto& e : t.events()) n += e.at("ph") == ph;
  return n;
}

EmulatorSettings tracing() {
  EmulatorSettings settings;
  settings.trace = true;
  return settings;
}

// core_transfer_test's crossing circuit (all-port, d = 2): node 1 sends L bytes to 3 over link 1->3 and tells node 0
// by a zero-byte message; node 0 then sends to 3 by e-cube, 0->1->3, and waits for link 1->3.
RunReport crossing_circuit(std::size_t length) {
  auto config = round_config(2);
  config.ports = {Ports::Kind::all, 0};
  return Machine(config, tracing()).run([length](Node& node) {
    std::vector<std::byte> buf(length);
    if (node.id() == 1) {
      Request r = node.isend(3, buf);
      node.send(0, std::span<const std::byte>{});
      node.wait(r);
    } else if (node.id() == 0) {
      node.recv(1, std::span<std::byte>{});
      node.send(3, buf);
    } else if (node.id() == 3) {
      node.recv(1, buf);
      node.recv(0, buf);
    }
  });
}

TEST(ChromeTrace, ExchangeWithContentionNestsAndShowsTheWaitOnItsLink) {
  constexpr std::size_t L = 200;
  const RunReport run = crossing_circuit(L);
  const Trace t = trace_of(run);
  EXPECT_EQ(structure_failures(t), std::vector<std::string>{}) << joined(structure_failures(t));

  const MachineConfig& c = run.config;
  const Time first = model::message_time(c, L, 1);  // 1 -> 3
  const Time told = model::message_time(c, 0, 1);   // 1 -> 0
  // Link 1->3 carries node 1's transfer from 0, then node 0's, which waited for it from `told` to `first`.
  const auto bookings = t.on("link 1->3", "X");
  ASSERT_EQ(bookings.size(), 2u);
  EXPECT_EQ(ps(bookings[0]["ts"]), 0);
  EXPECT_EQ(bookings[0]["name"], "node 1");
  EXPECT_FALSE(bookings[0].contains("args"));  // it did not wait
  EXPECT_EQ(ps(bookings[1]["ts"]), first);
  EXPECT_EQ(bookings[1]["name"], "node 0");
  EXPECT_EQ(bookings[1]["args"]["waited_ps"].get<Time>(), first - told);
  const auto waits = t.on("link 1->3 waits", "X");
  ASSERT_EQ(waits.size(), 1u);
  EXPECT_EQ(ps(waits[0]["ts"]), told);
  EXPECT_EQ(ps(waits[0]["dur"]), first - told);
  EXPECT_EQ(waits[0]["args"]["waited_ps"].get<Time>(), first - told);
  EXPECT_TRUE(t.on("link 0->1 waits", "X").empty());

  // Three messages, three arrows, each from its sender's output port to its receiver's input port (on whichever of
  // the port's lanes: "node 1 out 2" is node 1's output port too).
  ASSERT_EQ(count_phase(t, "s"), 3u);
  const auto port = [&](const json& e) {
    std::string name = t.track(e);
    const auto space = name.find_last_of(' ');
    return name.find_first_not_of("0123456789", space + 1) == std::string::npos ? name.substr(0, space) : name;
  };
  std::set<std::pair<std::string, std::string>> arrows;
  std::map<std::uint64_t, std::string> start_port;
  for (const auto& e : t.events())
    if (e["ph"] == "s") start_port[e["id"].get<std::uint64_t>()] = port(e);
  for (const auto& e : t.events())
    if (e["ph"] == "f") arrows.insert({start_port[e["id"].get<std::uint64_t>()], port(e)});
  EXPECT_EQ(arrows, (std::set<std::pair<std::string, std::string>>{
                        {"node 1 out", "node 3 in"}, {"node 1 out", "node 0 in"}, {"node 0 out", "node 3 in"}}));
}

TEST(ChromeTrace, DirectExchangeOnATorusDrawsEveryMessageAndEveryWait) {
  // Bokhari's Direct exchange, made for the cube's e-cube routes, on a 4 x 4 torus: its XOR partners' routes cross,
  // so transfers wait for links. The trace must show every message and every wait the report counts.
  constexpr std::size_t m = 16;
  auto config = round_config(4);
  config.topology = Topology{Topology::Kind::torus, 4, 4};
  config.protocol = Protocol::unforced;
  const RunReport run = Machine(config, tracing()).run([](Node& node) {
    std::vector<std::byte> out = bytes_of(m * 16, static_cast<unsigned>(node.id())), in(m * 16);
    kernels::direct_exchange(node, out, in, m);
  });
  ASSERT_GT(run.contention_events(), 0u);
  const Trace t = trace_of(run);
  EXPECT_EQ(structure_failures(t), std::vector<std::string>{}) << joined(structure_failures(t));
  EXPECT_EQ(count_phase(t, "s"), run.messages());
  std::size_t waits = 0;
  Time waited = 0;
  for (const auto& e : t.events()) {
    if (e["ph"] != "X" || e.value("cat", "") != "contention") continue;
    ++waits;
    waited += ps(e["dur"]);
    EXPECT_NE(t.track(e).find(" waits"), std::string::npos) << e;
  }
  EXPECT_EQ(waits, run.contention_events());
  EXPECT_EQ(waited, run.contention_delay());
}

TEST(ChromeTrace, ReceiveStartsWhenTheFirstByteArrivesAndItsArrowEndsThere) {
  constexpr std::size_t L = 200;
  const RunReport run = crossing_circuit(L);
  const Trace t = trace_of(run);
  const MachineConfig& c = run.config;
  // Node 1's L bytes to node 3, one hop, from 0: its first byte reaches node 3 after λ + δ' + δ·1
  // (docs/model.md §3), its receive completes at the end of the transfer; the send holds node 1's port from 0.
  const Time first_byte = from_us(c.lambda + c.delta_msg + c.delta_hop);
  // Node 1 sends to 0 at the same time (all-port): its output port has two lanes.
  std::optional<json> send;
  for (const std::string lane : {"node 1 out", "node 1 out 2"})
    for (const json& e : t.on(lane, "X"))
      if (e["name"] == "send to 3") send = e;
  ASSERT_TRUE(send);
  EXPECT_EQ(ps((*send)["ts"]), 0);
  std::optional<json> receive;
  for (const json& e : t.on("node 3 in", "X"))
    if (e["name"] == "recv from 1") receive = e;
  ASSERT_TRUE(receive);
  EXPECT_EQ(ps((*receive)["ts"]), first_byte);
  EXPECT_EQ(ps((*receive)["ts"]) + ps((*receive)["dur"]), model::message_time(c, L, 1));
  EXPECT_EQ((*receive)["args"]["message"], (*send)["args"]["message"]);
  // The arrow: from the send's start to the receive's start, in the slices' own category, start first in the file.
  std::optional<json> start;
  for (const json& e : t.events())
    if (e["ph"] == "s" && e["tid"] == (*send)["tid"] && e["ts"] == (*send)["ts"]) start = e;
  ASSERT_TRUE(start);
  EXPECT_EQ((*start)["cat"], (*send)["cat"]);
  std::optional<json> finish;
  for (const json& e : t.events())
    if (e["ph"] == "f" && e["id"] == (*start)["id"]) finish = e;
  ASSERT_TRUE(finish);
  EXPECT_EQ(t.track(*finish), "node 3 in");
  EXPECT_EQ(ps((*finish)["ts"]), first_byte);
  EXPECT_EQ((*finish)["cat"], (*receive)["cat"]);
  EXPECT_EQ((*finish)["bp"], "e");
}

TEST(ChromeTrace, NodeProgramShowsItsBlockingCallsApartFromItsPorts) {
  constexpr std::size_t L = 200;
  const RunReport run = crossing_circuit(L);
  const Trace t = trace_of(run);
  const Time first = model::message_time(run.config, L, 1);
  const Time told = model::message_time(run.config, 0, 1);
  // Node 0: blocked in recv until the zero-byte message is in, then in send until its transfer, held up by the
  // link, is out (circuit: the whole message holds the output port).
  const auto program = t.on("node 0", "X");
  ASSERT_EQ(program.size(), 2u);
  EXPECT_EQ(program[0]["name"], "recv from 1");
  EXPECT_EQ(ps(program[0]["ts"]), 0);
  EXPECT_EQ(ps(program[0]["dur"]), told);
  EXPECT_EQ(program[1]["name"], "send to 3");
  EXPECT_EQ(ps(program[1]["ts"]), told);
  EXPECT_EQ(ps(program[1]["ts"]) + ps(program[1]["dur"]), first + model::message_time(run.config, L, 2));
  // Node 1: in its blocking send to 0, then in the wait for its earlier isend to 3.
  const auto sender = t.on("node 1", "X");
  ASSERT_EQ(sender.size(), 2u);
  EXPECT_EQ(sender[0]["name"], "send to 0");
  EXPECT_EQ(sender[1]["name"], "wait send to 3");
  EXPECT_EQ(ps(sender[1]["ts"]), told);
  EXPECT_EQ(ps(sender[1]["dur"]), first - told);
  // Node 1 drives two transfers at once (all-port): its output port has two lanes.
  EXPECT_EQ(t.on("node 1 out", "X").size(), 1u);
  EXPECT_EQ(t.on("node 1 out 2", "X").size(), 1u);
}

TEST(ChromeTrace, ForcedDiscardIsAnInstantOnTheReceiversProgramAndHasNoArrow) {
  // core_protocol_test's case: node 0's first message reaches node 1 before node 1 posts its receive.
  auto config = round_config(1);
  config.protocol = Protocol::forced;
  const RunReport run = Machine(config, tracing()).run([](Node& node) {
    std::vector<std::byte> buf(8);
    if (node.id() == 0) {
      node.send(1, bytes_of(8), 3);  // lost
      node.elapse(from_us(100));
      node.send(1, bytes_of(8), 3);  // received
    }
    if (node.id() == 1) {
      node.elapse(from_us(50));
      node.recv(0, buf, 3);
    }
  });
  ASSERT_EQ(run.forced_discards.size(), 1u);
  const Trace t = trace_of(run);
  EXPECT_EQ(structure_failures(t), std::vector<std::string>{}) << joined(structure_failures(t));

  const auto discards = t.on("node 1", "i");
  ASSERT_EQ(discards.size(), 1u);
  const json& d = discards[0];
  // Its first byte arrives at λ + δ' + δ·1 (docs/model.md §3), before the post at 50 µs.
  EXPECT_EQ(ps(d["ts"]), from_us(config.lambda + config.delta_msg + config.delta_hop));
  EXPECT_EQ(d["s"], "t");
  EXPECT_EQ(d["args"]["source"], 0);
  EXPECT_EQ(d["args"]["tag"], 3);
  EXPECT_EQ(d["args"]["posted_ps"].get<Time>(), us(50));
  EXPECT_NE(d["name"].get<std::string>().find("FORCED discard from 0"), std::string::npos) << d;
  EXPECT_EQ(count_phase(t, "s"), 1u);  // the second message only
  EXPECT_EQ(count_phase(t, "f"), 1u);
}

TEST(ChromeTrace, DeadlockedRunShowsWhereEachBlockedNodeStuck) {
  // Node 0's only message reaches node 1 before node 1 posts its receive: it is lost and the receive waits for ever.
  // The DeadlockError carries the run's report, trace included.
  auto config = round_config(1);
  config.protocol = Protocol::forced;
  std::shared_ptr<const RunReport> run;
  try {
    Machine(config, tracing()).run([](Node& node) {
      std::vector<std::byte> buf(8);
      if (node.id() == 0) node.send(1, bytes_of(8), 5);
      if (node.id() == 1) {
        node.elapse(from_us(50));
        node.recv(0, buf, 5);
      }
    });
  } catch (const DeadlockError& e) {
    run = e.report;
  }
  ASSERT_NE(run, nullptr);
  const Trace t = trace_of(*run);
  EXPECT_EQ(structure_failures(t), std::vector<std::string>{}) << joined(structure_failures(t));
  const auto marks = t.on("node 1", "i");
  ASSERT_EQ(marks.size(), 2u);
  // The discard at the first byte's arrival, then the receive stuck at node 1's clock when it blocked: 50 µs.
  EXPECT_EQ(ps(marks[0]["ts"]), from_us(config.lambda + config.delta_msg + config.delta_hop));
  EXPECT_EQ(marks[0]["cat"], "discard");
  EXPECT_EQ(ps(marks[1]["ts"]), us(50));
  EXPECT_EQ(marks[1]["cat"], "deadlock");
  EXPECT_EQ(marks[1]["name"], "blocked in recv (peer 0, tag 5)");
  EXPECT_TRUE(t.on("node 0", "i").empty());  // node 0 finished
}

TEST(ChromeTrace, TorusLinksAreNamedAndTheirContentionShown) {
  // core_torus_test's crossing routes on a 4 x 4 torus: (0,0) -> (2,0) and (1,0) -> (3,0) both need link 1->2 (+x);
  // node 1's transfer waits one whole 2-hop message for it.
  auto config = round_config(4);
  config.topology = Topology{Topology::Kind::torus, 4, 4};
  const RunReport run = Machine(config, tracing()).run([](Node& node) {
    std::vector<std::byte> buf(8);
    if (node.id() == 0) node.send(2, buf);
    if (node.id() == 1) node.send(3, buf);
    if (node.id() == 2) node.recv(0, buf);
    if (node.id() == 3) node.recv(1, buf);
  });
  const Trace t = trace_of(run);
  EXPECT_EQ(structure_failures(t), std::vector<std::string>{}) << joined(structure_failures(t));
  const Time two_hops = model::message_time(config, 8, 2);
  EXPECT_EQ(t.on("link 0->1", "X").size(), 1u);
  EXPECT_EQ(t.on("link 1->2", "X").size(), 2u);
  EXPECT_EQ(t.on("link 2->3", "X").size(), 1u);
  const auto waits = t.on("link 1->2 waits", "X");
  ASSERT_EQ(waits.size(), 1u);
  EXPECT_EQ(ps(waits[0]["dur"]), two_hops);
  EXPECT_EQ(waits[0]["args"]["source"], 1);
  EXPECT_EQ(count_phase(t, "s"), 2u);
}

TEST(ChromeTrace, CubeAllPortExchangeKeepsEveryTrackNested) {
  // d = 3, all-port, UNFORCED, every node sends to each neighbour at once and receives late, after some compute:
  // sends overlap one another, and arrivals overlap the node's compute and its blocking calls.
  auto config = round_config(3);
  config.ports = {Ports::Kind::all, 0};
  config.protocol = Protocol::unforced;
  const RunReport run = Machine(config, tracing()).run([](Node& node) {
    std::vector<std::vector<std::byte>> in(3, std::vector<std::byte>(64)), out(3, bytes_of(64));
    std::vector<Request> sends;
    for (int k = 0; k < 3; ++k) sends.push_back(node.isend(node.neighbor(k), out[k], k));
    node.elapse(from_us(5 * (node.id() + 1)));
    for (int k = 0; k < 3; ++k) node.recv(node.neighbor(k), in[k], k);
    node.wait_all(sends);
    node.barrier();
  });
  const Trace t = trace_of(run);
  EXPECT_EQ(structure_failures(t), std::vector<std::string>{}) << joined(structure_failures(t));
  EXPECT_EQ(count_phase(t, "s"), 24u);
  EXPECT_EQ(count_phase(t, "f"), 24u);
  for (int i = 0; i < 8; ++i) {
    const std::string node = "node " + std::to_string(i);
    EXPECT_EQ(t.on(node + " out", "X").size() + t.on(node + " out 2", "X").size() + t.on(node + " out 3", "X").size(),
              3u)
        << node;
    EXPECT_EQ(t.on(node, "X").back()["name"], "barrier") << node;
  }
}

TEST(ChromeTrace, SeveralRunsAreProcessesNamedByTheirLabels) {
  const RunReport a = crossing_circuit(16), b = crossing_circuit(32);
  const Trace t = trace_of({{"first", &a}, {"second", &b}});
  // Each run numbers its messages alike; their flows must not meet.
  EXPECT_EQ(structure_failures(t), std::vector<std::string>{}) << joined(structure_failures(t));
  EXPECT_EQ(t.process_names, (std::map<int, std::string>{{1, "first"}, {2, "second"}}));
  EXPECT_EQ(count_phase(t, "s"), 6u);
}

TEST(ChromeTrace, CheckerCatchesMisnestingLoneFlowsAndUnnamedTracks) {
  // The structure check itself, on a file made by hand: what the old layout (every span of a node on one track)
  // produced, a receive that began during a compute and ended after it, and a flow without a finish.
  Trace t;
  t.file = json::parse(R"({"traceEvents": [
    {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "run"}},
    {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "node 0"}},
    {"ph": "X", "name": "compute", "pid": 1, "tid": 1, "ts": 0, "dur": 5},
    {"ph": "X", "name": "recv from 1", "pid": 1, "tid": 1, "ts": 3, "dur": 4},
    {"ph": "s", "name": "message", "cat": "message", "id": 7, "pid": 1, "tid": 1, "ts": 3},
    {"ph": "X", "name": "send to 1", "pid": 1, "tid": 2, "ts": 0, "dur": 1}]})");
  t.track_names[{1, 1}] = "node 0";
  t.process_names[1] = "run";
  const auto failures = structure_failures(t);
  ASSERT_EQ(failures.size(), 3u) << joined(failures);
  EXPECT_NE(failures[0].find("overlap without nesting"), std::string::npos) << failures[0];
  EXPECT_NE(failures[1].find("flow 7: 1 starts, 0 finishes"), std::string::npos) << failures[1];
  EXPECT_NE(failures[2].find("tid 2 unnamed"), std::string::npos) << failures[2];
}

TEST(ChromeTrace, TimesAreTheExactDecimalOfThePicoseconds) {
  EXPECT_EQ(detail::exact_us(0), "0");
  EXPECT_EQ(detail::exact_us(13'000'000), "13");
  EXPECT_EQ(detail::exact_us(1'500'000), "1.5");
  EXPECT_EQ(detail::exact_us(1), "0.000001");
  EXPECT_EQ(detail::exact_us(-2'000'250), "-2.00025");
  // 1234567890.123456 µs has 16 significant digits, more than a double keeps exactly.
  RunReport run;
  run.nodes.resize(1);
  run.trace.push_back(TraceSpan{0, "compute", 1'234'567'890'123'456, 1'234'567'890'123'457, -1, 0, 0, 0, {}});
  const Trace t = trace_of(run);
  EXPECT_NE(t.text.find("\"ts\":1234567890.123456,\"dur\":0.000001"), std::string::npos) << t.text;
}

}  // namespace
}  // namespace hcemu
