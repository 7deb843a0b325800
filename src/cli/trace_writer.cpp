#include "cli/trace_writer.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "cli/cli_error.hpp"
#include "hcemu/reporter.hpp"

namespace hcemu::cli {

namespace {

[[noreturn]] void cannot_open(const std::string& path, int error) {
  throw UsageError("--trace " + path + ": cannot open the file for writing (" + std::strerror(error) +
                   "); give a path in a folder that exists and that you may write to");
}

}  // namespace

void check_trace_path(const std::string& path) {
  std::error_code ec;
  const bool existed = std::filesystem::exists(path, ec);
  errno = 0;
  {
    // Appending truncates nothing: an existing file keeps its content until the trace is written.
    std::ofstream probe(path, std::ios::app);
    if (!probe) cannot_open(path, errno != 0 ? errno : EACCES);
  }
  if (!existed) std::filesystem::remove(path, ec);
}

void write_chrome_trace(const std::string& path, const std::vector<LabelledReport>& runs) {
  errno = 0;
  std::ofstream file(path);
  if (!file) cannot_open(path, errno != 0 ? errno : EACCES);
  ChromeTraceReporter trace(file);
  for (const auto& run : runs) trace.report(run.label, *run.report);
  trace.finish();
  if (!file) throw UsageError("--trace " + path + ": writing the file failed");
}

}  // namespace hcemu::cli
