#pragma once
// Runs the built `hcemu` (HCEMU_BINARY) as a user would, for the end-to-end tests of tests/cli: its exit code, what it
// printed on stdout and on stderr. With a time limit it runs under timeout(1), so that a hang fails the test
// instead of stalling the suite.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace hcemu::cli::test {

struct Result {
  int exit_code = -1;  // -1: ended by a signal (or killed at the time limit)
  std::string out, err;
};

// Runs a shell command line: its standard output and exit code (err left empty).
inline Result run_shell(const std::string& command) {
  Result result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, n);
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

// `arguments` is a shell word list; `seconds` > 0 kills the command after that long.
inline Result hcemu(const std::string& arguments, int seconds = 0) {
  static int counter = 0;
  const auto err_path = std::filesystem::temp_directory_path() /
                        ("hcemu-cli-" + std::to_string(::getpid()) + "-" + std::to_string(++counter) + ".err");
  const std::string limit = seconds > 0 ? "timeout -s KILL " + std::to_string(seconds) + " " : "";
  Result result = run_shell(limit + std::string(HCEMU_BINARY) + " " + arguments + " 2>" + err_path.string());
  std::ifstream err(err_path);
  std::ostringstream text;
  text << err.rdbuf();
  result.err = text.str();
  std::filesystem::remove(err_path);
  return result;
}

// The JSON document a successful command printed: {"schema_version", "context", and its payload} (docs/cli.md).
inline nlohmann::json json_of(const Result& r) {
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.value("schema_version", 0), 5) << r.out.substr(0, 200);
  EXPECT_TRUE(j.contains("context") && j["context"].is_object()) << r.out.substr(0, 200);
  return j;
}

// The document's payload: "runs" (run, sweep), "plan", "fit", "presets" or "keys" (configs).
inline nlohmann::json payload_of(const Result& r, const std::string& key) {
  auto j = json_of(r);
  EXPECT_TRUE(j.contains(key)) << key << " in " << r.out.substr(0, 200);
  return j.contains(key) ? j[key] : nlohmann::json();
}

// The runs of `run --json` or `sweep --json`: an array, one object per algorithm (and m).
inline nlohmann::json runs_of(const Result& r) { return payload_of(r, "runs"); }

// The one run of `run --algo A --json`.
inline nlohmann::json run_of(const Result& r) {
  auto runs = runs_of(r);
  EXPECT_EQ(runs.size(), 1u) << r.out.substr(0, 200);
  return runs.empty() ? nlohmann::json() : runs[0];
}

}  // namespace hcemu::cli::test
