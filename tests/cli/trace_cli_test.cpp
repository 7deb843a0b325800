// `hcemu run --trace FILE`: a path that cannot be written is a usage error found before the run, and the file
// written is the trace of every case run, a deadlocked one included (its structure is tested in
// tests/report_chrome_trace_test.cpp); --trace-nodes and --trace-window narrow it, and a large one is announced with
// its size.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "cli/case_runner.hpp"
#include "cli/option_checks.hpp"
#include "cli/trace_writer.hpp"
#include "hcemu/hcemu.hpp"
#include "hcemu/kernels/exchange.hpp"
#include "hcemu/reporter.hpp"
#include "cli/text_table.hpp"
#include "report/trace_event_writer.hpp"

#include "run_hcemu.hpp"

namespace hcemu::cli {
namespace {

using test::hcemu;
using test::Result;

std::filesystem::path scratch(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("hcemu-trace-" + std::to_string(::getpid()) + "-" + name);
}

TEST(TraceFlag, PathInAMissingFolderIsAUsageErrorBeforeTheRun) {
  const auto path = scratch("missing") / "trace.json";
  // --json: a run would print its JSON to stdout; none may come.
  const auto r = hcemu("run exchange --algo direct -d 2 --json --trace " + path.string());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--trace " + path.string() + ": cannot open the file for writing"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(TraceFlag, FolderIsNotAFileToWrite) {
  const auto folder = scratch("folder");
  std::filesystem::create_directories(folder);
  EXPECT_THROW(check_writable(folder.string(), "--trace"), UsageError);
  const auto r = hcemu("run exchange --algo direct -d 2 --trace " + folder.string());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  std::filesystem::remove_all(folder);
}

TEST(TraceFlag, CheckLeavesNoFileAndKeepsAnExistingOne) {
  const auto fresh = scratch("fresh.json");
  check_writable(fresh.string(), "--trace");
  EXPECT_FALSE(std::filesystem::exists(fresh));
  const auto existing = scratch("existing.json");
  std::ofstream(existing) << "earlier";
  check_writable(existing.string(), "--trace");
  std::ifstream in(existing);
  std::string content;
  std::getline(in, content);
  EXPECT_EQ(content, "earlier");
  std::filesystem::remove(existing);
}

TEST(TraceFlag, EveryAlgorithmRunIsAProcessOfTheFileWithAnArrowPerMessage) {
  const auto path = scratch("all.json");
  const auto r = hcemu("run exchange -d 2 --json --trace " + path.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto runs = nlohmann::json::parse(r.out).at("runs");
  std::ifstream in(path);
  const auto trace = nlohmann::json::parse(in);
  std::filesystem::remove(path);
  std::size_t processes = 0, flows = 0, messages = 0;
  for (const auto& e : trace.at("traceEvents")) {
    processes += e.at("ph") == "M" && e.at("name") == "process_name";
    flows += e.at("ph") == "s";
  }
  for (const auto& run : runs) {
    EXPECT_EQ(run.at("forced_discards"), 0) << run;
    messages += run.at("messages").get<std::size_t>();
  }
  EXPECT_GT(runs.size(), 1u);
  EXPECT_EQ(processes, runs.size());
  EXPECT_EQ(flows, messages);
}

TEST(TraceFlag, DeadlockedCaseKeepsWhatItDidForTheTrace) {
  // A row whose kernel deadlocks: node 1 waits for a message node 0 never sends.
  harness::Algorithm stuck;
  stuck.name = "stuck";
  stuck.run = [](const MachineConfig& config, const EmulatorSettings& settings, const harness::KernelCase&) {
    Machine(config, settings).run([](Node& node) {
      std::vector<std::byte> buffer(8);
      node.elapse(from_us(3));
      if (node.id() == 1) node.recv(0, buffer, 7);
    });
    return harness::KernelResult{};
  };
  stuck.predict = [](const MachineConfig&, const harness::KernelCase&) { return std::optional<Time>{}; };
  const harness::KernelFamily family{"stuck", "", "", "stuck", {stuck}, {}};
  MachineConfig config;
  config.d = 1;
  EmulatorSettings settings;
  settings.trace = true;
  harness::KernelCase c;
  c.algo = "stuck";

  const CaseOutcome outcome = run_case(family, config, settings, c);
  EXPECT_FALSE(outcome.result);
  EXPECT_NE(outcome.error.find("deadlock"), std::string::npos) << outcome.error;
  ASSERT_NE(outcome.deadlocked, nullptr);
  ASSERT_EQ(outcome.deadlocked->blocked.size(), 1u);
  EXPECT_EQ(outcome.deadlocked->blocked[0].node, 1);
  EXPECT_EQ(outcome.deadlocked->nodes[1].final_clock, from_us(3));
  EXPECT_FALSE(outcome.deadlocked->trace.empty());  // both nodes' elapse
}


// A Direct exchange of 64-byte blocks on a d-cube, traced.
RunReport traced_direct_exchange(int d, Ports ports = {}) {
  MachineConfig config;
  config.d = d;
  config.ports = ports;
  config.lambda = 10;  // µs: round numbers, so that the run takes model time
  config.tau = 0.5;
  config.delta_msg = 2;
  config.delta_hop = 1;
  EmulatorSettings settings;
  settings.trace = true;
  return Machine(config, settings).run([d](Node& node) {
    constexpr std::size_t m = 64;
    std::vector<std::byte> out(m << d, std::byte{1}), in(m << d);
    kernels::direct_exchange(node, out, in, m);
  });
}

// The window [from, to] as --trace-window takes it: microseconds, exactly.
std::string exact_window(Time from, Time to) {
  return hcemu::detail::exact_us(from) + ":" + hcemu::detail::exact_us(to);
}

nlohmann::json trace_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in).at("traceEvents");
}

std::set<std::string> track_names(const nlohmann::json& events) {
  std::set<std::string> names;
  for (const auto& e : events)
    if (e.at("ph") == "M" && e.at("name") == "thread_name") names.insert(e.at("args").at("name").get<std::string>());
  return names;
}

std::size_t phase_count(const nlohmann::json& events, const std::string& ph) {
  std::size_t n = 0;
  for (const auto& e : events) n += e.at("ph") == ph;
  return n;
}

TEST(TraceNodes, ListTakesNumbersAndRangesInAnyOrder) {
  EXPECT_EQ(parse_node_list("6-7,0,3,5-5", 8), (std::vector<bool>{true, false, false, true, false, true, true, true}));
  EXPECT_EQ(parse_node_list("007", 8), (std::vector<bool>{false, false, false, false, false, false, false, true}));
}

TEST(TraceNodes, BadListIsAUsageErrorNamingTheOption) {
  for (const std::string bad : {"8", "0-8", "3-1", "1,,2", ",1", "1,", "-1", "0x3", "+1", "1 2", "a", "1-2-3"}) {
    try {
      parse_node_list(bad, 8);
      ADD_FAILURE() << bad << " was taken";
    } catch (const UsageError& e) {
      EXPECT_TRUE(std::string(e.what()).starts_with("--trace-nodes: ")) << e.what();
    }
  }
  const auto never = scratch("never.json").string();
  const auto r = hcemu("run exchange -d 3 --algo direct --trace " + never + " --trace-nodes 8");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--trace-nodes: node 8 is not on this machine of 8 nodes (0 to 7)"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(never));
}

TEST(TraceWindow, TakesMicrosecondsExactlyWithEitherEndLeftOut) {
  EXPECT_EQ(parse_time_window("100:250.5"), (std::pair<Time, Time>{100'000'000, 250'500'000}));
  EXPECT_EQ(parse_time_window("0.000001:0.000002"), (std::pair<Time, Time>{1, 2}));
  EXPECT_EQ(parse_time_window(":7"), (std::pair<Time, Time>{0, 7'000'000}));
  EXPECT_EQ(parse_time_window("7:"), (std::pair<Time, Time>{7'000'000, kNever}));
  EXPECT_EQ(parse_time_window("5:5"), (std::pair<Time, Time>{5'000'000, 5'000'000}));
}

TEST(TraceWindow, BadWindowIsAUsageErrorNamingTheOption) {
  for (const std::string bad : {"5", "5:1", "1:2:3", "1.0000001:", "-1:5", "1e3:", "a:b", ".5:", "5.:", "0x1:"}) {
    try {
      parse_time_window(bad);
      ADD_FAILURE() << bad << " was taken";
    } catch (const UsageError& e) {
      EXPECT_TRUE(std::string(e.what()).starts_with("--trace-window: ")) << e.what();
    }
  }
  const auto r = hcemu("run exchange -d 2 --algo direct --trace-window 0:5");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--trace-window requires --trace"), std::string::npos) << r.err;
}

TEST(TraceNodes, FileHasTheListedNodesAndTheirLinksAndTheArrowsAmongThem) {
  const auto path = scratch("nodes.json");
  const auto r = hcemu("run exchange -d 3 --algo direct --trace " + path.string() + " --trace-nodes 0,2-3");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto events = trace_file(path);
  std::filesystem::remove(path);
  // Each listed node's program and ports, and the three links each drives on the 3-cube.
  std::set<std::string> expected;
  for (int node : {0, 2, 3}) {
    for (const char* track : {"", " out", " in"}) expected.insert("node " + std::to_string(node) + track);
    for (int k = 0; k < 3; ++k)
      expected.insert("link " + std::to_string(node) + "->" + std::to_string(node ^ (1 << k)));
  }
  EXPECT_EQ(track_names(events), expected);
  // An arrow for each message between two listed nodes: 3 x 2.
  EXPECT_EQ(phase_count(events, "s"), 6u);
  EXPECT_EQ(phase_count(events, "f"), 6u);
}

TEST(TraceWindow, FileHasTheSlicesThatTouchTheWindowWholeAndTheArrowsBetweenThem) {
  const RunReport run = traced_direct_exchange(3);
  const Time from = run.makespan / 3, to = 2 * run.makespan / 3;
  TraceOptions options;
  options.path = scratch("window.json").string();
  options.window = exact_window(from, to);
  std::string warnings;
  write_chrome_trace(options, {{"direct", &run}}, [&](const std::string& w) { warnings += w; });
  EXPECT_EQ(warnings, "");
  const auto events = trace_file(options.path);
  std::filesystem::remove(options.path);
  const auto ps = [](const nlohmann::json& us) { return std::llround(us.get<double>() * 1e6); };
  std::size_t slices = 0, crossing = 0;
  std::map<std::uint64_t, int> ends;  // message -> slices written of it
  for (const auto& e : events) {
    if (e.at("ph") != "X") continue;
    ++slices;
    const Time start = ps(e.at("ts")), end = start + ps(e.at("dur"));
    EXPECT_TRUE(start <= to && end >= from) << e;
    crossing += start < from || end > to;  // kept whole, not cut at the window
    if (e.at("cat") == "message") ++ends[e["args"]["message"].get<std::uint64_t>()];
  }
  std::size_t both = 0;
  for (const auto& [message, n] : ends) both += n == 2;
  std::size_t in_window = 0;
  for (const auto& s : run.trace) in_window += s.start <= to && s.end >= from;
  for (const auto& l : run.link_trace) in_window += l.start - l.delay <= to && l.end >= from;
  EXPECT_EQ(slices, in_window);
  EXPECT_LT(slices, run.trace.size() + run.link_trace.size());
  EXPECT_GT(crossing, 0u);
  EXPECT_GT(both, 0u);
  EXPECT_EQ(phase_count(events, "s"), both);
}

TEST(TraceSize, EstimateIsWithinAFewPercentOfTheFile) {
  for (const RunReport& run : {traced_direct_exchange(5), traced_direct_exchange(4, {Ports::Kind::all, 0})}) {
    std::ostringstream text;
    ChromeTraceReporter trace(text);
    trace.report("direct", run);
    trace.finish();
    const auto written = static_cast<double>(text.str().size());
    const auto estimated = static_cast<double>(hcemu::detail::estimated_trace_bytes(run));
    EXPECT_NEAR(estimated / written, 1.0, 0.1) << estimated << " estimated, " << written << " written";
  }
}

TEST(TraceSize, LargeTraceIsAnnouncedWithItsSizeAndTheFiltersThatShrinkIt) {
  const RunReport run = traced_direct_exchange(4);
  TraceOptions options;
  options.path = "t.json";
  const std::uint64_t bytes = hcemu::detail::estimated_trace_bytes(run);
  EXPECT_EQ(large_trace_warning(options, {{"direct", &run}}, bytes), "");
  // A limit of a quarter of the file (just over): a quarter of the 16 nodes, or a quarter of the run's time.
  const std::string warning = large_trace_warning(options, {{"direct", &run}}, bytes / 4 + 1);
  EXPECT_TRUE(warning.starts_with("--trace t.json: about ")) << warning;
  EXPECT_NE(warning.find("(" + std::to_string(run.messages()) + " messages)"), std::string::npos) << warning;
  EXPECT_NE(warning.find("--trace-nodes 0-3 or --trace-window 0:" + fixed(to_us(run.makespan) / 4, 0)),
            std::string::npos)
      << warning;
}

}  // namespace
}  // namespace hcemu::cli
