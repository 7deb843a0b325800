#pragma once
// A progress line on stderr for commands that may run long (`run`, `sweep`): what is running, how far along, the time
// it has taken and, for a sweep, about how long is left. Drawn only when stderr is a terminal, and only once the
// command has run for a while (kProgressDelay), so that short commands, logs and pipes stay clean; redrawn in place
// with \r, and cleared when the command is done.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <mutex>
#include <string>
#include <thread>

namespace hcemu::cli {

inline constexpr std::chrono::milliseconds kProgressDelay{2000};

// What the line says: `done` of `total` items finished, `item` the one running (or the work after the last).
struct ProgressState {
  std::string task;  // "run exchange", "sweep exchange"
  std::size_t done = 0, total = 0;
  std::string item;          // "standard", "direct m=64", "writing the trace"
  double elapsed = 0;        // seconds since the command started
  double item_elapsed = 0;   // seconds since `item` started
  // Inside the running item, where it counts its parts: `part_done` of `part_total` `part_unit` ("nodes") done.
  std::uint64_t part_done = 0, part_total = 0;
  std::string part_unit{};
  // Where the running item says how far it is in model time (EmulatorSettings::model_time_placed): `model_us` placed
  // of the `model_total_us` predicted (0: not known).
  double model_us = 0, model_total_us = 0;
};

// "0:07", "1:05", "1:02:03": whole seconds, as a clock.
std::string clock_text(double seconds);
// `run`: "run exchange: standard (2 of 3), 0:12, 0:45 in all"; one case: "run exchange: direct, 1:23"; with the
// case's nodes counted (EmulatorSettings::nodes_done): "run exchange: direct, 1024/4096 nodes done, 1:23"; with the
// model time placed and the case's prediction: "run exchange: direct, model time 2301/4525 µs, 1:23, about 1:20
// left" (the time left at the pace so far, once some model time has passed and a second of host time).
std::string run_progress_line(const ProgressState& s);
// `sweep`: "sweep exchange: 37/120 points, 1:05, about 2:25 left (standard m=64)", the time left at the pace so far.
std::string sweep_progress_line(const ProgressState& s);

class Progress {
 public:
  using Line = std::function<std::string(const ProgressState&)>;
  // Draws nothing, and starts no thread, unless `enabled`; otherwise a timer redraws the line while an item runs.
  Progress(std::ostream& out, std::string task, std::size_t total, Line line, bool enabled,
           std::chrono::milliseconds delay = kProgressDelay);
  ~Progress();  // clears the line
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void start(std::string item);  // the next item, or the work after the last, starts
  // The next item, whose parts `done` counts (read relaxed while it runs) up to `total`; `done` must outlive it.
  void start(std::string item, const std::atomic<std::uint64_t>& done, std::uint64_t total, std::string unit);
  // The running item also says how far it is in model time: `placed` ps of the `predicted` (> 0); `placed` must
  // outlive the item.
  void model_time(const std::atomic<std::int64_t>& placed, std::int64_t predicted);
  void finish();                 // it is done
  // Writes `text` (whole lines) to the stream, clearing the progress line first so that the two do not mix.
  void message(const std::string& text);

  // Whether stderr is a terminal: `run` and `sweep` show their progress only then, and not under --quiet.
  static bool stderr_is_terminal();

 private:
  // The next item, its count (null: none) and nothing of model time yet; with mutex_ held.
  void begin(std::string item, const std::atomic<std::uint64_t>* done, std::uint64_t total, std::string unit);
  void draw();  // with mutex_ held
  void clear();  // with mutex_ held

  using Clock = std::chrono::steady_clock;
  std::ostream& out_;
  ProgressState state_;
  Line line_;
  bool enabled_;
  std::chrono::milliseconds delay_;
  Clock::time_point begin_ = Clock::now(), item_begin_ = begin_;
  const std::atomic<std::uint64_t>* part_done_ = nullptr;  // the running item's count, if it has one
  const std::atomic<std::int64_t>* model_placed_ = nullptr;  // the running item's model time placed, if it says
  bool drawn_ = false;
  bool stop_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread timer_;
};

}  // namespace hcemu::cli
