// Every `--json` has one shape, {"schema_version": 5, "context": {...}, payload}, whatever the command and however
// many algorithms ran (docs/cli.md, "JSON output"), and its context says what made it.
#include <unistd.h>

#include <array>
#include <cctype>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run_hcemu.hpp"

namespace hcemu::cli {
namespace {

using test::hcemu;
using test::json_of;
using test::Result;
using test::run_of;
using test::runs_of;

// The context's fields, as docs/cli.md lists them.
const std::set<std::string> kContextFields = {
    "hcemu_version", "git_commit", "build_type", "compiler", "mpi_built", "host", "hardware_threads", "date",
    "command",       "command_line", "ranks", "config", "engine", "workers", "timing"};

std::set<std::string> keys_of(const nlohmann::json& object) {
  std::set<std::string> keys;
  for (const auto& [key, value] : object.items()) keys.insert(key);
  return keys;
}

struct Shape {
  const char* arguments;
  const char* command;  // the context's "command"
  const char* payload;
};

class EveryJsonOutput : public ::testing::TestWithParam<Shape> {};

TEST_P(EveryJsonOutput, IsSchemaVersionContextAndOnePayload) {
  const auto j = json_of(hcemu(GetParam().arguments, 120));
  EXPECT_EQ(keys_of(j), (std::set<std::string>{"schema_version", "context", GetParam().payload})) << j.dump();
  EXPECT_EQ(j["schema_version"], 5);
  EXPECT_EQ(keys_of(j["context"]), kContextFields);
  EXPECT_EQ(j["context"]["command"], GetParam().command);
}

INSTANTIATE_TEST_SUITE_P(
    Commands, EveryJsonOutput,
    ::testing::Values(Shape{"run exchange -d 2 --algo direct --json", "run", "runs"},
                      Shape{"run exchange -d 2 --json", "run", "runs"},
                      Shape{"sweep exchange -d 2 -m 0,8 --json", "sweep", "runs"},
                      Shape{"plan -d 2 --json", "plan", "plan"},
                      Shape{"plan --topology torus -d 4 -m 8 --json", "plan", "plan"},
                      Shape{"plan matmul -d 2 -m 4 --json", "plan matmul", "plan"},
                      Shape{"fit --kernel exchange -d 2 --algo direct -m 32,256 --json", "fit", "fit"},
                      Shape{"configs --json", "configs", "presets"}, Shape{"configs --keys --json", "configs", "keys"}),
    [](const ::testing::TestParamInfo<Shape>& param) {
      std::string name = param.param.arguments;
      for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return name;
    });

TEST(JsonRuns, OneAlgorithmAndSeveralAreTheSameShape) {
  const auto one = runs_of(hcemu("run exchange -d 2 --algo direct --json"));
  const auto several = runs_of(hcemu("run exchange -d 2 --json"));
  ASSERT_TRUE(one.is_array());
  ASSERT_TRUE(several.is_array());
  ASSERT_EQ(one.size(), 1u);
  ASSERT_EQ(several.size(), 2u);  // d = 2: Direct and Standard, whose partitions (2) and (1,1) are every E(2, n)
  EXPECT_EQ(keys_of(one[0]), keys_of(several[0]));
  // The only algorithm is the fastest of those listed; among several, one is.
  EXPECT_TRUE(one[0]["optimal"].get<bool>());
  EXPECT_EQ(several[0]["optimal"].get<bool>() + several[1]["optimal"].get<bool>(), 1);
}

TEST(JsonRuns, AFailedRunIsARunWithItsError) {
  // Every node needs 2·2^d·m bytes for its blocks; an arena of 4096 bytes cannot hold them.
  const Result r = hcemu("run exchange --algo direct -d 3 -m 4096 --set arena_bytes=4096 --json");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema_version"], 5);
  ASSERT_EQ(j["runs"].size(), 1u);
  const auto& run = j["runs"][0];
  EXPECT_NE(run["error"].get<std::string>().find("arena"), std::string::npos) << run;
  EXPECT_FALSE(run["verified"].get<bool>());
  EXPECT_TRUE(run["emulated_us"].is_null());
}

TEST(JsonContext, SaysWhatMadeTheOutput) {
  const auto context =
      json_of(hcemu("run exchange -d 2 --algo direct --engine os_threads --workers 3 --json"))["context"];
  // The build as --version names it, and as CMake configured it.
  const std::string version = hcemu("--version").out;
  EXPECT_EQ(context["hcemu_version"], HCEMU_PROJECT_VERSION);
  if (const auto at = version.find(" (commit "); at != std::string::npos) {
    EXPECT_EQ(context["git_commit"], version.substr(at + 9, version.find(')', at) - at - 9));
  } else {
    EXPECT_TRUE(context["git_commit"].is_null()) << context["git_commit"];
  }
  EXPECT_EQ(context["build_type"], HCEMU_EXPECTED_BUILD_TYPE);
  EXPECT_EQ(context["compiler"], HCEMU_EXPECTED_COMPILER);
  EXPECT_EQ(context["mpi_built"], static_cast<bool>(HCEMU_EXPECTED_MPI));
  std::array<char, 256> host{};
  ASSERT_EQ(::gethostname(host.data(), host.size() - 1), 0);
  EXPECT_EQ(context["host"], std::string(host.data()));
  EXPECT_EQ(context["hardware_threads"], std::thread::hardware_concurrency());
  EXPECT_TRUE(std::regex_match(context["date"].get<std::string>(),
                               std::regex(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)")))
      << context["date"];
  EXPECT_EQ(context["command_line"], (nlohmann::json{HCEMU_BINARY, "run", "exchange", "-d", "2", "--algo", "direct",
                                                     "--engine", "os_threads", "--workers", "3", "--json"}));
  EXPECT_EQ(context["ranks"], 1);
  EXPECT_EQ(context["config"], "ipsc860");
  EXPECT_EQ(context["engine"], "os_threads");
  EXPECT_EQ(context["workers"], 3);
  EXPECT_EQ(context["timing"], "virtual");
}

TEST(JsonContext, ACommandWithoutAMachineHasNullMachineFields) {
  const auto context = json_of(hcemu("configs --json"))["context"];
  for (const char* field : {"config", "engine", "workers", "timing"}) EXPECT_TRUE(context[field].is_null()) << field;
}

TEST(JsonSweep, EachMHasOneOptimalRun) {
  const auto runs = runs_of(hcemu("sweep exchange -d 2 -m 0,64 --json"));
  ASSERT_EQ(runs.size(), 4u);
  std::map<std::size_t, int> optimal;
  for (const auto& run : runs) {
    EXPECT_FALSE(run.contains("report"));
    optimal[run["m"].get<std::size_t>()] += run["optimal"].get<bool>();
  }
  EXPECT_EQ(optimal, (std::map<std::size_t, int>{{0, 1}, {64, 1}}));
}

}  // namespace
}  // namespace hcemu::cli
