#include "cli/sweep_csv.hpp"

#include <functional>
#include <string_view>

#include "cli/commands.hpp"
#include "cli/csv_writer.hpp"
#include "cli/machine_options.hpp"
#include "cli/output_file.hpp"
#include "cli/text_table.hpp"

namespace hcemu::cli {

namespace {

// What a CSV column reads its value from: the kernel and machine of the sweep, and one point.
struct CsvRow {
  const harness::KernelFamily& kernel;
  const MachineConfig& config;
  const EmulatorSettings& settings;
  const SweepPoint& point;
  bool optimal;

  const harness::KernelCase& run_case() const {
    return point.outcome.result ? point.outcome.result->run_case : point.outcome.requested;
  }
  // The run's own numbers, where it was emulated and completed.
  const harness::KernelResult* emulated() const {
    return point.emulated && point.outcome.result ? &*point.outcome.result : nullptr;
  }
};

std::string parts_joined(const std::vector<int>& parts) {
  std::string text;
  for (int part : parts) {
    if (!text.empty()) text += '-';
    text += std::to_string(part);
  }
  return text;
}

// "groups=5;grid=1-3": the algorithm's parameters as run, but the partition, which has its own column.
std::string params_text(const harness::KernelCase& c) {
  std::string params;
  for (const auto& [name, value] : c.params.values()) {
    std::string text;
    if (const auto* number = std::get_if<std::uint64_t>(&value)) text = std::to_string(*number);
    else if (const auto* word = std::get_if<std::string>(&value)) text = *word;
    else if (name != "partition") text = parts_joined(std::get<std::vector<int>>(value));
    else continue;
    params += (params.empty() ? "" : ";") + name + "=" + text;
  }
  return params;
}

std::string count_text(const harness::KernelResult* r, std::uint64_t (*count)(const RunReport&)) {
  return r ? std::to_string(count(r->report)) : "";
}

// One row per column of `sweep --csv`, in order (docs/cli.md lists them): the header and every value come from here.
// An empty value is what the JSON has as null.
struct CsvColumn {
  std::string_view name;
  std::function<std::string(const CsvRow&)> value;
};

const std::vector<CsvColumn>& csv_columns() {
  static const std::vector<CsvColumn> columns = {
      {"kernel", [](const CsvRow& r) { return std::string(r.kernel.name); }},
      {"algo", [](const CsvRow& r) { return r.run_case().algo; }},
      {"curve", [](const CsvRow& r) { return curve_label(r.kernel, r.point.outcome); }},
      {"partition", [](const CsvRow& r) { return parts_joined(r.run_case().params.parts("partition")); }},
      {"params", [](const CsvRow& r) { return params_text(r.run_case()); }},
      {"m", [](const CsvRow& r) { return std::to_string(r.point.m); }},
      {"config", [](const CsvRow& r) { return r.config.name; }},
      {"topology", [](const CsvRow& r) { return topology_name(r.config); }},
      {"d", [](const CsvRow& r) { return std::to_string(r.config.d); }},
      {"nodes", [](const CsvRow& r) { return std::to_string(r.config.nodes()); }},
      {"ports", [](const CsvRow& r) { return r.config.ports.str(); }},
      {"switching", [](const CsvRow& r) { return std::string(to_string(r.config.switching)); }},
      {"protocol", [](const CsvRow& r) { return std::string(to_string(r.config.protocol)); }},
      {"sync", [](const CsvRow& r) { return std::string(to_string(r.run_case().sync)); }},
      {"timing", [](const CsvRow& r) { return std::string(to_string(r.settings.timing)); }},
      {"seed", [](const CsvRow& r) { return std::to_string(r.run_case().seed); }},
      {"predicted_us",
       [](const CsvRow& r) {
         const auto& result = r.point.outcome.result;
         return result && result->predicted ? shortest(to_us(*result->predicted)) : "";
       }},
      {"emulated_us", [](const CsvRow& r) { return r.emulated() ? shortest(r.emulated()->report.makespan_us()) : ""; }},
      {"lower_bound_us",
       [](const CsvRow& r) {
         const auto& result = r.point.outcome.result;
         return result && result->lower_bound ? shortest(to_us(*result->lower_bound)) : "";
       }},
      {"verified",
       [](const CsvRow& r) { return r.point.emulated ? (r.point.outcome.ok() ? "true" : "false") : std::string(); }},
      {"optimal", [](const CsvRow& r) { return std::string(r.optimal ? "true" : "false"); }},
      {"messages",
       [](const CsvRow& r) { return count_text(r.emulated(), [](const RunReport& p) { return p.messages(); }); }},
      {"bytes", [](const CsvRow& r) { return count_text(r.emulated(), [](const RunReport& p) { return p.bytes(); }); }},
      {"contention_events",
       [](const CsvRow& r) {
         return count_text(r.emulated(), [](const RunReport& p) { return p.contention_events(); });
       }},
      {"forced_discards",
       [](const CsvRow& r) {
         return count_text(r.emulated(), [](const RunReport& p) {
           return static_cast<std::uint64_t>(p.forced_discards.size());
         });
       }},
      // The first line: a deadlock's list of blocked nodes follows on stderr.
      {"error",
       [](const CsvRow& r) { return r.point.outcome.error.substr(0, r.point.outcome.error.find('\n')); }},
  };
  return columns;
}

}  // namespace

void write_sweep_csv(const std::string& path, const harness::KernelFamily& kernel, const MachineConfig& config,
                     const EmulatorSettings& settings, const std::vector<SweepPoint>& points) {
  if (!writes_files()) return;     // another MPI rank than the first
  OutputFile file(path, "--csv");  // a temporary beside it until complete
  std::vector<std::string> fields;
  for (const CsvColumn& column : csv_columns()) fields.emplace_back(column.name);
  write_csv_record(file.stream(), fields);
  const std::vector<bool> optimal = optimal_points(points);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const CsvRow row{kernel, config, settings, points[i], optimal[i]};
    fields.clear();
    for (const CsvColumn& column : csv_columns()) fields.push_back(column.value(row));
    write_csv_record(file.stream(), fields);
  }
  file.commit();
}

}  // namespace hcemu::cli
