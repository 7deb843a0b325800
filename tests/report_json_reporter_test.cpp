// JsonReporter (hcemu/reporter.hpp): the runs as one document of the command's shape, {"context", "runs",
// "schema_version"} (docs/cli.md, "JSON output"), written as the runs come, laid out as nlohmann's dump(2).
#include <gtest/gtest.h>

#include <array>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "core_support.hpp"
#include "hcemu/hcemu.hpp"
#include "hcemu/report_json.hpp"
#include "hcemu/reporter.hpp"

namespace hcemu {
namespace {

using nlohmann::json;

// A 2-cube whose nodes each send 8 bytes to their dimension-0 neighbour: one message per node, over 4 links.
RunReport neighbour_exchange() {
  Machine machine(test::round_config(2));
  return machine.run([](Node& node) {
    std::array<std::byte, 8> out{}, in{};
    node.exchange(node.neighbor(0), out, in);
  });
}

std::string written(bool per_node, int runs) {
  std::ostringstream text;
  JsonReporter reporter(text, per_node);
  const RunReport report = neighbour_exchange();
  for (int i = 0; i < runs; ++i) reporter.report("exchange " + std::to_string(i), report);
  reporter.finish();
  return text.str();
}

TEST(JsonReporter, WritesTheCommandsDocumentShape) {
  const json j = json::parse(written(false, 1));
  EXPECT_EQ(j.size(), 3u);
  EXPECT_EQ(j["schema_version"], 5);
  ASSERT_EQ(j["runs"].size(), 1u);
  EXPECT_EQ(j["runs"][0]["label"], "exchange 0");
  EXPECT_EQ(j["runs"][0]["report"]["messages"], 4);
}

TEST(JsonReporter, ContextNamesTheFirstRunsMachineAndNoCommand) {
  const json context = json::parse(written(false, 2))["context"];
  EXPECT_EQ(context["config"], test::round_config(2).name);
  EXPECT_EQ(context["timing"], "virtual");
  EXPECT_EQ(context["ranks"], 1);
  EXPECT_TRUE(context["command"].is_null());
  EXPECT_FALSE(context["command_line"].empty());  // this test program's
  for (const char* field : {"hcemu_version", "git_commit", "build_type", "compiler", "mpi_built", "host",
                            "hardware_threads", "date", "engine", "workers"})
    EXPECT_TRUE(context.contains(field)) << field;
}

TEST(JsonReporter, EveryRunInOrder) {
  const json j = json::parse(written(false, 3));
  ASSERT_EQ(j["runs"].size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(j["runs"][i]["label"], "exchange " + std::to_string(i));
}

TEST(JsonReporter, PerNodeArraysOnlyWhenAsked) {
  const json without = json::parse(written(false, 1))["runs"][0]["report"];
  EXPECT_FALSE(without.contains("nodes"));
  EXPECT_FALSE(without.contains("links"));
  const json with = json::parse(written(true, 1))["runs"][0]["report"];
  ASSERT_EQ(with["nodes"].size(), 4u);
  for (const json& node : with["nodes"]) EXPECT_EQ(node["messages_sent"], 1);
  EXPECT_EQ(with["links"].size(), 4u);  // each node's dimension-0 link carried its message
}

TEST(JsonReporter, NoRunsIsAnEmptyRunsArray) {
  const json j = json::parse(written(false, 0));
  EXPECT_TRUE(j["runs"].is_array());
  EXPECT_TRUE(j["runs"].empty());
  EXPECT_TRUE(j["context"]["config"].is_null());
}

TEST(JsonReporter, TextIsLaidOutAsNlohmannDumpsIt) {
  for (const bool per_node : {false, true}) {
    const std::string text = written(per_node, 2);
    EXPECT_EQ(text, json::parse(text).dump(2) + "\n");
  }
}

TEST(JsonReporter, ReportIsToJsonOfTheRun) {
  const RunReport report = neighbour_exchange();
  std::ostringstream text;
  JsonReporter reporter(text, true);
  reporter.report("", report);
  reporter.finish();
  const json streamed = json::parse(text.str())["runs"][0]["report"];
  const json tree = to_json(report);
  EXPECT_EQ(streamed["makespan_ps"], report.makespan);
  EXPECT_EQ(streamed.size(), tree.size());
  EXPECT_EQ(streamed["nodes"], tree["nodes"]);
}

}  // namespace
}  // namespace hcemu
