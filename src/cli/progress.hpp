#pragma once
// A progress bar on stderr, drawn only when stderr is a terminal (so that logs and pipes stay clean).
#include <cstddef>
#include <iosfwd>
#include <string>

namespace hcemu::cli {

class ProgressBar {
 public:
  ProgressBar(std::ostream& out, std::size_t total, bool enabled);
  ~ProgressBar();
  void step(const std::string& what);  // one more done

  static bool stderr_is_terminal();

 private:
  std::ostream& out_;
  std::size_t total_, done_ = 0;
  bool enabled_;
};

}  // namespace hcemu::cli
