// `hcemu plan`: the optimal multiphase partition for block size m, every equipartition's predicted time, and
// Bokhari's hull of optimality with its breakpoints (Bokhari 1993 §3; Nicol & Bokhari 1994 §3-4), for the exchange
// exactly as the kernel would run it on this machine and with this sync style.
#include <CLI/CLI.hpp>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/machine_options.hpp"
#include "cli/option_checks.hpp"
#include "cli/text_table.hpp"
#include "hcemu/model/planner.hpp"

namespace hcemu::cli {

namespace {

struct PlanOptions {
  MachineOptions machine;
  std::size_t m = 64;
  bool json = false;
};

nlohmann::json finite_or_null(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

int plan(const PlanOptions& options, std::ostream& out) {
  const MachineConfig config = options.machine.build();
  const Sync sync = options.machine.parsed_sync();
  if (config.d < 1) throw UsageError("plan needs a cube of dimension d >= 1 (a 0-cube exchanges nothing)");
  const std::size_t m = options.m;

  const model::Plan best = model::optimal_partition(config, m, sync);
  struct Equipartition {
    model::Partition partition;
    Time predicted;
  };
  std::vector<Equipartition> equipartitions;
  for (int n = 1; n <= config.d; ++n) {
    auto p = model::equipartition(config.d, n);
    equipartitions.push_back({p, model::multiphase_exchange_time(config, p, m, sync)});
  }
  for (Time t : {best.predicted, equipartitions.front().predicted, equipartitions.back().predicted})
    if (t < 0 || t > kTimeLimit)
      throw TimeOverflow("the exchange of m = " + std::to_string(m) + " bytes on this machine takes longer than " +
                         "the model's range of 2^62 ps (about 53 days)");
  const std::string inexact = model::hull_inexact_reason(config, m);
  const model::Hull hull = model::build_hull(model::bokhari_params(config, sync));

  if (options.json) {
    nlohmann::json j;
    j["config"] = config.name;
    j["d"] = config.d;
    j["m"] = m;
    j["sync"] = std::string(to_string(sync));
    j["optimal"] = {{"partition", best.partition},
                    {"predicted_us", to_us(best.predicted)},
                    {"predicted_ps", best.predicted},
                    {"rule", best.rule},
                    {"reason", best.reason}};
    j["equipartitions"] = nlohmann::json::array();
    for (const auto& e : equipartitions)
      j["equipartitions"].push_back({{"partition", e.partition},
                                     {"phases", e.partition.size()},
                                     {"predicted_us", to_us(e.predicted)},
                                     {"predicted_ps", e.predicted},
                                     {"optimal", e.partition == best.partition}});
    nlohmann::json faces = nlohmann::json::array();
    for (const auto& f : hull.faces)
      faces.push_back({{"partition", f.partition},
                       {"m_from", f.m_from},
                       {"m_to", finite_or_null(f.m_to)},
                       {"slope_us_per_byte", f.line.slope},
                       {"intercept_us", f.line.intercept}});
    j["hull"] = {{"faces", faces}, {"breakpoints", hull.breakpoints}, {"exact", inexact.empty()}};
    if (!inexact.empty()) j["hull"]["reason"] = inexact;
    out << j.dump(2) << '\n';
    return kExitOk;
  }

  out << "complete exchange on " << config.name << ", d = " << config.d << " (" << config.nodes()
      << " nodes), m = " << m << " bytes, sync " << to_string(sync) << "\n\n";
  out << "optimal partition: " << partition_label(best.partition) << ", predicted " << fixed(to_us(best.predicted))
      << " µs (" << best.rule << (best.reason.empty() ? "" : ": " + best.reason) << ")\n\n";
  TextTable table({"", "equipartition", "phases", "predicted µs"});
  for (const auto& e : equipartitions)
    table.add_row({e.partition == best.partition ? "*" : "", partition_label(e.partition),
                   std::to_string(e.partition.size()), fixed(to_us(e.predicted))});
  table.print(out);
  out << "\nhull of optimality (Bokhari 1993 §3), optimal partition by block size:\n";
  TextTable faces({"m from", "m to", "partition", "time µs = slope·m + intercept"});
  for (const auto& f : hull.faces)
    faces.add_row({fixed(f.m_from, 2), std::isfinite(f.m_to) ? fixed(f.m_to, 2) : "∞", partition_label(f.partition),
                   fixed(f.line.slope, 4) + "·m + " + fixed(f.line.intercept, 2)});
  faces.print(out);
  if (!inexact.empty()) out << "note: the hull is Bokhari's approximation here, not exact: " << inexact << '\n';
  return kExitOk;
}

}  // namespace

Action add_plan_command(CLI::App& app) {
  auto options = std::make_shared<PlanOptions>();
  auto* sub = app.add_subcommand(
      "plan", "The optimal multiphase partition, every equipartition's predicted time, and the hull of optimality");
  sub->add_option("-m,--bytes", options->m, "Block size m in bytes")->capture_default_str()->check(size_in_bytes());
  options->machine.add_to(*sub);
  sub->add_flag("--json", options->json, "Print JSON: optimal, equipartitions, hull");
  Action matmul = add_plan_matmul_command(*sub);
  return [options, sub, matmul](std::ostream& out, std::ostream& err) {
    return sub->got_subcommand("matmul") ? matmul(out, err) : plan(*options, out);
  };
}

}  // namespace hcemu::cli
