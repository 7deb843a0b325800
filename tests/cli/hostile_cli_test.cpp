// Hostile inputs to the `hcemu` command: a corpus of bad command lines, each with the exit code and the words its
// message must contain, and a bounded fuzz run of random option values and random config files that fails on any
// signal, any hang and any exit 0 that printed an error. The built binary runs under `timeout`, so a hang is a
// failure here, never a stuck suite.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "run_hcemu.hpp"

namespace {

using hcemu::cli::test::hcemu;
using hcemu::cli::test::Result;

struct Hostile {
  const char* arguments;
  int exit_code;
  const char* says;
};

class HostileCommandLines : public ::testing::TestWithParam<Hostile> {};

TEST_P(HostileCommandLines, FailWithAClearMessageAndTheirExitCode) {
  const Result r = hcemu(GetParam().arguments, 60);
  EXPECT_EQ(r.exit_code, GetParam().exit_code) << r.err;
  EXPECT_NE(r.err.find(GetParam().says), std::string::npos) << r.err;
  EXPECT_EQ(r.err.rfind("hcemu: ", 0), 0u) << "every error starts with 'hcemu: ': " << r.err;
  EXPECT_EQ(r.err.find("node 1: node 1:"), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, HostileCommandLines,
    ::testing::Values(
        // Sizes that wrap or overflow the buffers (m times the node count) and the transpose's block side.
        Hostile{"run exchange -d 2 --algo direct -m 4611686018427387904", 2, "2^40"},
        Hostile{"run exchange -d 2 --algo direct -m 9223372036854775808", 2, "2^40"},
        Hostile{"run allgather -d 2 -m 4611686018427387905", 2, "2^40"},
        Hostile{"run transpose -d 2 -m 18446744073709551615 --algo rows-direct", 2, "2^40"},
        Hostile{"run exchange -m -5", 2, "--bytes"}, Hostile{"run exchange -m 99999999999999999999", 2, "2^40"},
        Hostile{"run exchange -m abc", 2, "abc"}, Hostile{"sweep exchange -d 2 --m 4611686018427387904", 2, "2^40"},
        Hostile{"sweep exchange -d 2 --m 0:4611686018427387904:1152921504606846976", 2, "2^40"},
        Hostile{"fit --kernel exchange -d 2 --m 4611686018427387904", 2, "2^40"},
        Hostile{"plan -d 3 -m 100000000000000", 2, "2^40"}, Hostile{"plan -m -1", 2, "--bytes"},
        // Model times past 2^62 ps: an error naming the range, never a wrapped or negative time.
        Hostile{"run exchange -d 4 --set tau=1e9 -m 4096 --algo direct", 1, "2^62"},
        Hostile{"plan -d 3 --set tau=1e9 -m 1000000000000", 1, "2^62"},
        // Values that used to pass silently.
        Hostile{"fit --reps 0", 2, "repetitions"}, Hostile{"fit --reps -3", 2, "repetitions"},
        Hostile{"run exchange --seed -1", 2, "seed"}, Hostile{"run exchange --partition \"\"", 2, "partition"},
        Hostile{"run exchange --trace \"\"", 2, "--trace"}, Hostile{"configs --show \"\"", 2, "--show"},
        Hostile{"run exchange --config /tmp", 2, "is a directory"},
        Hostile{"run exchange -d 2 --trace /nonexistent-dir/t.json", 2, "cannot open"},
        Hostile{"sweep exchange -d 2 --m 8 --plot /nonexistent-dir/p.png", 2, "cannot open"},
        Hostile{"sweep exchange -d 2 --m 8 --csv /nonexistent-dir/p.csv", 2, "cannot open"},
        // The parser's own errors: one sentence, the bad word, the choices.
        Hostile{"", 2, "a command is required: run, plan, sweep, fit or configs"},
        Hostile{"nosuchsub", 2, "unknown command 'nosuchsub'"}, Hostile{"rnu exchange", 2, "did you mean 'run'"},
        Hostile{"run", 2, "a kernel is required: exchange"},
        Hostile{"run exchange extra", 2, "unexpected argument 'extra'"},
        Hostile{"run exchange -m", 2, "--bytes needs a value"}, Hostile{"run exchange -d x", 2, "'x'"},
        // Dimensions: the tasks engine runs d <= 16, one OS thread per node d <= 13.
        Hostile{"run exchange -d 17", 2, "0..16"}, Hostile{"run exchange --engine os_threads -d 14", 2, "0..13"},
        // A machine bigger than the memory it may have: an error naming the limit, never the host's OOM killer.
        Hostile{"run exchange -d 6 --algo direct --set memory_limit=1000000", 1, "past memory_limit = 1.0 MiB"}));

TEST(HostileCommandLines, PlanTakesTheEmulatorsWholeRange) {
  // Pure arithmetic: no engine limit below the largest cube.
  const Result r = hcemu("plan -d 16 -m 64", 60);
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// Whether every line of stderr is a warning or a note, as a run that succeeded may print.
bool only_warnings(const std::string& err) {
  std::istringstream lines(err);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("hcemu: warning: ", 0) != 0 && line.rfind("note: ", 0) != 0) return false;
  return true;
}

// Random values for the options and random config files (wall timing left out: a wall run of a huge τ waits as
// long as it says), for a bounded number of runs: the command must answer
// every one with exit 0 (and no error), 1 (a run failed) or 2 (usage), within its time, never by a signal.
TEST(HostileFuzz, RandomOptionsAndConfigsNeverCrashOrHang) {
  std::mt19937_64 random(20261123);
  const std::vector<std::string> commands = {"run exchange",  "run broadcast", "run allgather", "run transpose",
                                             "run histogram", "plan",          "sweep exchange"};
  const std::vector<std::string> dims = {"-1", "0", "1", "2", "3", "17", "99", "x", "2.5", ""};
  const std::vector<std::string> sizes = {
      "-5", "0", "1", "3", "64", "1000", "1099511627777", "4611686018427387904", "1e3", "abc", "\"\""};
  const std::vector<std::string> sets = {"lambda=-1",
                                         "tau=1e9",
                                         "tau=nan",
                                         "ports=all",
                                         "ports=k:0",
                                         "packet=7",
                                         "switching=store_and_forward",
                                         "protocol=unforced",
                                         "rho=1e300",
                                         "d=3",
                                         "arena_bytes=16",
                                         "lambda0=0",
                                         "timing=native",
                                         "bogus=1"};
  const std::vector<std::string> algos = {"all", "direct", "nosuch", "", "auto", "sbt"};
  const std::vector<std::string> config_lines = {
      "d = 3", "d = -4",          "tau = \"x\"", "lambda = 1e400", "[table]", "ports = \"all\"",
      "= 3",   "base = \"/tmp\"", "packet = 0",  "rho = 0.001",    "d = 2",   "protocol = \"forced\""};
  const auto pick = [&](const std::vector<std::string>& from) { return from[random() % from.size()]; };
  const auto config_path = std::filesystem::temp_directory_path() / ("hcemu-fuzz-" + std::to_string(::getpid()));
  std::filesystem::create_directories(config_path);
  for (int i = 0; i < 60; ++i) {
    std::string arguments = pick(commands);
    if (random() % 4 != 0) arguments += " -d " + pick(dims);
    if (random() % 3 != 0) arguments += (arguments.rfind("sweep", 0) == 0 ? " --m " : " -m ") + pick(sizes);
    if (random() % 2 == 0) arguments += " --set " + pick(sets);
    if (random() % 3 == 0 && arguments.rfind("plan", 0) != 0) arguments += " --algo " + pick(algos);
    if (random() % 3 == 0) {
      const auto file = config_path / ("c" + std::to_string(i) + ".toml");
      std::ofstream out(file);
      for (int k = 0; k < 3; ++k) out << pick(config_lines) << '\n';
      out.close();
      arguments += " --config " + file.string();
    }
    // Cap the work a valid combination can ask for: the suite's budget, not the command, limits this.
    if (arguments.find(" -d ") == std::string::npos) arguments += " -d 3";
    const Result r = hcemu(arguments, 60);
    SCOPED_TRACE(arguments);
    EXPECT_NE(r.exit_code, -1) << "killed by a signal or a hang\n" << r.err;
    EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 2) << r.exit_code << '\n' << r.err;
    if (r.exit_code == 0) {
      EXPECT_TRUE(only_warnings(r.err)) << r.err;
    } else {
      EXPECT_NE(r.err.find("hcemu: "), std::string::npos) << r.err;
    }
  }
  std::filesystem::remove_all(config_path);
}

}  // namespace
