#include "cli/trace_writer.hpp"

#include "cli/commands.hpp"
#include "cli/output_file.hpp"
#include "hcemu/reporter.hpp"

namespace hcemu::cli {

void write_chrome_trace(const std::string& path, const std::vector<LabelledReport>& runs) {
  if (!writes_files()) return;  // another MPI rank than the first
  OutputFile file(path, "--trace");  // a temporary beside it until complete
  ChromeTraceReporter trace(file.stream());
  for (const auto& run : runs) trace.report(run.label, *run.report);
  trace.finish();
  file.commit();
}

}  // namespace hcemu::cli
