#pragma once
// `--trace FILE.json`: the Chrome trace event format (Perfetto, chrome://tracing) of one or several runs.
#include <string>
#include <vector>

#include "hcemu/report.hpp"

namespace hcemu::cli {

struct LabelledReport {
  std::string label;  // "direct", "multiphase (2,3)"
  const RunReport* report;
};

// Before the runs: throws UsageError if `path` cannot be opened for writing (a missing folder, a folder, no
// permission), so that a long run is not lost to it. Leaves no file behind that was not there.
void check_trace_path(const std::string& path);

// One process per run (named by its label), tracks per node and link (docs/traces.md). Throws UsageError if the file
// cannot be written.
void write_chrome_trace(const std::string& path, const std::vector<LabelledReport>& runs);

}  // namespace hcemu::cli
