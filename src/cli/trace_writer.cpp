#include "cli/trace_writer.hpp"

#include <fstream>

#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "hcemu/reporter.hpp"

namespace hcemu::cli {

void write_chrome_trace(const std::string& path, const std::vector<LabelledReport>& runs) {
  if (!writes_files()) return;  // another MPI rank than the first
  std::ofstream file(path);
  if (!file) throw UsageError("--trace " + path + ": cannot open the file for writing");
  ChromeTraceReporter trace(file);
  for (const auto& run : runs) trace.report(run.label, *run.report);
  trace.finish();
  if (!file) throw UsageError("--trace " + path + ": writing the file failed");
}

}  // namespace hcemu::cli
