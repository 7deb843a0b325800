#pragma once
// A run report written as JSON as it goes (json_writer.hpp), and the one document shape of run reports:
// {"context": {...}, "runs": [...], "schema_version": N}, each key where nlohmann::json::dump puts it. The command
// (`run --json`) and the library's JsonReporter both write through it.
#include <iosfwd>
#include <nlohmann/json.hpp>

#include "hcemu/report.hpp"
#include "report/json_writer.hpp"

namespace hcemu::detail {

// The fields of to_json(report) (hcemu/report_json.hpp); without `per_node`, no `nodes` and no `links`, which grow
// with the machine (2^d nodes, d 2^d links) while the rest does not.
void write_report_json(JsonWriter& out, const RunReport& report, bool per_node);

// Writes `context` and opens `runs` at once; each run then goes out through writer(); close() ends the document.
class JsonRunsDocument {
 public:
  JsonRunsDocument(std::ostream& out, const nlohmann::json& context);
  JsonWriter& writer() { return writer_; }  // where the next element of `runs` goes
  void close();                              // ends `runs` and the document

 private:
  JsonWriter writer_;
};

}  // namespace hcemu::detail
