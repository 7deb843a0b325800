// docs/hcemu-run.schema.json against real output of `hcemu run --json` and `hcemu sweep --json`, checked by Ajv (a
// JSON Schema validator for node, which tests/cli/CMakeLists.txt installs into the build folder); and the schema
// rejects what breaks it, so that a check that passes means something. Without node or Ajv the tests skip.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run_hcemu.hpp"

namespace hcemu::cli {
namespace {

using test::hcemu;
using test::Result;
using test::run_shell;

namespace fs = std::filesystem;

// Ajv's verdict on `document`: exit 0 valid, 1 not (its errors in `out`), 2 a bad schema, 3 no Ajv.
Result validate(const nlohmann::json& document) {
  static int counter = 0;
  const fs::path path =
      fs::temp_directory_path() / ("hcemu-schema-" + std::to_string(::getpid()) + "-" + std::to_string(++counter) +
                                   ".json");
  std::ofstream(path) << document.dump();
  Result r = run_shell(std::string("'") + HCEMU_NODE + "' '" + HCEMU_SCHEMA_VALIDATOR + "' '" + HCEMU_AJV_DIR + "' '" +
                       HCEMU_RUN_SCHEMA + "' '" + path.string() + "' 2>&1");
  fs::remove(path);
  return r;
}

class RunSchema : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(HCEMU_NODE))
      GTEST_SKIP() << "node is not installed (Debian: nodejs), so no JSON Schema validator can run";
    if (!fs::exists(fs::path(HCEMU_AJV_DIR) / "node_modules" / "ajv"))
      GTEST_SKIP() << "Ajv is not installed in " << HCEMU_AJV_DIR << " (the test cli.install_ajv installs it with "
                   << "npm from the npm registry; without npm or the registry it cannot)";
  }

  // The output of a command that prints JSON, checked valid.
  static nlohmann::json expect_valid(const std::string& arguments, int exit_code = 0) {
    const Result r = hcemu(arguments, 120);
    EXPECT_EQ(r.exit_code, exit_code) << arguments << '\n' << r.err;
    const auto document = nlohmann::json::parse(r.out);
    const Result verdict = validate(document);
    EXPECT_EQ(verdict.exit_code, 0) << arguments << '\n' << verdict.out;
    return document;
  }
};

TEST_F(RunSchema, OneAlgorithmIsValid) { expect_valid("run exchange -d 2 --algo direct --json"); }

TEST_F(RunSchema, EveryAlgorithmIsValid) {
  expect_valid("run exchange -d 3 --json");
  expect_valid("run broadcast -d 3 --json");
  expect_valid("run exchange -d 3 --algo direct --json --json-nodes");  // the per-node and per-link arrays too
}

TEST_F(RunSchema, ParametersOfEveryKindAreValid) {
  expect_valid("run permutation -d 3 --perm shuffle --algo all --json");  // a word
  expect_valid("run matmul -d 2 -m 4 --algo a1-2d --grid 1,1 --json");   // a list
  expect_valid("run exchange --topology torus -d 4 --algo all -m 8 --json");
}

TEST_F(RunSchema, ARunThatFailedIsValid) {
  // Every node needs 2·2^d·m bytes for its blocks; an arena of 4096 bytes cannot hold them: the run throws.
  const auto document = expect_valid("run exchange --algo direct -d 3 -m 4096 --set arena_bytes=4096 --json", 1);
  EXPECT_TRUE(document["runs"][0].contains("error"));
}

TEST_F(RunSchema, EngineStatisticsAreValid) {
  const auto document = expect_valid("run exchange -d 3 --algo direct --stats --json");
  const auto& stats = document["runs"][0]["stats"];
  EXPECT_EQ(stats["transfers_placed"].get<std::uint64_t>() + stats["placed_by_senders"].get<std::uint64_t>(),
            document["runs"][0]["messages"].get<std::uint64_t>());
  EXPECT_EQ(stats, document["runs"][0]["report"]["engine_stats"]);
  expect_valid("run exchange -d 3 --stats --engine os_threads --json");
  expect_valid("sweep exchange -d 2 -m 0,8 --stats --json");
}

TEST_F(RunSchema, SweepsAreValid) {
  expect_valid("sweep exchange -d 2 -m 0,8 --json");
  expect_valid("sweep exchange --topology torus -d 4 -m 0,8 --predicted-only --json");
}

TEST_F(RunSchema, RejectsOutputThatBreaksIt) {
  const auto good = expect_valid("run exchange -d 2 --algo direct --json");
  auto no_report = good;
  no_report["runs"][0].erase("report");
  EXPECT_EQ(validate(no_report).exit_code, 1);
  auto another_version = good;
  another_version["schema_version"] = 3;  // the one before: serial_fraction counted waiting on other ranks
  EXPECT_EQ(validate(another_version).exit_code, 1);
  auto a_bare_object = good["runs"][0];  // the older shape of one algorithm
  EXPECT_EQ(validate(a_bare_object).exit_code, 1);
  auto failed_with_times = good;
  failed_with_times["runs"][0]["error"] = "thrown";
  EXPECT_EQ(validate(failed_with_times).exit_code, 1);
  auto a_local_date = good;
  a_local_date["context"]["date"] = "2025-01-31 12:34:56";
  EXPECT_EQ(validate(a_local_date).exit_code, 1);
}

}  // namespace
}  // namespace hcemu::cli
