// The progress line of `run` and `sweep` (cli/progress.hpp): its text, and that it is drawn only when enabled and
// cleared at the end. No test here depends on how long anything takes.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <sstream>
#include <string>

#include "cli/progress.hpp"
#include "run_hcemu.hpp"

namespace hcemu::cli {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;

ProgressState state(std::size_t done, std::size_t total, std::string item, double elapsed, double item_elapsed) {
  return ProgressState{"sweep exchange", done, total, std::move(item), elapsed, item_elapsed};
}

TEST(Progress, ClockShowsWholeSecondsAsMinutesAndHours) {
  EXPECT_EQ(clock_text(0), "0:00");
  EXPECT_EQ(clock_text(7.9), "0:07");
  EXPECT_EQ(clock_text(65), "1:05");
  EXPECT_EQ(clock_text(3599), "59:59");
  EXPECT_EQ(clock_text(3723), "1:02:03");
}

TEST(Progress, RunLineNamesTheCaseItsPlaceAndItsTime) {
  ProgressState s{"run exchange", 1, 3, "standard", 45, 12};
  EXPECT_EQ(run_progress_line(s), "run exchange: standard (2 of 3), 0:12, 0:45 in all");
  // One case: no place; the whole time is the case's.
  EXPECT_EQ(run_progress_line({"run exchange", 0, 1, "direct", 83, 83}), "run exchange: direct, 1:23");
  // After the last case: what the command does then.
  EXPECT_EQ(run_progress_line({"run exchange", 3, 3, "writing t.json", 50, 5}),
            "run exchange: writing t.json, 0:05, 0:50 in all");
}

TEST(Progress, RunLineCountsTheNodesDoneInsideTheCase) {
  ProgressState s{"run exchange", 0, 1, "direct", 83, 83, 1024, 4096, "nodes"};
  EXPECT_EQ(run_progress_line(s), "run exchange: direct, 1024/4096 nodes done, 1:23");
  s = {"run exchange", 1, 3, "standard", 45, 12, 0, 32, "nodes"};
  EXPECT_EQ(run_progress_line(s), "run exchange: standard (2 of 3), 0/32 nodes done, 0:12, 0:45 in all");
}

TEST(Progress, RunLineSaysTheModelTimePlacedAndEstimatesWhatIsLeft) {
  ProgressState s{"run exchange", 0, 1, "direct", 20, 20, 0, 1024, "nodes", 1000, 4000};
  // 1000 of 4000 µs in 20 s: 60 s more at that pace; the model time replaces the count of nodes.
  EXPECT_EQ(run_progress_line(s), "run exchange: direct, model time 1000/4000 µs, 0:20, about 1:00 left");
  s.model_us = 0;  // nothing placed yet: no estimate
  EXPECT_EQ(run_progress_line(s), "run exchange: direct, model time 0/4000 µs, 0:20");
  s.model_total_us = 0;  // no prediction: the nodes again
  EXPECT_EQ(run_progress_line(s), "run exchange: direct, 0/1024 nodes done, 0:20");
}

TEST(Progress, LineReadsTheModelTimePlacedWhenItIsDrawn) {
  std::ostringstream out;
  std::atomic<std::uint64_t> done{0};
  std::atomic<std::int64_t> placed{2'500'000};  // ps
  {
    Progress progress(out, "run exchange", 1, run_progress_line, true, milliseconds(0));
    progress.start("direct", done, 8, "nodes");
    progress.model_time(placed, 10'000'000);
    progress.start("standard", done, 8, "nodes");  // the next item says nothing of model time unless told
    progress.finish();
  }
  EXPECT_NE(out.str().find("run exchange: direct, model time 3/10 µs, 0:00"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("standard, 0/8 nodes done"), std::string::npos) << out.str();
}

TEST(Progress, LineReadsTheCountersValueWhenItIsDrawn) {
  std::ostringstream out;
  std::atomic<std::uint64_t> done{3};
  {
    Progress progress(out, "run exchange", 1, run_progress_line, true, milliseconds(0));
    progress.start("direct", done, 8, "nodes");  // drawn at once: no delay
    progress.finish();
  }
  EXPECT_NE(out.str().find("run exchange: direct, 3/8 nodes done, 0:00"), std::string::npos) << out.str();
}

TEST(Progress, AnItemWithoutACounterShowsNone) {
  std::ostringstream out;
  std::atomic<std::uint64_t> done{3};
  {
    Progress progress(out, "run exchange", 2, run_progress_line, true, milliseconds(0));
    progress.start("direct", done, 8, "nodes");
    progress.finish();
    progress.start("writing t.json");
  }
  EXPECT_NE(out.str().find("run exchange: writing t.json (2 of 2), 0:00"), std::string::npos) << out.str();
}

TEST(Progress, SweepLineEstimatesWhatIsLeftAtThePaceSoFar) {
  // 30 points in 60 s: 2 s a point, 90 more to go.
  EXPECT_EQ(sweep_progress_line(state(30, 120, "standard m=64", 60, 1)),
            "sweep exchange: 30/120 points, 1:00, about 3:00 left (standard m=64)");
  // Nothing done yet: no pace to go by.
  EXPECT_EQ(sweep_progress_line(state(0, 120, "direct m=0", 3, 3)), "sweep exchange: 0/120 points, 0:03 (direct m=0)");
}

TEST(Progress, DisabledWritesNothing) {
  std::ostringstream out;
  {
    Progress progress(out, "sweep exchange", 2, sweep_progress_line, false, milliseconds(0));
    progress.start("direct m=0");
    progress.finish();
    progress.start("direct m=16");
    progress.finish();
  }
  EXPECT_EQ(out.str(), "");
}

TEST(Progress, NothingBeforeItsDelay) {
  std::ostringstream out;
  {
    Progress progress(out, "sweep exchange", 1, sweep_progress_line, true, hours(1));
    progress.start("direct m=0");
    progress.finish();
  }
  EXPECT_EQ(out.str(), "");
}

TEST(Progress, EnabledRedrawsOneLineInPlaceAndClearsIt) {
  std::ostringstream out;
  {
    Progress progress(out, "sweep exchange", 2, sweep_progress_line, true, milliseconds(0));
    progress.start("direct m=0");
    progress.finish();
    progress.start("direct m=16");
    progress.message("hcemu: warning: something\n");
    progress.finish();
  }
  const std::string text = out.str();
  EXPECT_EQ(text.find('\n'), text.find("something\n") + 9) << text;  // the only newline is the message's
  EXPECT_NE(text.find("\r\033[Ksweep exchange: 0/2 points, "), std::string::npos) << text;
  EXPECT_NE(text.find("\r\033[Ksweep exchange: 1/2 points, "), std::string::npos) << text;
  EXPECT_NE(text.find("(direct m=16)\r\033[Khcemu: warning: something\n"), std::string::npos) << text;
  // The message left the line clean; whatever was drawn after it is cleared at the end.
  const std::string after = text.substr(text.rfind('\n') + 1);
  EXPECT_TRUE(after.empty() || after.ends_with("\r\033[K")) << text;
}

TEST(Progress, LineIsClearedAtTheEnd) {
  std::ostringstream out;
  {
    Progress progress(out, "run exchange", 1, run_progress_line, true, milliseconds(0));
    progress.start("direct");
    progress.finish();
  }
  EXPECT_TRUE(out.str().starts_with("\r\033[Krun exchange: direct, 0:0")) << out.str();
  EXPECT_TRUE(out.str().ends_with("\r\033[K")) << out.str();
}

TEST(Progress, CommandsWriteNoProgressWhenStderrIsNotATerminal) {
  // The test's stderr goes to a file: a sweep of 40 points says nothing there but its errors, which are none.
  const auto r = test::hcemu("sweep exchange -d 4 -m 0:64:16");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const auto q = test::hcemu("run exchange -d 4 --quiet");
  EXPECT_EQ(q.exit_code, 0) << q.err;
  EXPECT_EQ(q.err, "");
}

}  // namespace
}  // namespace hcemu::cli
