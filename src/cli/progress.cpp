#include "cli/progress.hpp"

#include <ostream>

#include <unistd.h>

namespace hcemu::cli {

ProgressBar::ProgressBar(std::ostream& out, std::size_t total, bool enabled)
    : out_(out), total_(total), enabled_(enabled && total > 0) {}

ProgressBar::~ProgressBar() {
  if (enabled_) out_ << "\r\033[K" << std::flush;  // leave the line clean for what follows
}

void ProgressBar::step(const std::string& what) {
  ++done_;
  if (!enabled_) return;
  constexpr std::size_t kWidth = 30;
  std::size_t filled = done_ * kWidth / total_;
  out_ << "\r\033[K[" << std::string(filled, '#') << std::string(kWidth - filled, ' ') << "] " << done_ << '/'
       << total_ << ' ' << what << std::flush;
}

bool ProgressBar::stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

}  // namespace hcemu::cli
