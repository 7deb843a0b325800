// Each subcommand of `hcemu` end to end: the built binary is run, its JSON parsed and checked against the model
// (the closed forms of src/model), and bad arguments give the intended error and exit code.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/config_loader.hpp"
#include "cli/plot.hpp"
#include "cli/text_table.hpp"
#include "hcemu/model/collectives.hpp"
#include "hcemu/model/exchange.hpp"
#include "hcemu/model/planner.hpp"
#include "hcemu/model/split_threshold.hpp"

#include "run_hcemu.hpp"

namespace hcemu::cli {
namespace {

using test::hcemu;
using test::Result;
using test::payload_of;
using test::run_of;
using test::runs_of;

Time model_exchange_time(const MachineConfig& c, const nlohmann::json& partition, std::size_t m, Sync sync) {
  return model::multiphase_exchange_time(c, partition.get<std::vector<int>>(), m, sync);
}

TEST(RunCommand, DefaultExchangeRunsEveryAlgorithmAndMarksTheOptimal) {
  auto j = runs_of(hcemu("run exchange --json"));
  ASSERT_TRUE(j.is_array());
  const MachineConfig c = load_config("ipsc860");
  // Direct, Standard and the equipartitions (2,3), (1,2,2), (1,1,1,2): every E(5, n).
  ASSERT_EQ(j.size(), 5u);
  const model::Plan plan = model::optimal_partition(c, 64);
  int optimal = 0;
  for (const auto& o : j) {
    EXPECT_EQ(o["kernel"], "exchange");
    EXPECT_EQ(o["d"], 5);
    EXPECT_EQ(o["m"], 64);
    EXPECT_EQ(o["timing"], "virtual");
    EXPECT_TRUE(o["verified"].get<bool>());
    const Time expected = model_exchange_time(c, o["partition"], 64, Sync::none);
    EXPECT_EQ(o["predicted_ps"].get<Time>(), expected) << o["algo"];
    EXPECT_EQ(o["emulated_ps"].get<Time>(), expected) << o["algo"];
    EXPECT_EQ(o["contention_events"], 0);
    EXPECT_EQ(o["forced_discards"], 0);
    if (o["optimal"].get<bool>()) {
      ++optimal;
      EXPECT_EQ(o["predicted_ps"].get<Time>(), plan.predicted);
    }
  }
  EXPECT_EQ(optimal, 1);
}

TEST(RunCommand, OneAlgorithmGivesOneRunWithTheIssuesKeys) {
  auto j = run_of(hcemu("run exchange --algo standard -d 3 -m 16 --json"));
  ASSERT_TRUE(j.is_object());
  for (const char* key : {"kernel", "algo", "partition", "d", "m", "timing", "predicted_us", "emulated_us", "verified",
                          "messages", "bytes", "contention_events", "forced_discards", "wall_seconds", "report"})
    EXPECT_TRUE(j.contains(key)) << key;
  MachineConfig c = load_config("ipsc860");
  c.d = 3;
  c.delta_msg = 5.15 * 3;
  // docs/model.md §9, Standard exchange: d(λ + δ' + δ + τ·m·2^(d-1)) + d·ρ·2^d·m.
  const double expected_us = 3 * (95.0 + 5.15 * 3 + 0.394 * 16 * 4) + 3 * 0.54 * 8 * 16;
  EXPECT_NEAR(j["predicted_us"].get<double>(), expected_us, 1e-6);
  EXPECT_NEAR(j["emulated_us"].get<double>(), expected_us, 1e-6);
  // Standard exchange sends d messages from every node.
  EXPECT_EQ(j["messages"], 3 * 8);
}

TEST(RunCommand, PartitionRunsThatMultiphaseExchange) {
  auto j = run_of(hcemu("run exchange --partition 2,3 --sync pairwise --json"));
  const MachineConfig c = load_config("ipsc860");
  EXPECT_EQ(j["algo"], "multiphase");
  EXPECT_EQ(j["emulated_ps"].get<Time>(), model::multiphase_exchange_time(c, {2, 3}, 64, Sync::pairwise));
}

// The iPSC/860 preset (d = 5) made all-port and store-and-forward, where BROADCAST 4 has its closed form.
MachineConfig all_port_ipsc() {
  MachineConfig c = load_config("ipsc860");
  c.ports = Ports::parse("all");
  c.switching = Switching::store_and_forward;
  return c;
}

TEST(RunCommand, PiecesSetTheGroupsOfBroadcastFour) {
  auto j = run_of(hcemu("run broadcast --algo bcast4 --pieces 5 --ports all --switching store_and_forward --json"));
  EXPECT_EQ(j["pieces"], 5);
  EXPECT_TRUE(j["verified"].get<bool>());
  EXPECT_EQ(j["predicted_ps"].get<Time>(), j["emulated_ps"].get<Time>());
  EXPECT_EQ(j["emulated_ps"].get<Time>(), *model::pipelined_broadcast_time(all_port_ipsc(), 64, 5));
}

TEST(RunCommand, WithoutPiecesBroadcastFourReportsTheOptimalGroups) {
  auto j = run_of(hcemu("run broadcast --algo bcast4 --ports all --switching store_and_forward --json"));
  EXPECT_EQ(j["pieces"].get<int>(), model::optimal_broadcast_groups(all_port_ipsc(), 64));
  EXPECT_EQ(j["predicted_ps"].get<Time>(), j["emulated_ps"].get<Time>());
}

TEST(RunCommand, TableLabelShowsThePieces) {
  auto r = hcemu("run broadcast --algo bcast4 --pieces 5 --ports all --switching store_and_forward");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("bcast4 g=5"), std::string::npos) << r.out;
}

TEST(RunCommand, TableColumnSetsThePapersFigureBesideThePredictionWhereARowHasOne) {
  // scatter: sbnt and nrsbt print Table 3's figure (model/paper_tables.hpp), the cell of the row that has none is
  // blank; a kernel none of whose rows has one prints no such column.
  const std::string args = "run scatter --algo all --ports all -d 4 -m 64";
  auto table = hcemu(args);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("table µs"), std::string::npos) << table.out;
  std::map<std::string, std::string> lines;  // algorithm -> its row
  std::istringstream in(table.out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line.substr(std::min<std::size_t>(3, line.size())));
    std::string name;
    if (words >> name) lines[name] = line;
  }
  int with_table = 0;
  for (const auto& run : runs_of(hcemu(args + " --json"))) {
    const std::string algo = run["algo"].get<std::string>();
    ASSERT_TRUE(lines.count(algo)) << algo << " is not in\n" << table.out;
    std::istringstream words(lines[algo].substr(3));
    std::vector<std::string> cells{std::istream_iterator<std::string>(words), std::istream_iterator<std::string>()};
    ASSERT_GE(cells.size(), 4u) << lines[algo];
    EXPECT_EQ(cells[1], fixed(run["predicted_us"].get<double>())) << lines[algo];
    if (run.contains("paper_table_us")) {
      ++with_table;
      EXPECT_EQ(cells[2], fixed(run["paper_table_us"].get<double>())) << lines[algo];
    } else {
      EXPECT_EQ(cells[2], fixed(run["emulated_us"].get<double>())) << "a blank table cell: " << lines[algo];
    }
  }
  EXPECT_EQ(with_table, 2);
  auto broadcast = hcemu("run broadcast --algo all --ports all -d 4 -m 64");
  ASSERT_EQ(broadcast.exit_code, 0) << broadcast.err;
  EXPECT_EQ(broadcast.out.find("table µs"), std::string::npos) << broadcast.out;
}

TEST(RunCommand, StatsSayWhereTheHostsTimeWent) {
  const Result one = hcemu("run exchange -d 3 --algo direct --stats");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_NE(one.out.find("placing   "), std::string::npos) << one.out;
  EXPECT_NE(one.out.find(" transfers and answered "), std::string::npos);
  EXPECT_NE(one.out.find("serial fraction "), std::string::npos);
  EXPECT_NE(one.out.find("shared    "), std::string::npos);
  // The iPSC/860's transfers take time: a lead, and batches as wide as it.
  EXPECT_NE(one.out.find(" us: transfers ready within it of each other are placed in one batch"), std::string::npos)
      << one.out;
  // Several algorithms: a block for each under the table.
  const Result all = hcemu("run exchange -d 3 --stats");
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_NE(all.out.find("direct (3):\nengine    "), std::string::npos) << all.out;
  // Not asked: none.
  EXPECT_EQ(hcemu("run exchange -d 3 --algo direct").out.find("serial fraction"), std::string::npos);
}

TEST(RunCommand, TraceIsChromeTraceEventFormat) {
  auto path = std::filesystem::temp_directory_path() / ("hcemu-e2e-trace-" + std::to_string(::getpid()) + ".json");
  auto r = hcemu("run exchange --algo direct -d 2 --trace " + path.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(path);
  auto trace = nlohmann::json::parse(in);
  std::filesystem::remove(path);
  const auto& events = trace.is_array() ? trace : trace["traceEvents"];
  ASSERT_FALSE(events.empty());
  bool span = false;
  for (const auto& e : events) span = span || (e.contains("ph") && e["ph"] == "X");
  EXPECT_TRUE(span);
}

TEST(PlanCommand, OptimalAndEquipartitionsAreTheModels) {
  auto j = payload_of(hcemu("plan -d 5 -m 50 --sync pairwise --json"), "plan");
  MachineConfig c = load_config("ipsc860");
  const model::Plan plan = model::optimal_partition(c, 50, Sync::pairwise);
  EXPECT_EQ(j["optimal"]["partition"].get<std::vector<int>>(), plan.partition);
  EXPECT_EQ(j["optimal"]["predicted_ps"].get<Time>(), plan.predicted);
  ASSERT_EQ(j["equipartitions"].size(), 5u);
  for (const auto& e : j["equipartitions"])
    EXPECT_EQ(e["predicted_ps"].get<Time>(), model_exchange_time(c, e["partition"], 50, Sync::pairwise));
  // Nicol & Bokhari §4, d = 5: (2,3) is optimal below about 100 bytes.
  EXPECT_EQ(plan.partition, (std::vector<int>{2, 3}));
  const auto& hull = j["hull"];
  EXPECT_EQ(hull["breakpoints"].size() + 1, hull["faces"].size());
  EXPECT_TRUE(hull["exact"].get<bool>());
}

TEST(PlanCommand, PrintsNicolAndBokharisSplitThresholdAndBounds) {
  // Nicol & Bokhari 1994 §3 in their model (every phase shuffles, Direct's too): Lemma 1's s*, and the bounds of
  // Corollary 1 and Theorem 3 on the optimal partition.
  auto j = payload_of(hcemu("plan -m 64 --sync pairwise --json"), "plan");
  const MachineConfig c = load_config("ipsc860");
  model::ExchangeParams params = model::bokhari_params(c, Sync::pairwise);
  params.direct_shuffle = true;
  const model::PartitionBounds bounds = model::theorem3_bounds(params, 64);
  const auto& split = j["split"];
  ASSERT_EQ(bounds.threshold.kind, model::SplitThreshold::Kind::split_point);
  EXPECT_EQ(split["kind"], "split_point");
  EXPECT_DOUBLE_EQ(split["s_star"].get<double>(), bounds.threshold.s_star);
  EXPECT_EQ(split["largest_part"], (std::vector<int>{bounds.largest_min, bounds.largest_max}));
  EXPECT_EQ(split["phases"], (std::vector<int>{bounds.phases_min, bounds.phases_max}));
  // The planner's optimum (exact, by the emulator's costs) lies within them here.
  const auto best = j["optimal"]["partition"].get<std::vector<int>>();
  EXPECT_GE(static_cast<int>(best.size()), bounds.phases_min);
  EXPECT_LE(static_cast<int>(best.size()), bounds.phases_max);
  const auto text = hcemu("plan -m 64 --sync pairwise");
  EXPECT_NE(text.out.find("s* = "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("(Theorem 3)"), std::string::npos) << text.out;
}

TEST(PlanCommand, DirectShuffleDrawsBokharisOwnHull) {
  // Bokhari 1993 §2.3 charges Direct the identity shuffle, 2^d·m·ρ: its face steepens, so the last breakpoint moves
  // to larger m; the earlier faces do not involve Direct and stay.
  auto plain = payload_of(hcemu("plan -m 64 --json"), "plan")["hull"];
  auto shuffled = payload_of(hcemu("plan -m 64 --direct-shuffle --json"), "plan")["hull"];
  model::ExchangeParams params = model::bokhari_params(load_config("ipsc860"));
  params.direct_shuffle = true;
  const model::Hull hull = model::build_hull(params);
  EXPECT_EQ(shuffled["breakpoints"].get<std::vector<double>>(), hull.breakpoints);
  EXPECT_TRUE(shuffled["direct_shuffle"].get<bool>());
  EXPECT_FALSE(shuffled["exact"].get<bool>());
  EXPECT_GT(shuffled["breakpoints"].back().get<double>(), plain["breakpoints"].back().get<double>());
  EXPECT_EQ(shuffled["faces"].back()["partition"], (std::vector<int>{5}));
}

TEST(SweepCommand, OnePointPerAlgorithmAndSize) {
  auto csv = std::filesystem::temp_directory_path() / ("hcemu-e2e-sweep-" + std::to_string(::getpid()) + ".csv");
  auto j = runs_of(hcemu("sweep exchange --algo direct,standard -d 3 --m 0:64:32 --json --csv " + csv.string()));
  ASSERT_EQ(j.size(), 6u);
  MachineConfig c = load_config("ipsc860");
  c.d = 3;
  c.delta_msg = 5.15 * 3;
  for (const auto& o : j)
    EXPECT_EQ(o["emulated_ps"].get<Time>(),
              model_exchange_time(c, o["partition"], o["m"].get<std::size_t>(), Sync::none));
  std::ifstream in(csv);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) ++lines;
  std::filesystem::remove(csv);
  EXPECT_EQ(lines, 7);  // header and six points
}

TEST(SweepCommand, PlotIsDrawnWithGnuplot) {
  auto png = std::filesystem::temp_directory_path() / ("hcemu-e2e-plot-" + std::to_string(::getpid()) + ".svg");
  auto r = hcemu("sweep exchange -d 3 --m 0:64:32 --plot " + png.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(std::filesystem::file_size(png), 0u);
  std::filesystem::remove(png);
}

TEST(SweepCommand, PdfPlotAndItsScript) {
  const auto dir = std::filesystem::temp_directory_path() / ("hcemu-e2e-pdf-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto pdf = dir / "figure.pdf", script = dir / "figure.gp";
  auto r = hcemu("sweep exchange -d 3 --m 0:64:32 --no-progress --plot " + pdf.string() + " --plot-script " +
                 script.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(pdf, std::ios::binary);
  std::string head(5, '\0');
  in.read(head.data(), 5);
  EXPECT_EQ(head, "%PDF-");
  // The script draws the figure itself, not a temporary, and runs again as it is.
  std::ifstream gp(script);
  const std::string text((std::istreambuf_iterator<char>(gp)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("set output \"" + pdf.string() + "\""), std::string::npos) << text;
  EXPECT_NE(text.find("pdfcairo"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(SweepCommand, PlotScriptNeedsAPlot) {
  auto r = hcemu("sweep exchange -d 2 --m 8 --plot-script x.gp");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("give --plot too"), std::string::npos) << r.err;
}

TEST(TextTable, WiderThanTheTerminalItPrintsPanelsThatRepeatTheName) {
  TextTable table({"name", "first column", "second column", "third column"});
  table.add_row({"alpha", "1.00", "2.00", "3.00"});
  std::ostringstream narrow, wide;
  table.print(narrow, 36);
  table.print(wide, 0);
  EXPECT_EQ(wide.str(),
            "name   first column  second column  third column\n"
            "------------------------------------------------\n"
            "alpha          1.00           2.00          3.00\n");
  EXPECT_EQ(narrow.str(),
            "name   first column  second column\n"
            "----------------------------------\n"
            "alpha          1.00           2.00\n"
            "\n"
            "name   third column\n"
            "-------------------\n"
            "alpha          3.00\n");
}

TEST(Plot, EveryCurveLooksDifferentAndTheLegendCoversNone) {
  PlotSpec spec;
  for (int c = 0; c < 20; ++c) spec.curves.push_back({"curve " + std::to_string(c), {{1, 1.0, 1.0}, {2, 2.0, 2.0}}});
  const std::string script = gnuplot_script(spec, "f.png");
  EXPECT_NE(script.find("set key outside"), std::string::npos);
  // Each curve's solid line carries its style: colour, and past the palette a point shape too. No two alike.
  std::set<std::string> styles;
  std::istringstream lines(script);
  for (std::string line; std::getline(lines, line);) {
    const auto at = line.find("using 1:2 ");
    if (at == std::string::npos) continue;
    styles.insert(line.substr(at, line.find(" title", at) - at));
  }
  EXPECT_EQ(styles.size(), spec.curves.size());
}

TEST(FitCommand, VirtualFitRecoversTheConfiguredValues) {
  auto j = payload_of(hcemu("fit --json"), "fit");
  ASSERT_FALSE(j["parameters"].empty());
  for (const auto& p : j["parameters"]) {
    double configured = p["configured"].get<double>();
    EXPECT_NEAR(p["fitted"].get<double>(), configured, 1e-9 * std::max(1.0, std::abs(configured))) << p["key"];
  }
}

TEST(FitCommand, KernelFitGivesTheEffectiveParametersOfPairwiseSync) {
  auto j = payload_of(hcemu("fit --kernel exchange --algo direct --sync pairwise --m 32,256 --json"), "fit");
  std::map<std::string, double> fitted;
  for (const auto& p : j["parameters"]) fitted[p["key"]] = p["fitted"];
  EXPECT_NEAR(fitted["lambda_eff"], 180.5, 1e-7);
  EXPECT_NEAR(fitted["delta_eff_per_d"], 10.3, 1e-8);
}

TEST(ConfigsCommand, ListsEveryPresetWithItsSource) {
  auto j = payload_of(hcemu("configs --json"), "presets");
  std::set<std::string> names;
  for (const auto& p : j) {
    names.insert(p["name"]);
    EXPECT_FALSE(p["source"].get<std::string>().empty());
  }
  EXPECT_EQ(names, (std::set<std::string>{"ipsc860", "ipsc860-measured", "ipsc-yale", "ipsc-yale-measured",
                                          "linkbound", "loggp-example", "torus"}));
}

TEST(HelpText, EverySubcommandHasHelp) {
  for (const char* sub : {"run", "plan", "sweep", "fit", "configs"}) {
    auto r = hcemu(std::string(sub) + " --help");
    EXPECT_EQ(r.exit_code, 0) << sub;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << sub;
  }
}

TEST(HelpText, HelpCommandPrintsWhatHelpFlagPrints) {
  const auto top = hcemu("help");
  EXPECT_EQ(top.exit_code, 0) << top.err;
  EXPECT_EQ(top.out, hcemu("--help").out);
  for (const char* sub : {"run", "plan", "sweep", "fit", "configs", "plan matmul"}) {
    const auto r = hcemu(std::string("help ") + sub);
    EXPECT_EQ(r.exit_code, 0) << sub << ": " << r.err;
    EXPECT_EQ(r.out, hcemu(std::string(sub) + " --help").out) << sub;
    EXPECT_NE(r.out.find(std::string("Usage: hcemu ") + sub + " "), std::string::npos) << r.out;
  }
}

TEST(HelpText, HelpOfAnUnknownCommandIsAUsageErrorNamingTheCommands) {
  const auto r = hcemu("help rnu");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("no command 'rnu' (did you mean 'run'?); the commands are run, plan, sweep, fit, configs, "
                       "help or version"),
            std::string::npos)
      << r.err;
  const auto inner = hcemu("help plan matmull");
  EXPECT_EQ(inner.exit_code, 2);
  EXPECT_NE(inner.err.find("the commands of plan are matmul"), std::string::npos) << inner.err;
}

TEST(HelpText, SweepCsvTakesTheWholeFileName) {
  const auto r = hcemu("sweep --help");
  EXPECT_NE(r.out.find("--csv FILE"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("FILE.csv"), std::string::npos) << r.out;
}

// What the build is, from the values CMake configured it with (not from the library the test links, which may be
// older than the binary).
TEST(Version, FlagAndCommandPrintTheBuild) {
  const auto flag = hcemu("--version");
  EXPECT_EQ(flag.exit_code, 0) << flag.err;
  EXPECT_EQ(flag.out.rfind("hcemu " HCEMU_PROJECT_VERSION, 0), 0u) << flag.out;  // CMake's project(VERSION)
  const std::string build = std::string("build: ") + HCEMU_EXPECTED_BUILD_TYPE + ", " + HCEMU_EXPECTED_COMPILER +
                            (HCEMU_EXPECTED_MPI ? ", with MPI" : ", without MPI") + "\n";
  EXPECT_NE(flag.out.find(build), std::string::npos) << flag.out;
  // The commit, where the build was configured in a git checkout: 12 hexadecimal digits.
  if (const auto at = flag.out.find(" (commit "); at != std::string::npos) {
    const std::string commit = flag.out.substr(at + 9, flag.out.find(')', at) - at - 9);
    EXPECT_EQ(commit.size(), 12u) << flag.out;
    EXPECT_EQ(commit.find_first_not_of("0123456789abcdef"), std::string::npos) << flag.out;
  }
  const auto command = hcemu("version");
  EXPECT_EQ(command.exit_code, 0) << command.err;
  EXPECT_EQ(command.out, flag.out);
}

// Bad arguments and configs: the exit code and the sentence on stderr.
struct BadUsage {
  const char* arguments;
  int exit_code;
  const char* says;
};

class BadArguments : public ::testing::TestWithParam<BadUsage> {};

TEST_P(BadArguments, GiveTheIntendedErrorAndExitCode) {
  auto r = hcemu(GetParam().arguments);
  EXPECT_EQ(r.exit_code, GetParam().exit_code) << r.err;
  EXPECT_NE(r.err.find(GetParam().says), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, BadArguments,
    ::testing::Values(
        BadUsage{"", 2, "a command is required"}, BadUsage{"run", 2, "kernel is required"},
        BadUsage{"run exchange --bogus", 2, "--bogus"}, BadUsage{"run exchang", 2, "did you mean 'exchange'"},
        BadUsage{"run exchange --algo direkt", 2, "did you mean 'direct'"},
        BadUsage{"run exchange --partition 2,2", 2, "sums to 4"},
        BadUsage{"run exchange --partition 2,x", 2, "positive integers"},
        BadUsage{"run broadcast --algo bcast4 --partition 5", 2, "its g is --pieces"},
        BadUsage{"run broadcast --algo bcast4 --groups 1000000", 2, "at most ⌈m/d⌉ = 13 groups"},
        BadUsage{"run broadcast --algo sbt --pieces 5", 2, "takes no --pieces"},
        BadUsage{"run exchange --pieces 5", 2, "takes no --pieces"},
        BadUsage{"run exchange --root 3", 2, "takes no --root (broadcast, reduce, scatter, gather take one)"},
        BadUsage{"run transpose --algo stout-wagar -d 4 --ports all --pieces 3", 2, "at least d = 4"},
        BadUsage{"sweep exchange --algo direct --m 8 --pieces 5", 2, "none of the requested curves"},
        BadUsage{"run exchange --config ipsc86", 2, "did you mean 'ipsc860'"},
        BadUsage{"run exchange --set lamda=3", 2, "did you mean 'lambda'"},
        BadUsage{"run exchange --set lambda=-1", 2, "key 'lambda'"},
        BadUsage{"run exchange --set d", 2, "expected key=value"}, BadUsage{"run exchange -d 17", 2, "0..16"},
        BadUsage{"run exchange --engine os_threads -d 14", 2, "0..13"},
        BadUsage{"run exchange --ports two", 2, "key 'ports'"},
        BadUsage{"run exchange --timing virtal", 2, "key 'timing'"},
        BadUsage{"run exchange --sync pairwize", 2, "key 'sync'"}, BadUsage{"plan -d 0", 2, "d >= 1"},
        BadUsage{"sweep exchange --m 10:0:1", 2, "FROM must not exceed TO"},
        BadUsage{"sweep exchange --m 0:10:0", 2, "STEP"},
        BadUsage{"sweep exchange -m 0:400", 2, "hcemu: -m 0:400: expected FROM:TO:STEP"},
        BadUsage{"sweep exchange -d 2 --m 0:8:8 --plot out.eps", 2, ".png, .svg or .pdf"},
        BadUsage{"fit --algo direct", 2, "need --kernel"}, BadUsage{"configs --show nope", 2, "no preset named"},
        BadUsage{"run exchange --config " HCEMU_CLI_TEST_DATA "/unknown_key.toml", 2,
                 "unknown_key.toml:4: key 'tua': unknown key; did you mean 'tau'?"},
        BadUsage{"run exchange --config " HCEMU_CLI_TEST_DATA "/wrong_type.toml", 2,
                 "wrong_type.toml:3: key 'rho': must be a number"},
        BadUsage{"run exchange --config " HCEMU_CLI_TEST_DATA "/out_of_range.toml", 2, "out_of_range.toml:2: key 'd'"},
        BadUsage{"run exchange --config " HCEMU_CLI_TEST_DATA "/not_toml.toml", 2, "not_toml.toml:2: not valid TOML"}));

TEST(RunCommand, SaysWhenAPresetsLambdaZeroOutlivesANewLambda) {
  // The ipsc860 preset sets lambda0 = 85.5 µs of its own: changing lambda alone leaves zero-byte messages at it.
  const auto changed = hcemu("run exchange -d 2 --algo direct --set lambda=50");
  EXPECT_EQ(changed.exit_code, 0) << changed.err;
  EXPECT_NE(changed.out.find("note: zero-byte messages start up in lambda0 = 85.5 µs, not lambda = 50 µs"),
            std::string::npos)
      << changed.out;
  for (const char* untouched : {"run exchange -d 2 --algo direct", "run exchange -d 2 --algo direct --set lambda=50 "
                                                                     "--set lambda0=40"}) {
    const auto r = hcemu(untouched);
    EXPECT_EQ(r.out.find("note: zero-byte"), std::string::npos) << untouched << '\n' << r.out;
  }
}

TEST(ExitCodes, ARunThatErrorsExitsWithOne) {
  // Every node needs 2·2^d·m bytes for its blocks; an arena of 4096 bytes cannot hold them.
  auto r = hcemu("run exchange --algo direct -d 3 -m 4096 --set arena_bytes=4096");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("arena"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace hcemu::cli
