// `hcemu plan matmul`: the matrix multiplication algorithm the closed forms find fastest for a shape P × Q × R on
// this machine, with every candidate's communication, arithmetic and total time (Johnsson & Ho 1987 §5.1.1 and
// §5.2.4 compare their algorithms by exactly these formulas: Figures 11-14 and 20-26). model/matmul_planner.hpp.
#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/cli_error.hpp"
#include "cli/commands.hpp"
#include "cli/json_document.hpp"
#include "cli/machine_options.hpp"
#include "cli/text_table.hpp"
#include "common/nearest_name.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/model/matmul_planner.hpp"

namespace hcemu::cli {

namespace {

struct PlanMatmulOptions {
  MachineOptions machine;
  std::size_t m = 64;
  std::size_t P = 0, Q = 0, R = 0;
  std::vector<std::string> algos;
  std::string element;  // empty: the machine's key `element`
  bool json = false;
};

bool has_grid(const model::MatmulOptions& o) {
  return o.algorithm == model::MatmulAlgorithm::a1_2d || o.algorithm == model::MatmulAlgorithm::a1_2d_sbnt ||
         model::matmul_takes_rectangular_grid(o.algorithm);
}

// "a1-2d grid=(1,2)", "a4-2d grid=(1,5)", "a1-hybrid k=3", "a4": as `hcemu run matmul` labels the case.
std::string label(const model::MatmulOptions& o) {
  std::string text(model::matmul_algorithm_info(o.algorithm).name);
  if (has_grid(o)) text += " grid=" + partition_label({o.grid.n1, o.grid.n2});
  if (o.algorithm == model::MatmulAlgorithm::a1_hybrid) text += " k=" + std::to_string(o.k);
  return text;
}

nlohmann::json plan_json(const model::PlannedMatmul& p) {
  nlohmann::json j;
  j["algo"] = model::matmul_algorithm_info(p.options.algorithm).name;
  if (has_grid(p.options)) j["grid"] = {p.options.grid.n1, p.options.grid.n2};
  if (p.options.algorithm == model::MatmulAlgorithm::a1_hybrid) j["k"] = p.options.k;
  j["communication_us"] = to_us(p.time.communication);
  j["arithmetic_us"] = to_us(p.time.arithmetic);
  j["flops"] = p.time.flops;
  j["predicted_us"] = to_us(p.time.total());
  j["predicted_ps"] = p.time.total();
  return j;
}

int plan_matmul(const PlanMatmulOptions& options, std::ostream& out) {
  MachineFamily machine = options.machine.build_family();
  if (!options.element.empty()) {
    const auto bytes = model::parse_matmul_element(options.element);
    if (!bytes) throw UsageError("plan matmul: --element takes float or double, got '" + options.element + "'");
    machine.config.element = *bytes;
  }
  const MachineConfig& config = machine.config;
  const model::MatmulShape shape{options.P ? options.P : options.m, options.Q ? options.Q : options.m,
                                 options.R ? options.R : options.m};
  if (shape.P == 0 || shape.Q == 0 || shape.R == 0)
    throw UsageError("plan matmul: the matrices need P, Q, R >= 1 (-m sets all three, --P, --Q, --R each)");
  std::vector<model::MatmulAlgorithm> candidates;
  std::vector<std::string> names;
  for (const auto& info : model::matmul_algorithms()) names.emplace_back(info.name);
  for (const std::string& name : options.algos) {
    if (name == "all") {
      candidates.clear();
      break;
    }
    const auto a = model::parse_matmul_algorithm(name);
    if (!a) {
      const std::string hint = hcemu::detail::nearest_name(name, names);
      throw UsageError("plan matmul: no algorithm '" + name + "'" +
                       (hint.empty() ? "" : "; did you mean '" + hint + "'?") +
                       " (algorithms: " + hcemu::detail::joined(names) + ", all)");
    }
    candidates.push_back(*a);
  }
  const auto plans = model::plan_matmul(config, shape, candidates);
  if (plans.empty())
    throw UsageError(
        "plan matmul: none of the algorithms asked for has a closed form on this machine (the n-port "
        "ones need --ports all, the square-grid ones an even d)");
  const model::PlannedMatmul& best = plans.front();

  if (options.json) {
    nlohmann::json j;
    j["config"] = config.name;
    j["d"] = config.d;
    j["ports"] = config.ports.str();
    j["P"] = shape.P;
    j["Q"] = shape.Q;
    j["R"] = shape.R;
    j["element"] = model::matmul_element_name(config.element);
    j["optimal"] = plan_json(best);
    j["plans"] = nlohmann::json::array();
    for (const auto& p : plans) j["plans"].push_back(plan_json(p));
    out << json_document("plan matmul", &machine, "plan", std::move(j)).dump(2) << '\n';
    return kExitOk;
  }

  out << "matrix multiplication A <- C × D + E, P = " << shape.P << ", Q = " << shape.Q << ", R = " << shape.R
      << ", " << model::matmul_element_name(config.element) << "s, on " << config.name << ", d = " << config.d << " (" << config.nodes() << " nodes), ports "
      << config.ports.str() << "\n\n";
  out << "fastest by the closed forms: " << label(best.options) << ", predicted " << fixed(to_us(best.time.total()))
      << " µs (Johnsson & Ho 1987 §5)\n\n";
  TextTable table({"", "algorithm", "communication µs", "arithmetic µs", "predicted µs"});
  for (const auto& p : plans)
    table.add_row({&p == &best ? "*" : "", label(p.options), fixed(to_us(p.time.communication)),
                   fixed(to_us(p.time.arithmetic)), fixed(to_us(p.time.total()))});
  table.print(out);
  out << "(hcemu run matmul --algo NAME with the same shape and machine runs one; algorithms without a closed form "
         "here are left out)\n";
  return kExitOk;
}

}  // namespace

Action add_plan_matmul_command(CLI::App& plan) {
  auto options = std::make_shared<PlanMatmulOptions>();
  auto* sub = plan.add_subcommand(
      "matmul", "The fastest matrix multiplication for a shape P × Q × R on this machine, by the closed forms");
  sub->add_option("-m,--side", options->m, "The side of square matrices: P = Q = R = m unless --P, --Q, --R")
      ->capture_default_str();
  sub->add_option("--P", options->P, "Rows of C and A (default m)");
  sub->add_option("--Q", options->Q, "Columns of C, rows of D (default m)");
  sub->add_option("--R", options->R, "Columns of D and A (default m)");
  sub->add_option("--element", options->element,
                  "float (4 bytes, the paper's iPSC code) or double (8); default the machine's key `element`");
  sub->add_option("--algo", options->algos, "The candidates, comma-separated (default all)")->delimiter(',');
  options->machine.add_to(*sub);
  sub->add_flag("--json", options->json, "Print JSON: schema_version, context, and plan (optimal, plans; docs/cli.md)");
  return [options](std::ostream& out, std::ostream&) { return plan_matmul(*options, out); };
}

}  // namespace hcemu::cli
