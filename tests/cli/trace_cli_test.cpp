// `hcemu run --trace FILE`: a path that cannot be written is a usage error found before the run, and the file
// written is the trace of every case run, a deadlocked one included (its structure is tested in
// tests/report_chrome_trace_test.cpp).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "cli/case_runner.hpp"
#include "cli/option_checks.hpp"
#include "hcemu/hcemu.hpp"

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

}  // namespace
}  // namespace hcemu::cli
