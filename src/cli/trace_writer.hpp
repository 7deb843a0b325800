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

// One process per run (named by its label), tracks per node and link (docs/traces.md). Throws OutputError if the file
// cannot be written, leaving any earlier file at the path as it was; the command checks the path before the runs
// (check_writable, cli/option_checks.hpp).
void write_chrome_trace(const std::string& path, const std::vector<LabelledReport>& runs);

}  // namespace hcemu::cli
