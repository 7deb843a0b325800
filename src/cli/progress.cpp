#include "cli/progress.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>

#include <sys/ioctl.h>
#include <unistd.h>

namespace hcemu::cli {

namespace {

// How often the line is redrawn while an item runs: its clock moves by the second.
constexpr std::chrono::milliseconds kRedraw{250};

// The terminal's width, so that the line never wraps (a wrapped line would not be redrawn in place).
std::size_t terminal_width() {
  winsize size{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 1) return size.ws_col;
  return 80;
}

}  // namespace

std::string clock_text(double seconds) {
  const auto whole = static_cast<long long>(std::max(0.0, std::floor(seconds)));
  const long long h = whole / 3600, m = whole / 60 % 60, s = whole % 60;
  const auto two = [](long long v) { return (v < 10 ? "0" : "") + std::to_string(v); };
  return h > 0 ? std::to_string(h) + ":" + two(m) + ":" + two(s) : std::to_string(m) + ":" + two(s);
}

std::string run_progress_line(const ProgressState& s) {
  std::string line = s.task + ": " + s.item;
  if (s.total > 1 && s.done < s.total)
    line += " (" + std::to_string(s.done + 1) + " of " + std::to_string(s.total) + ")";
  const bool by_model_time = s.model_total_us > 0;
  if (by_model_time)
    line += ", model time " + std::to_string(std::llround(s.model_us)) + "/" +
            std::to_string(std::llround(s.model_total_us)) + " µs";
  else if (s.part_total > 0)
    line += ", " + std::to_string(s.part_done) + "/" + std::to_string(s.part_total) + " " + s.part_unit + " done";
  line += ", " + clock_text(s.item_elapsed);
  if (by_model_time && s.model_us > 0 && s.model_us < s.model_total_us && s.item_elapsed >= 1)
    line += ", about " + clock_text(s.item_elapsed * (s.model_total_us / s.model_us - 1)) + " left";
  if (s.elapsed - s.item_elapsed >= 1) line += ", " + clock_text(s.elapsed) + " in all";
  return line;
}

std::string sweep_progress_line(const ProgressState& s) {
  std::string line = s.task + ": " + std::to_string(s.done) + "/" + std::to_string(s.total) + " points, " +
                     clock_text(s.elapsed);
  if (s.done > 0 && s.done < s.total)
    line += ", about " + clock_text(s.elapsed / static_cast<double>(s.done) * static_cast<double>(s.total - s.done)) +
            " left";
  if (!s.item.empty()) line += " (" + s.item + ")";
  return line;
}

Progress::Progress(std::ostream& out, std::string task, std::size_t total, Line line, bool enabled,
                   std::chrono::milliseconds delay)
    : out_(out), line_(std::move(line)), enabled_(enabled), delay_(delay) {
  state_.task = std::move(task);
  state_.total = total;
  if (!enabled_) return;
  timer_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (!stop_) {
      wake_.wait_for(lock, kRedraw);
      if (!stop_ && !state_.item.empty()) draw();  // nothing to say before the first item
    }
  });
}

Progress::~Progress() {
  if (!enabled_) return;
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    clear();
  }
  wake_.notify_one();
  timer_.join();
}

void Progress::start(std::string item) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  begin(std::move(item), nullptr, 0, {});
}

void Progress::start(std::string item, const std::atomic<std::uint64_t>& done, std::uint64_t total, std::string unit) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  begin(std::move(item), &done, total, std::move(unit));
}

void Progress::begin(std::string item, const std::atomic<std::uint64_t>* done, std::uint64_t total, std::string unit) {
  state_.item = std::move(item);
  part_done_ = done;
  state_.part_done = 0;
  state_.part_total = total;
  state_.part_unit = std::move(unit);
  model_placed_ = nullptr;
  state_.model_us = state_.model_total_us = 0;
  item_begin_ = Clock::now();
  draw();
}

void Progress::model_time(const std::atomic<std::int64_t>& placed, std::int64_t predicted) {
  if (!enabled_ || predicted <= 0) return;
  std::lock_guard lock(mutex_);
  model_placed_ = &placed;
  state_.model_total_us = static_cast<double>(predicted) / 1e6;
  draw();
}

void Progress::finish() {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  ++state_.done;  // drawn with the next item, which the line then names
}

void Progress::message(const std::string& text) {
  if (!enabled_) {
    out_ << text << std::flush;
    return;
  }
  std::lock_guard lock(mutex_);
  clear();
  out_ << text << std::flush;
}

void Progress::draw() {
  const auto now = Clock::now();
  if (now - begin_ < delay_) return;
  const auto seconds = [](Clock::duration d) { return std::chrono::duration<double>(d).count(); };
  state_.elapsed = seconds(now - begin_);
  state_.item_elapsed = seconds(now - item_begin_);
  if (part_done_) state_.part_done = part_done_->load(std::memory_order_relaxed);
  if (model_placed_) state_.model_us = static_cast<double>(model_placed_->load(std::memory_order_relaxed)) / 1e6;
  std::string line = line_(state_);
  const std::size_t width = terminal_width() - 1;
  if (line.size() > width) line.resize(width);
  out_ << "\r\033[K" << line << std::flush;
  drawn_ = true;
}

void Progress::clear() {
  if (drawn_) out_ << "\r\033[K" << std::flush;  // the line left clean for what follows
  drawn_ = false;
}

bool Progress::stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

}  // namespace hcemu::cli
