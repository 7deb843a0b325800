// A trace as Chrome DevTools' Performance panel reads it: `hcemu run --trace` loaded by its trace engine
// (@paulirish/trace_engine, under node, by trace_engine_counts.mjs) must show every message as an arrow from its send
// to its receive and every track the file names. The ctest fixture trace_engine.install puts the package in the build
// directory; without node or the package (no npm, no registry) the tests skip and say which is missing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "run_hcemu.hpp"

namespace hcemu::cli {
namespace {

using nlohmann::json;

std::filesystem::path scratch(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("hcemu-trace-engine-" + std::to_string(::getpid()) + "-" + name);
}

// Why the trace engine cannot run here, or "" when it can.
std::string missing() {
  if (std::string(HCEMU_NODE).empty()) return "node was not found when the build was configured";
  const auto package = std::filesystem::path(HCEMU_TRACE_ENGINE_PREFIX) / "node_modules/@paulirish/trace_engine";
  if (!std::filesystem::exists(package / "package.json"))
    return "@paulirish/trace_engine is not installed in " + std::string(HCEMU_TRACE_ENGINE_PREFIX) +
           " (the fixture trace_engine.install says why: no npm, or no registry)";
  return "";
}

struct Loaded {
  json runs;    // the runs of hcemu's --json, one per algorithm
  json trace;   // the file
  json engine;  // what the trace engine found: flows, threads, slices
};

// Runs `hcemu <arguments> --json --trace F` and loads F with the trace engine.
Loaded load(const std::string& arguments) {
  const auto path = scratch("trace.json");
  Loaded l;
  const auto r = test::hcemu(arguments + " --json --trace " + path.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  l.runs = test::runs_of(r);
  std::ifstream in(path);
  l.trace = json::parse(in);
  const auto engine = test::run_shell(std::string(HCEMU_NODE) + " " + HCEMU_TRACE_ENGINE_SCRIPT + " " +
                                      HCEMU_TRACE_ENGINE_PREFIX + " " + path.string());
  std::filesystem::remove(path);
  EXPECT_EQ(engine.exit_code, 0) << engine.out;
  l.engine = json::parse(engine.out);
  return l;
}

std::size_t messages(const Loaded& l) {
  std::size_t n = 0;
  for (const auto& run : l.runs) n += run.at("messages").get<std::size_t>();
  return n;
}

// Every arrow the engine found goes from a send slice to a receive slice of one message.
void expect_send_to_receive(const Loaded& l) {
  for (const auto& flow : l.engine.at("flows")) {
    EXPECT_TRUE(flow[0].get<std::string>().starts_with("send to ")) << flow;
    EXPECT_TRUE(flow[1].get<std::string>().starts_with("recv from ")) << flow;
    EXPECT_TRUE(flow[2].get<bool>()) << flow;
  }
}

// The engine shows one track per track the file names, each node's program among them.
void expect_every_track(const Loaded& l, int nodes) {
  std::multiset<std::string> named, shown;
  for (const auto& e : l.trace.at("traceEvents"))
    if (e.at("ph") == "M" && e.at("name") == "thread_name") named.insert(e.at("args").at("name").get<std::string>());
  for (const auto& t : l.engine.at("threads")) shown.insert(t.get<std::string>());
  EXPECT_EQ(shown, named);
  for (int i = 0; i < nodes; ++i)
    EXPECT_EQ(shown.count("node " + std::to_string(i)), l.runs.size()) << "node " << i;
}

TEST(TraceEngine, DirectExchangeShowsAnArrowPerMessageAndATrackPerNode) {
  if (const std::string why = missing(); !why.empty()) GTEST_SKIP() << why;
  const Loaded l = load("run exchange -d 3 --algo direct");
  EXPECT_EQ(messages(l), 56u);  // 8 nodes, each to the 7 others
  EXPECT_EQ(l.engine.at("flows").size(), messages(l));
  expect_send_to_receive(l);
  expect_every_track(l, 8);
}

TEST(TraceEngine, EveryAlgorithmOnAllPortsShowsAnArrowPerMessage) {
  // All-port: a node's transfers overlap, on lanes of their own; several runs: their flows numbered apart.
  if (const std::string why = missing(); !why.empty()) GTEST_SKIP() << why;
  const Loaded l = load("run exchange -d 3 --ports all");
  EXPECT_GT(l.runs.size(), 1u);
  EXPECT_EQ(l.engine.at("flows").size(), messages(l));
  expect_send_to_receive(l);
  expect_every_track(l, 8);
}

TEST(TraceEngine, TorusWithContentionShowsAnArrowPerMessage) {
  // Bokhari's Direct exchange on a 4 x 4 torus: its routes cross, so transfers wait for links.
  if (const std::string why = missing(); !why.empty()) GTEST_SKIP() << why;
  const Loaded l = load("run exchange --config torus -d 4 --algo direct");
  ASSERT_GT(l.runs.at(0).at("contention_events").get<std::size_t>(), 0u);
  EXPECT_EQ(l.engine.at("flows").size(), messages(l));
  expect_send_to_receive(l);
  expect_every_track(l, 16);
}

}  // namespace
}  // namespace hcemu::cli
