// `hcemu plan`: the optimal multiphase partition for block size m, every equipartition's predicted time, and
// Bokhari's hull of optimality with its breakpoints (Bokhari 1993 §3; Nicol & Bokhari 1994 §3-4), for the exchange
// exactly as the kernel would run it on this machine and with this sync style.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/json_document.hpp"
#include "cli/machine_options.hpp"
#include "cli/option_checks.hpp"
#include "cli/text_table.hpp"
#include "hcemu/model/planner.hpp"
#include "hcemu/model/split_threshold.hpp"
#include "hcemu/model/torus_exchange_cost.hpp"

namespace hcemu::cli {

namespace {

struct PlanOptions {
  MachineOptions machine;
  std::size_t m = 64;
  bool json = false;
  // The hull of Bokhari's own analysis (1993 §2.3): the Direct exchange charged the identity shuffle, 2^d·m·ρ.
  bool direct_shuffle = false;
  // On a torus: the members to plan among (t1, t2, t1.1, ...); none = the whole family.
  std::vector<std::string> algos;
};

// Nicol & Bokhari 1994 §3 in their model (eq. 1: every phase, Direct's too, shuffles; Q(d) per phase): Lemma 1's
// split threshold s* and the bounds it puts on the optimal partition (Corollary 1, Theorem 3).
struct SplitReport {
  model::PartitionBounds bounds;
  double one_phase_span = 0;  // ŝ, below which a span is best in one phase
};

SplitReport split_report(const MachineConfig& config, Sync sync, std::size_t m) {
  model::ExchangeParams params = model::bokhari_params(config, sync);
  params.direct_shuffle = true;
  const auto bm = static_cast<double>(m);
  return {model::theorem3_bounds(params, bm), model::one_phase_span(params, bm)};
}

std::string split_kind(const model::SplitThreshold& t) {
  switch (t.kind) {
    case model::SplitThreshold::Kind::split_point: return "split_point";
    case model::SplitThreshold::Kind::direct_optimal: return "direct_optimal";
    case model::SplitThreshold::Kind::standard_optimal: return "standard_optimal";
  }
  return "split_point";
}

nlohmann::json finite_or_null(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

// Suh, Shin & An (1998) §5 on a 2^k x 2^k torus: the fastest of T1, T1.x and T2 at block size m, every member's
// time, and the block sizes where one gives way to the next (model::torus_plan, model::torus_envelope).
// Where our reading of T1.x, x >= 2, departs from Suh, Shin & An's Table 1, and why (docs/kernels/torus.md).
std::string t1x_departure(int k) {
  const int top = model::torus_max_x(k) - 1;
  return (top == 2 ? std::string("T1.2") : "T1.2 to T1." + std::to_string(top)) +
         " (T1.x, x >= 2) follow our reading of §4.2, not Table 1: 3x + 3·2^(k-2-x) start-ups and "
         "(3·2^(k-2) + 5·2^x - 5)·2^(2k-1) "
         "blocks, where the table has 3·2^(k-3) + 3x + 2 - 2^x and 3·2^(3k+x-4) + (2x+3)·2^(2k+x-2). For x >= 2 the "
         "text contradicts itself and the table (its group counts are T1.1's, and x one-port send steps cannot "
         "serve the 2^x - 1 nodes each concentrating node must): the reading that keeps every step contention-free "
         "and complete trades start-ups for bytes between T1 and T1.1, so T1.2 can be the fastest for a band of m "
         "where the table's T1.x never is (docs/kernels/torus.md)";
}

int plan_torus(const MachineFamily& machine, Sync sync, std::size_t m, bool json, std::ostream& out,
               const std::vector<std::string>& algos) {
  const MachineConfig& config = machine.config;
  const auto [rows, cols] = config.topology.sides(config.d);
  if (config.topology.kind != Topology::Kind::torus || rows != cols)
    throw UsageError("plan on a " + topology_name(config) +
                     ": Suh, Shin & An's exchanges need a square 2^k x 2^k torus (--topology torus -d 2k)");
  const int k = std::countr_zero(static_cast<unsigned>(rows));
  model::TorusPlan best = model::torus_plan(config, k, m, sync);
  // The members planned among, by x: those --algo names, or every one.
  std::vector<int> members;
  for (const std::string& a : algos) {
    if (a == "all") {
      members.clear();
      break;
    }
    const int x = model::torus_algorithm_x(k, a);
    if (std::find(members.begin(), members.end(), x) == members.end()) members.push_back(x);
  }
  const bool limited = !members.empty();
  if (!limited)
    for (int x = 0; x < static_cast<int>(best.times.size()); ++x) members.push_back(x);
  std::sort(members.begin(), members.end());
  const auto listed = [&](int x) { return std::find(members.begin(), members.end(), x) != members.end(); };
  for (int x : members)  // the fastest of those asked for; among equal times the smaller x, as torus_plan
    if (!listed(best.x) || best.times[static_cast<std::size_t>(x)] < best.predicted) {
      best.x = x;
      best.predicted = best.times[static_cast<std::size_t>(x)];
    }
  best.name = model::torus_algorithm_name(k, best.x);
  const model::TorusEnvelope family = model::torus_envelope(config, k, sync, members);
  const bool reads_t1x = std::any_of(members.begin(), members.end(),
                                     [&](int x) { return x >= 2 && x < model::torus_max_x(k); });
  // The paper's Figures 6 and 7 compare T1, T1.1 and T2 only.
  std::vector<int> paper_members = {model::torus_max_x(k)};
  if (k >= 5) paper_members.push_back(1);
  paper_members.push_back(0);
  const model::TorusEnvelope paper = model::torus_envelope(config, k, sync, paper_members);
  const double t_s = config.lambda + config.delta_msg, t_c = config.tau;  // µs, µs/byte
  const auto name = [k](int x) { return model::torus_algorithm_name(k, x); };
  const std::string note = config.packet != 0
                               ? "the crossovers are those of the lines A + B·m; with a packet limit the times are not "
                                 "lines, and the crossovers only approximate"
                               : "";

  if (json) {
    nlohmann::json j;
    j["config"] = config.name;
    j["d"] = config.d;
    j["topology"] = topology_name(config);
    j["k"] = k;
    j["m"] = m;
    j["sync"] = std::string(to_string(sync));
    j["t_s_us"] = t_s;
    j["t_c_us_per_byte"] = t_c;
    j["a"] = t_c > 0 ? nlohmann::json(t_s / t_c) : nlohmann::json(nullptr);
    j["fastest"] = {
        {"algo", best.name}, {"x", best.x}, {"predicted_us", to_us(best.predicted)}, {"predicted_ps", best.predicted}};
    j["members"] = nlohmann::json::array();
    for (int x = static_cast<int>(best.times.size()) - 1; x >= 0; --x)
      if (listed(x))
        j["members"].push_back({{"algo", name(x)},
                              {"x", x},
                              {"startups", model::torus_startups(k, x)},
                              {"blocks", model::torus_volume_blocks(k, x)},
                              {"predicted_us", to_us(best.times[static_cast<std::size_t>(x)])},
                              {"predicted_ps", best.times[static_cast<std::size_t>(x)]},
                              {"fastest", x == best.x}});
    const auto crossovers = [&](const model::TorusEnvelope& e) {
      nlohmann::json list = nlohmann::json::array();
      for (const auto& c : e.crossovers) list.push_back({{"from", name(c.from_x)}, {"to", name(c.to_x)}, {"m", c.m}});
      return list;
    };
    j["crossovers"] = crossovers(family);
    j["paper_crossovers"] = crossovers(paper);
    if (!note.empty()) j["note"] = note;
    if (reads_t1x) j["t1x_reading"] = t1x_departure(k);
    out << json_document("plan", &machine, "plan", std::move(j)).dump(2) << '\n';
    return kExitOk;
  }

  out << "complete exchange on " << config.name << ", " << machine_shape(config) << ", m = " << m << " bytes, sync "
      << to_string(sync) << "\n";
  out << "t_s = λ + δ' = " << shortest(t_s) << " µs, t_c = τ = " << shortest(t_c) << " µs/byte";
  if (t_c > 0) out << ", a = t_s/t_c = " << shortest(t_s / t_c);
  out << "\n\nfastest: " << best.name << ", predicted " << fixed(to_us(best.predicted))
      << " µs (Suh, Shin & An 1998 §5)\n\n";
  TextTable table({"", "algorithm", "x", "start-ups", "blocks", "predicted µs"});
  for (int x = static_cast<int>(best.times.size()) - 1; x >= 0; --x)
    if (listed(x))
      table.add_row({x == best.x ? "*" : "", name(x), std::to_string(x), std::to_string(model::torus_startups(k, x)),
                     std::to_string(model::torus_volume_blocks(k, x)),
                     fixed(to_us(best.times[static_cast<std::size_t>(x)]))});
  table.print(out);
  const auto print_crossovers = [&](const std::string& title, const model::TorusEnvelope& e) {
    out << '\n' << title << ":\n";
    if (e.crossovers.empty()) out << "  " << name(e.faces.front()) << " for every m\n";
    for (const auto& c : e.crossovers)
      out << "  " << name(c.from_x) << " -> " << name(c.to_x) << " at m = " << fixed(c.m, 3) << " bytes\n";
  };
  print_crossovers("crossovers among T1, T1.1 and T2 (the paper's Figures 6 and 7), the fastest by block size", paper);
  if (!limited) print_crossovers("crossovers of the whole family (T1.x as docs/kernels/torus.md reads it)", family);
  else if (std::vector<int> paper_sorted = paper_members; std::ranges::sort(paper_sorted), members != paper_sorted)
    print_crossovers("crossovers among the members asked for", family);
  if (!note.empty()) out << "note: " << note << '\n';
  if (reads_t1x) out << "note: " << t1x_departure(k) << '\n';
  return kExitOk;
}

int plan(const PlanOptions& options, std::ostream& out) {
  const MachineFamily machine = options.machine.build_family();
  const MachineConfig& config = machine.config;
  const Sync sync = options.machine.parsed_sync();
  if (config.topology.grid()) return plan_torus(machine, sync, options.m, options.json, out, options.algos);
  if (!options.algos.empty())
    throw UsageError("plan: --algo chooses among Suh, Shin & An's torus exchanges (--topology torus); on a cube the "
                     "plan compares every multiphase partition (plan matmul takes --algo for its candidates)");
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
  std::string inexact = model::hull_inexact_reason(config, m);
  model::ExchangeParams hull_params = model::bokhari_params(config, sync);
  if (options.direct_shuffle) {
    hull_params.direct_shuffle = true;
    if (inexact.empty() && config.rho != 0)
      inexact = "--direct-shuffle charges Direct the identity shuffle of Bokhari's analysis (2^d·m·ρ), which the "
                "emulator's Direct does not do";
  }
  const model::Hull hull = model::build_hull(hull_params);
  const SplitReport split = split_report(config, sync, m);
  const model::PartitionBounds& bounds = split.bounds;

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
    j["hull"] = {{"faces", faces},
                 {"breakpoints", hull.breakpoints},
                 {"exact", inexact.empty()},
                 {"direct_shuffle", options.direct_shuffle}};
    if (!inexact.empty()) j["hull"]["reason"] = inexact;
    j["split"] = {{"kind", split_kind(bounds.threshold)},
                  {"s_star", bounds.threshold.kind == model::SplitThreshold::Kind::split_point
                                 ? nlohmann::json(bounds.threshold.s_star)
                                 : nlohmann::json(nullptr)},
                  {"one_phase_span", finite_or_null(split.one_phase_span)},
                  {"largest_part", {bounds.largest_min, bounds.largest_max}},
                  {"phases", {bounds.phases_min, bounds.phases_max}}};
    out << json_document("plan", &machine, "plan", std::move(j)).dump(2) << '\n';
    return kExitOk;
  }

  out << "complete exchange on " << config.name << ", " << machine_shape(config) << ", m = " << m << " bytes, sync "
      << to_string(sync) << "\n\n";
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
  if (options.direct_shuffle) out << "(Direct charged the identity shuffle, as in Bokhari 1993 §2.3)\n";
  if (!inexact.empty()) out << "note: the hull is Bokhari's approximation here, not exact: " << inexact << '\n';

  out << "\nsplit threshold (Nicol & Bokhari 1994 §3, their eq. 1: every phase shuffles, Q(d) per phase):\n";
  const auto range = [](int lo, int hi) { return lo == hi ? std::to_string(lo) : std::to_string(lo) + ".." +
                                                                                 std::to_string(hi); };
  switch (bounds.threshold.kind) {
    case model::SplitThreshold::Kind::split_point:
      out << "  s* = " << fixed(bounds.threshold.s_star, 3) << " (Lemma 1): a span of more dimensions is cheaper "
          << "in two phases, of fewer in one";
      if (std::isfinite(split.one_phase_span)) out << " (ŝ = " << fixed(split.one_phase_span, 3) << " <= s*)";
      out << "\n";
      break;
    case model::SplitThreshold::Kind::direct_optimal:
      out << "  no span up to d is worth splitting (Lemma 1): Direct is optimal\n";
      break;
    case model::SplitThreshold::Kind::standard_optimal:
      out << "  every span of 2 is worth splitting (Lemma 1): Standard is optimal\n";
      break;
  }
  out << "  the optimal partition's largest part: " << range(bounds.largest_min, bounds.largest_max)
      << " (Corollary 1); its phases: " << range(bounds.phases_min, bounds.phases_max) << " (Theorem 3)\n";
  return kExitOk;
}

}  // namespace

Action add_plan_command(CLI::App& app) {
  auto options = std::make_shared<PlanOptions>();
  auto* sub = app.add_subcommand(
      "plan",
      "The optimal multiphase partition, every equipartition's predicted time, and the hull of optimality; on a "
      "torus (--topology torus) the fastest of Suh, Shin & An's T1, T1.x and T2 and their crossover block sizes");
  sub->add_option("-m,--bytes", options->m, "Block size m in bytes")->capture_default_str()->transform(size_in_bytes());
  options->machine.add_to(*sub);
  sub->add_flag("--json", options->json,
                "Print JSON: schema_version, context, and plan (optimal, equipartitions, hull, split; docs/cli.md)");
  sub->add_option("--algo", options->algos,
                  "On a torus: the exchanges to plan among, comma-separated (t1, t1.1, ..., t2; default all); "
                  "t1,t1.1,t2 are the paper's three")
      ->delimiter(',');
  sub->add_flag("--direct-shuffle", options->direct_shuffle,
                "Draw the hull as Bokhari's analysis does (1993 §2.3), the Direct exchange charged the identity "
                "shuffle 2^d·m·ρ that the emulator's Direct does not do");
  Action matmul = add_plan_matmul_command(*sub);
  return [options, sub, matmul](std::ostream& out, std::ostream& err) {
    return sub->got_subcommand("matmul") ? matmul(out, err) : plan(*options, out);
  };
}

}  // namespace hcemu::cli
