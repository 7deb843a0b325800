// Hostile inputs to the `hcemu` command: a corpus of bad command lines, each with the exit code and the words its
// message must contain, and a bounded fuzz run of random option values and random config files that fails on any
// signal, any hang and any exit 0 that printed an error. The built binary runs under `timeout`, so a hang is a
// failure here, never a stuck suite.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
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
        Hostile{"", 2, "a command is required: run, plan, sweep, fit, configs, help or version"},
        Hostile{"nosuchsub", 2, "unknown command 'nosuchsub'"}, Hostile{"rnu exchange", 2, "did you mean 'run'"},
        Hostile{"run", 2, "a kernel is required: exchange"},
        Hostile{"run --bogus", 2, "run has no option --bogus"}, Hostile{"run -d 3", 2, "a kernel is required"},
        Hostile{"run exchange extra", 2, "unexpected argument 'extra'"},
        Hostile{"run exchange -m", 2, "--bytes needs a value"}, Hostile{"run exchange -d x", 2, "'x'"},
        // Dimensions: the tasks engine runs d <= 16, one OS thread per node d <= 13.
        Hostile{"run exchange -d 17", 2, "0..16"}, Hostile{"run exchange --engine os_threads -d 14", 2, "0..13"},
        // A machine bigger than the memory it may have: an error naming the limit, never the host's OOM killer.
        Hostile{"run exchange -d 6 --algo direct --set memory_limit=1000000", 1, "past memory_limit = 1.0 MiB"},
        // Every integer is decimal: leading zeros are dropped (010 is ten), another base is an error naming the option.
        Hostile{"run broadcast -d 3 --algo sbt --root 010", 2, "--root 10 is not a node"},
        Hostile{"run broadcast -d 3 --algo sbt --root 0x3", 2,
                "--root: expected a whole number in decimal digits, got '0x3'"},
        Hostile{"run exchange -d 2 --algo direct -m 0x10", 2, "--bytes: expected a size in bytes"},
        Hostile{"run exchange -d 2 --algo direct -m +5", 2, "--bytes: expected a size in bytes"},
        Hostile{"run exchange -d 2 --algo direct --seed 0x10", 2, "--seed: expected a seed"},
        Hostile{"run long-send -d 3 --src 0x1", 2, "--src: expected a whole number in decimal digits"},
        Hostile{"run broadcast -d 3 --algo bcast4 --groups 1e3", 2, "--groups: expected a whole number in decimal"},
        Hostile{"plan matmul -d 2 --P 0x4", 2, "--P: expected a whole number in decimal digits"},
        Hostile{"fit --reps 0x2", 2, "--reps: expected a number of repetitions"},
        // Unsigned options take no sign: -1 is an error, never 2^64 - 1.
        Hostile{"run broadcast -d 3 --algo gray-code --chunk -1", 2, "--chunk: expected a number of bytes from 0"},
        Hostile{"run broadcast -d 3 --algo pipelined-sbt --chunk -1", 2, "--chunk: expected a number of bytes"},
        Hostile{"run broadcast -d 3 --algo sbnt --chunk -1", 2, "--chunk: expected a number of bytes"},
        Hostile{"sweep broadcast -d 3 --algo gray-code -m 64 --chunk -1 --predicted-only", 2, "--chunk: expected"},
        Hostile{"run broadcast -d 3 --algo gray-code --chunk 18446744073709551615", 2, "2^40"},
        Hostile{"run broadcast -d 3 --algo bcast4 --groups -1", 2, "--groups: expected a whole number >= 0"},
        Hostile{"run exchange -d 2 --pieces -1", 2, "--pieces: expected a whole number >= 0"},
        Hostile{"plan matmul -d 2 --P -1", 2, "--P: expected a whole number >= 0"},
        Hostile{"plan matmul -d 2 -m -1", 2, "--side: expected a whole number >= 0"},
        // A config that never ends: refused by what it is, before a byte is read.
        Hostile{"run exchange --config /dev/zero", 2, "'/dev/zero' is a character device"},
        // Wall timing's scale is bounded: a wait must stay within the host clock's 64 bits.
        Hostile{"run exchange -d 2 --timing wall --set time_scale=1e16", 2, "must be in [1, 1000], got 1e+16"},
        Hostile{"run exchange -d 2 --timing wall --time-scale 1e308", 2, "must be in [1, 1000], got 1e+308"},
        // Messages that said the wrong thing: out-of-range numbers in short form, the value as written.
        Hostile{"run exchange -d 2 --set lambda=1e308", 2, "between 0 and 1e9, got 1e+308"},
        Hostile{"run exchange -d 2 --set time_scale=1e-300", 2, "got 1e-300"},
        Hostile{"run exchange --set d=3.0", 2, "must be an integer, written without a decimal point or exponent, "
                                               "got 3.0"},
        Hostile{"plan --algo direct", 2, "--algo chooses among Suh, Shin & An's torus exchanges"},
        Hostile{"fit --config torus", 2, "fit needs a hypercube"},
        // Algorithms made for the hypercube refuse a torus up front, as the exchange's cube schedules do, naming what
        // runs there; a kernel none of whose algorithms runs there refuses it whole.
        Hostile{"run broadcast --topology torus -d 4", 2,
                "no broadcast algorithm runs on a torus or mesh; the exchange's direct"},
        Hostile{"run histogram --topology torus -d 4", 2, "no histogram algorithm runs on a torus or mesh"},
        Hostile{"run broadcast --topology torus -d 4 --algo sbt", 2, "broadcast sbt: made for the hypercube"},
        Hostile{"run allgather --topology torus -d 4 --algo recursive-doubling", 2,
                "on a torus or mesh allgather runs cra, rotated-cra, gcea, sbnt"},
        Hostile{"run reduce --topology torus -d 4 --algo sbt", 2, "on a torus or mesh reduce runs sbnt"},
        Hostile{"run matmul --topology torus -d 4 --algo a3", 2, "on a torus or mesh matmul runs a1-cra"},
        Hostile{"run transpose --topology torus -d 4 --algo stout-wagar", 2,
                "on a torus or mesh transpose runs rows-direct"},
        Hostile{"run reduce --topology mesh -d 4 --algo recursive-halving", 2, "on a torus or mesh reduce runs sbnt"},
        // Nothing left for --algo all (reduce on a one-port torus: sbnt is made for all ports): an error, not an empty
        // table.
        Hostile{"run reduce --topology torus -d 4", 2,
                "sbnt: made for ports all, and this machine has ports one (--ports all runs them"},
        Hostile{"sweep histogram --topology torus -d 4 -m 8", 2, "no histogram algorithm runs on a torus"},
        // An option that takes one value, given twice, is an error, whichever it is.
        Hostile{"run exchange -d 2 --algo direct --algo standard", 2, "--algo is given 2 times"},
        Hostile{"run exchange -d 2 --partition 1,1 --partition 2", 2, "--partition is given 2 times"},
        Hostile{"run exchange -d 2 -d 3", 2, "--dim is given 2 times"},
        Hostile{"sweep exchange -d 2 -m 8 --m 16", 2, "--bytes is given twice, once under its older name"},
        Hostile{"fit --kernel exchange -d 2 --m 8 -m 16", 2, "--bytes is given twice, once under its older name"},
        Hostile{"fit --kernel exchange --algo direct --algo standard", 2, "--algo is given 2 times"}));

// Leading zeros are decimal: 010 is ten wherever an integer is read, 08 eight.
TEST(HostileCommandLines, LeadingZerosAreDecimal) {
  using hcemu::cli::test::payload_of;
  using hcemu::cli::test::run_of;
  using hcemu::cli::test::runs_of;
  const auto run = run_of(hcemu("run exchange -d 2 --algo direct -m 010 --seed 010 --json", 60));
  EXPECT_EQ(run["m"], 10);
  EXPECT_EQ(run["seed"], 10);
  EXPECT_EQ(run_of(hcemu("run exchange -d 2 --algo direct -m 08 --json", 60))["m"], 8);
  EXPECT_EQ(payload_of(hcemu("plan -d 3 -m 010 --json", 60), "plan")["m"], 10);
  EXPECT_EQ(run_of(hcemu("run broadcast -d 4 --algo bcast4 --groups 010 --json", 60))["params"]["groups"], 10);
  const auto pair = run_of(hcemu("run long-send -d 4 --algo direct --src 010 --dst 05 --json", 60));
  EXPECT_EQ(pair["params"]["src"], 10);
  EXPECT_EQ(pair["params"]["dst"], 5);
  const auto matmul = payload_of(hcemu("plan matmul -d 2 -m 010 --P 012 --json", 60), "plan");
  EXPECT_EQ(matmul["P"], 12);
  EXPECT_EQ(matmul["Q"], 10);
  // sweep read its sizes in decimal before: the same rule everywhere.
  const auto sweep = runs_of(hcemu("sweep exchange -d 2 --algo direct -m 010,020 --predicted-only --json", 60));
  ASSERT_EQ(sweep.size(), 2u);
  EXPECT_EQ(sweep[0]["m"], 10);
  EXPECT_EQ(sweep[1]["m"], 20);
}

// On a torus `--algo all` runs the algorithms that run there and leaves out the cube's, as the exchange does.
TEST(HostileCommandLines, AllOnATorusRunsWhatRunsThere) {
  using hcemu::cli::test::runs_of;
  for (const std::string kernel : {"allgather", "reduce", "matmul", "transpose"}) {
    const auto runs = runs_of(hcemu("run " + kernel + " --topology torus -d 4 --ports all -m 8 --json", 60));
    ASSERT_TRUE(runs.is_array()) << kernel;
    EXPECT_FALSE(runs.empty()) << kernel;
    for (const auto& run : runs) EXPECT_TRUE(run["verified"].get<bool>()) << kernel << " " << run["algo"];
  }
}

// An unknown HCEMU_ENGINE is an error that names the variable.
TEST(HostileCommandLines, BadEngineVariableIsNamed) {
  ::setenv("HCEMU_ENGINE", "bogus", 1);
  const Result r = hcemu("run exchange -d 2 --algo direct", 60);
  ::unsetenv("HCEMU_ENGINE");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("HCEMU_ENGINE"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("'bogus'"), std::string::npos) << r.err;
}

TEST(HostileCommandLines, PlanTakesTheEmulatorsWholeRange) {
  // Pure arithmetic: no engine limit below the largest cube.
  const Result r = hcemu("plan -d 16 -m 64", 60);
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// Under an address-space limit (ulimit -v) too small for the nodes' stacks, the error says so, with the size it needed
// and the limit, and advises raising it: a smaller stack_bytes would leave the nodes' buffers short of it all the same.
TEST(HostileCommandLines, AddressSpaceLimitIsNamedAsTheCause) {
  const std::string command = "ulimit -v 1572864 && timeout -s KILL 60 " + std::string(HCEMU_BINARY) +
                              " run exchange -d 13 --algo direct -m 64 2>&1 >/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string err;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) err.append(buffer, n);
  const int status = ::pclose(pipe);
  // A sanitizer's shadow memory does not start under such a limit at all.
  if (err.find("Sanitizer") != std::string::npos) GTEST_SKIP() << err;
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << err;
  EXPECT_NE(err.find("cannot map the stacks of 8192 nodes"), std::string::npos) << err;
  EXPECT_NE(err.find("ulimit -v"), std::string::npos) << err;
  EXPECT_EQ(err.find("lower stack_bytes"), std::string::npos) << err;
}

// Whether every line of stderr is a warning or a note, as a run that succeeded may print.
bool only_warnings(const std::string& err) {
  std::istringstream lines(err);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("hcemu: warning: ", 0) != 0 && line.rfind("hcemu: note: ", 0) != 0 && line.rfind("note: ", 0) != 0)
      return false;
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
