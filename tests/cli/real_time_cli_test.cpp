// Wall and native timing (docs/model.md §8) from the command line: a FORCED machine runs UNFORCED unless the
// command line keeps FORCED, a loss names the options that avoid it, and native timing's table has no model columns.
// The host's own times are never asserted: only the shape of the output. Also the note for placing_early where it
// cannot apply.
#include <algorithm>
#include <sstream>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "cli/machine_options.hpp"
#include "cli/real_time.hpp"
#include "run_hcemu.hpp"

namespace hcemu::cli {
namespace {

using test::hcemu;

MachineFamily ipsc860_with(Timing timing) {
  MachineOptions options;
  MachineFamily family = options.build_family();
  family.settings.timing = timing;
  return family;
}

TEST(RealTime, ForcedMachineRunsUnforcedUnderNativeTiming) {
  MachineFamily family = ipsc860_with(Timing::native);
  ASSERT_EQ(family.config.protocol, Protocol::forced);
  const std::string note = make_forced_safe_in_real_time(family, false);
  EXPECT_EQ(family.config.protocol, Protocol::unforced);
  EXPECT_NE(note.find("native timing: the machine runs UNFORCED"), std::string::npos) << note;
  EXPECT_NE(note.find("--protocol forced"), std::string::npos) << note;
}

TEST(RealTime, ForcedMachineRunsUnforcedUnderWallTiming) {
  MachineFamily family = ipsc860_with(Timing::wall);
  EXPECT_FALSE(make_forced_safe_in_real_time(family, false).empty());
  EXPECT_EQ(family.config.protocol, Protocol::unforced);
}

TEST(RealTime, ProtocolGivenOnTheCommandLineStays) {
  MachineFamily family = ipsc860_with(Timing::native);
  EXPECT_EQ(make_forced_safe_in_real_time(family, true), "");
  EXPECT_EQ(family.config.protocol, Protocol::forced);
}

TEST(RealTime, VirtualTimingKeepsForced) {
  MachineFamily family = ipsc860_with(Timing::virtual_time);
  EXPECT_EQ(make_forced_safe_in_real_time(family, false), "");
  EXPECT_EQ(family.config.protocol, Protocol::forced);
}

TEST(RealTime, ProtocolIsGivenByItsFlagOrBySet) {
  MachineOptions by_flag;
  by_flag.flags["protocol"] = "forced";
  EXPECT_TRUE(by_flag.given("protocol"));
  MachineOptions by_set;
  by_set.sets = {"lambda=3", " protocol = forced"};
  EXPECT_TRUE(by_set.given("protocol"));
  MachineOptions by_preset;
  by_preset.sets = {"protocol_x=1"};
  EXPECT_FALSE(by_preset.given("protocol"));
}

TEST(RealTime, ForcedLossUnderNativeTimingNamesBothFixes) {
  MachineFamily family = ipsc860_with(Timing::native);
  const std::string fix = real_time_forced_fix(family.config, family.settings);
  EXPECT_NE(fix.find("--protocol unforced"), std::string::npos) << fix;
  EXPECT_NE(fix.find("--sync barrier"), std::string::npos) << fix;
  family.settings.timing = Timing::virtual_time;  // a loss in model time is the model's own: nothing to fix
  EXPECT_EQ(real_time_forced_fix(family.config, family.settings), "");
}

TEST(RealTimeCli, ExchangeUnderNativeTimingRunsWithAChosenProtocolNote) {
  auto r = hcemu("run exchange --timing native -d 2", 60);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("hcemu: note: native timing: the machine runs UNFORCED"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("unforced, native timing"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("* fastest measured"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("optimal by the model"), std::string::npos) << r.out;
  // Each algorithm's row: predicted, emulated-predicted and lower bound read n/a, the run verified.
  int rows = 0;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.find(" yes ") == std::string::npos) continue;
    ++rows;
    std::size_t count = 0;
    for (std::size_t at = line.find("n/a"); at != std::string::npos; at = line.find("n/a", at + 1)) ++count;
    EXPECT_EQ(count, 3u) << line;
  }
  EXPECT_EQ(rows, 2) << r.out;  // direct and standard on a 2-cube
}

TEST(RealTimeCli, NativeJsonHasNoModelAndMarksTheFastestMeasured) {
  auto runs = test::runs_of(hcemu("run exchange --timing native -d 2 --json", 60));
  ASSERT_EQ(runs.size(), 2u);
  double fastest = 1e300;
  for (const auto& run : runs) fastest = std::min(fastest, run["emulated_us"].get<double>());
  for (const auto& run : runs) {
    EXPECT_TRUE(run["predicted_us"].is_null());
    EXPECT_TRUE(run["lower_bound_us"].is_null());
    EXPECT_TRUE(run["model_not_applicable"].is_string());
    EXPECT_EQ(run["optimal"].get<bool>(), run["emulated_us"].get<double>() == fastest) << run["algo"];
  }
}

// placing_early where it cannot apply says so, and why; where it applies, nothing (docs/engine.md, "Placing while
// others run").
TEST(PlacingEarlyCli, SaysWhereItHasNoEffect) {
  for (const auto& [options, why] :
       {std::pair{"--workers 1", "one worker"}, std::pair{"--engine os_threads", "os_threads"},
        std::pair{"--timing wall --protocol unforced", "wall timing"}}) {
    auto r = hcemu(std::string("run exchange --algo direct -d 3 --set placing_early=true ") + options, 60);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.err.find("hcemu: note: placing_early has no effect here"), std::string::npos) << options << r.err;
    EXPECT_NE(r.err.find(why), std::string::npos) << options << r.err;
  }
  auto r = hcemu("run exchange --algo direct -d 3 --set placing_early=true --workers 2", 60);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

TEST(RealTimeCli, VirtualTimingKeepsTheModelAndSaysNothing) {
  auto r = hcemu("run exchange -d 2", 60);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("forced, virtual timing"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("* optimal by the model"), std::string::npos) << r.out;
}

TEST(RealTimeCli, ForcedKeptUnderNativeTimingNamesTheFixWhenItLosesAMessage) {
  // Whether a sender runs ahead of its partner's post is the host's race: when it does, the error says what avoids it.
  auto r = hcemu("run exchange --timing native -d 2 --algo direct --protocol forced", 60);
  EXPECT_EQ(r.err.find("hcemu: note:"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find(" forced, native timing"), std::string::npos) << r.out;
  if (r.exit_code != 0) {
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("--protocol unforced"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace hcemu::cli
