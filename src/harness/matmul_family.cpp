// The matrix multiplications A <- C × D + E of Johnsson & Ho (1987) §5, one row per model::MatmulAlgorithm, and the
// harness they run in: C (P × Q), D (Q × R) and E (P × R) hold random doubles in [-1, 1), every node gets its blocks
// as model/matmul.hpp lays them out, and the product gathered back is compared with kernels::serial_matmul.
//
// KernelCase::m is the side of square matrices: P = Q = R = m unless the row parameters P, Q or R say otherwise, so
// that `sweep matmul -m ...` sweeps the size of the problem.
#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "harness/algorithm.hpp"
#include "harness/case_data.hpp"
#include "harness/verification.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/kernels/matmul.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/model/matmul.hpp"
#include "hcemu/model/matmul_planner.hpp"
#include "hcemu/model/paper_tables.hpp"

namespace hcemu::harness {
// The family's rows and helpers, in a namespace of its own: the families name theirs alike (sbnt(), problem_bound).
namespace matmul_rows {
namespace {

using model::MatmulAlgorithm;
using A = MatmulAlgorithm;

model::MatmulShape shape_of(const KernelCase& c) {
  const auto side = [&](std::string_view name) {
    const std::uint64_t v = c.params.number(name);
    return static_cast<std::size_t>(v != 0 ? v : c.m);
  };
  return {side("P"), side("Q"), side("R")};
}

// --element, else the machine's `element` key.
std::size_t element_of(const MachineConfig& config, const KernelCase& c) {
  const std::string& name = c.params.text("element");
  if (name.empty()) return config.element;
  if (const auto bytes = model::parse_matmul_element(name)) return *bytes;
  throw UsageError("matmul: --element takes float or double, got '" + name + "'");
}

model::MatmulOptions options_of(MatmulAlgorithm algorithm, const MachineConfig& config, const KernelCase& c) {
  model::MatmulOptions o;
  o.algorithm = algorithm;
  o.element_bytes = element_of(config, c);
  const auto& grid = c.params.parts("grid");
  if (grid.size() == 2) o.grid = {grid[0], grid[1]};
  o.k = static_cast<int>(c.params.number("k"));
  o.packets = static_cast<int>(c.params.number("packets"));
  if (const std::uint64_t products = c.params.number("products"); products > 0) o.products = static_cast<int>(products);
  return o;
}

// Element `index` of matrix `which` (0: C, 1: D, 2: E): a double in [-1, 1), a pure function of the seed.
std::vector<double> random_matrix(std::uint64_t seed, std::uint64_t which, std::size_t count) {
  std::vector<double> out(count);
  for (std::size_t k = 0; k < count; ++k) {
    const std::uint64_t word = data::splitmix64(seed ^ data::splitmix64((which << 32) ^ data::splitmix64(k)));
    out[k] = static_cast<double>(word >> 11) * 0x1.0p-52 - 1.0;
  }
  return out;
}

RunFn matmul_run(MatmulAlgorithm algorithm) {
  return [algorithm](const MachineConfig& config, const EmulatorSettings& settings, const KernelCase& c) {
    KernelResult result;
    const model::MatmulShape shape = shape_of(c);
    const model::MatmulOptions options = options_of(algorithm, config, c);
    // Product m of K (the outer product's --products) multiplies matrices of its own: C, D, E are 3m, 3m + 1, 3m + 2.
    const auto K = static_cast<std::size_t>(options.products);
    std::vector<std::vector<double>> C(K), D(K), E(K);
    for (std::size_t m = 0; m < K; ++m) {
      C[m] = random_matrix(c.seed, 3 * m, shape.P * shape.Q);
      D[m] = random_matrix(c.seed, 3 * m + 1, shape.Q * shape.R);
      E[m] = random_matrix(c.seed, 3 * m + 2, shape.P * shape.R);
    }
    const model::Grid grid = model::matmul_grid(options, config.d);
    const auto nodes = static_cast<std::size_t>(config.nodes());
    std::vector<std::vector<std::vector<double>>> blocks_a(K, std::vector<std::vector<double>>(nodes));
    Machine machine(config, settings);
    result.report = machine.run([&](Node& node) {
      const auto x = static_cast<std::size_t>(node.id());
      std::vector<std::vector<double>> held;  // C, D and E of every product
      std::vector<kernels::MatmulBlocks> blocks;
      for (std::size_t m = 0; m < K; ++m) {
        held.push_back(kernels::extract_block(C[m], shape.P, shape.Q, grid, node.id()));
        held.push_back(kernels::extract_block(D[m], shape.Q, shape.R, grid, node.id()));
        held.push_back(kernels::extract_block(E[m], shape.P, shape.R, grid, node.id()));
        blocks_a[m][x].assign(held.back().size(), 0.0);
      }
      for (std::size_t m = 0; m < K; ++m)
        blocks.push_back({held[3 * m], held[3 * m + 1], held[3 * m + 2], blocks_a[m][x]});
      if (K == 1)
        kernels::matmul(node, shape, options, blocks.front());
      else
        kernels::pipelined_outer_products(node, shape, options, blocks);
    });
    // The algorithms sum the Q products of an element in orders of their own: each order's rounding error is below
    // Q·ε·Σ|c·d| + ε|e| <= (Q + 1)²ε with every element in [-1, 1). In floats ε is float's, and rounding C, D and E
    // to floats adds at most (Q + 1)ε more.
    const double q = static_cast<double>(shape.Q) + 1;
    const double tolerance = 2 * q * q * (options.element_bytes == 4 ? double{FLT_EPSILON} : DBL_EPSILON);
    FirstFailure failure;
    for (std::size_t m = 0; m < K; ++m) {
      // Spread over MPI ranks, this process holds only its own nodes' blocks: it checks the elements they cover.
      std::vector<double> a(shape.P * shape.R, 0.0), covered(shape.P * shape.R, 0.0);
      for (std::size_t x = 0; x < nodes; ++x) {
        if (blocks_a[m][x].empty()) continue;  // another rank's node
        kernels::place_block(blocks_a[m][x], a, shape.P, shape.R, grid, static_cast<int>(x));
        kernels::place_block(std::vector<double>(blocks_a[m][x].size(), 1.0), covered, shape.P, shape.R, grid,
                             static_cast<int>(x));
      }
      const std::vector<double> want = kernels::serial_matmul(shape, C[m], D[m], E[m]);
      for (std::size_t k = 0; k < a.size(); ++k) {
        if (covered[k] == 0 || std::abs(a[k] - want[k]) <= tolerance) continue;
        failure.report("element (" + std::to_string(k % shape.P) + ", " + std::to_string(k / shape.P) + ") of A" +
                       (K > 1 ? " of product " + std::to_string(m) : std::string()) + " is " + std::to_string(a[k]) +
                       ", the serial product's " + std::to_string(want[k]));
        break;
      }
    }
    failure.record_into(result, machine);
    return result;
  };
}

TimeFn matmul_predict(MatmulAlgorithm algorithm) {
  return [algorithm](const MachineConfig& config, const KernelCase& c) -> std::optional<Time> {
    const auto t = model::matmul_time(config, shape_of(c), options_of(algorithm, config, c));
    return t ? std::optional<Time>(t->total()) : std::nullopt;
  };
}

// A function, not a constant: the registry may be read during static initialisation.
ParamSpec p_param() {
  return {"P", "P", ParamKind::count, "rows of C and A (Johnsson & Ho 1987 §5); 0 = m"};
}
ParamSpec q_param() {
  return {"Q", "Q", ParamKind::count, "columns of C, rows of D (Johnsson & Ho 1987 §5); 0 = m"};
}
ParamSpec r_param() {
  return {"R", "R", ParamKind::count, "columns of D and A (Johnsson & Ho 1987 §5); 0 = m"};
}

bool is_a1_2d(A a) { return a == A::a1_2d || a == A::a1_2d_sbnt; }
bool takes_grid(A a) { return is_a1_2d(a) || model::matmul_takes_rectangular_grid(a); }
bool has_packets(A a) { return a == A::a2_2d_sbnt || a == A::a3_2d_sbnt || a == A::a4_2d_sbnt || a == A::a5_2d_sbnt; }

ParamSpec element_param() {
  return {"element", "", ParamKind::text,
          "the element the nodes hold, multiply and send: float (4 bytes, the iPSC code of Johnsson & Ho 1987 §5.1) "
          "or double (8); default the machine's key `element`",
          false, false};
}

std::vector<ParamSpec> params_of(A a) {
  std::vector<ParamSpec> params = {p_param(), q_param(), r_param()};
  if (takes_grid(a))
    params.push_back({"grid", "", ParamKind::partition,
                      "the processor grid n1,n2: 2^n1 rows × 2^n2 columns, n1 + n2 = d (Johnsson & Ho 1987 §5.2; "
                      "on n1 != n2 A2-A5, A3 version 2, §5.2.2-5.2.3, and Cannon's need P, Q, R multiples of "
                      "max(N1, N2), Dekel's and the aligned SBT Q a multiple of it, §5.2.1); default the grid the "
                      "model finds fastest"});
  if (a == A::a1_hybrid)
    params.push_back({"k", "k", ParamKind::count,
                      "SBT steps before the GCEA ones, 1..d (Johnsson & Ho 1987 §5.1, Figure 10); 0 = the k the "
                      "model finds fastest (k = 0, the GCEA alone, is a1-gcea)"});
  if (a == A::outer_product)
    params.push_back({"products", "K", ParamKind::count,
                      "K matrix multiplications of the shape pipelined one after another through the same wave fronts, "
                      "each checked against the serial product (Johnsson & Ho 1987 §5.2.1: (K+1)√N + 1 steps); "
                      "0 = 1"});
  if (has_packets(a))
    params.push_back({"packets", "packets", ParamKind::count,
                      "packets per link of the all-port transposes (Stout & Wagar 1990 §4); 0 = the model's best"});
  params.push_back(element_param());
  return params;
}

// The case as it runs: the shape checked, the grid or k the model finds fastest when none is given.
std::function<KernelCase(const MachineConfig&, KernelCase)> matmul_resolve(A a) {
  return [a](const MachineConfig& config, KernelCase c) {
    const std::string name(model::matmul_algorithm_info(a).name);
    const model::MatmulShape shape = shape_of(c);
    if (shape.P == 0 || shape.Q == 0 || shape.R == 0)
      throw UsageError("matmul " + name + ": the matrices need P, Q, R >= 1 (-m sets all three, --P, --Q, --R each), " +
                       "got P = " + std::to_string(shape.P) + ", Q = " + std::to_string(shape.Q) +
                       ", R = " + std::to_string(shape.R));
    c.params.set("element", std::string(model::matmul_element_name(element_of(config, c))));
    MachineConfig machine = config;  // the planner reads the element from the machine
    machine.element = element_of(config, c);
    if (model::matmul_takes_rectangular_grid(a)) {
      const auto& grid = c.params.parts("grid");
      if (grid.empty()) {
        const std::array candidates{a};
        const auto plans = model::plan_matmul(machine, shape, candidates);
        if (plans.empty())
          throw UsageError("matmul " + name + ": no grid of the " + std::to_string(config.d) +
                           "-cube takes this shape: the square one needs an even d, a rectangular one " +
                           std::string(model::matmul_rectangular_condition(a)));
        c.params.set("grid", std::vector<int>{plans.front().options.grid.n1, plans.front().options.grid.n2});
      } else if (grid.size() != 2) {
        throw UsageError("matmul " + name + ": --grid takes two numbers n1,n2 (2^n1 processor rows, 2^n2 columns, " +
                         "n1 + n2 = d = " + std::to_string(config.d) + ")");
      }
    }
    if (is_a1_2d(a)) {
      const auto& grid = c.params.parts("grid");
      if (grid.empty()) {
        const std::array candidates{a};
        model::Grid best{config.d / 2, config.d - config.d / 2};
        MachineConfig planning = machine;
        planning.ports = Ports::parse("all");  // the grid with the least time, also where a1-2d-sbnt has no form
        if (const auto plans = model::plan_matmul(a == A::a1_2d ? machine : planning, shape, candidates); !plans.empty())
          best = plans.front().options.grid;
        c.params.set("grid", std::vector<int>{best.n1, best.n2});
      } else if (grid.size() != 2) {
        throw UsageError("matmul " + name + ": --grid takes two numbers n1,n2 (2^n1 processor rows, 2^n2 columns, " +
                         "n1 + n2 = d = " + std::to_string(config.d) + ")");
      }
    }
    if (a == A::a1_hybrid && c.params.number("k") == 0) {
      const std::array candidates{a};
      const auto plans = model::plan_matmul(machine, shape, candidates);
      // k = 0 is the GCEA alone: the best of k = 1..d.
      int best = config.d;
      for (const auto& p : plans)
        if (p.options.k > 0) {
          best = p.options.k;
          break;
        }
      c.params.set("k", static_cast<std::uint64_t>(best));
    }
    model::check_matmul(shape, options_of(a, config, c), config.d);
    return c;
  };
}

std::function<std::string(const MachineConfig&)> matmul_cannot_run(A a) {
  const bool square = model::matmul_algorithm_info(a).two_dimensional && !takes_grid(a);
  if (!square) return {};
  return [](const MachineConfig& config) -> std::string {
    return config.d % 2 == 0 ? "" : "needs a square processor grid, an even d";
  };
}

// `--algo all`: the one-port A2-A5, A3 version 2, Cannon's, Dekel's and the aligned SBT run where some grid takes the shape (the square one
// on an even d, a rectangular one that fits it, model::matmul_fits_grid); the others run their one case.
std::function<std::vector<KernelCase>(const MachineConfig&, const KernelCase&)> matmul_all_cases(A a) {
  if (!model::matmul_takes_rectangular_grid(a)) return {};
  return [a](const MachineConfig& config, const KernelCase& c) -> std::vector<KernelCase> {
    if (config.d % 2 == 0 || !c.params.parts("grid").empty()) return {c};
    const std::array candidates{a};
    MachineConfig machine = config;
    machine.element = element_of(config, c);
    if (model::plan_matmul(machine, shape_of(c), candidates).empty()) return {};
    return {c};
  };
}

// Table 11's figures beside the exact time (model/paper_tables.hpp): A1(n), which takes its row and column broadcasts
// as balanced and independent, and A2(n)-A5(n), priced with the pipelined transpose of the paper's ref. [10] at its
// optimal packet where hcemu runs Stout & Wagar's; and the outer product's SIMD step count (§5.2.1). The other rows'
// tables agree with their closed forms or describe other algorithms.
TimeFn matmul_paper_table(A a) {
  if (a == A::outer_product)  // §5.2.1's 2√N + 1 steps, beside the MIMD chain's exact time
    return [a](const MachineConfig& config, const KernelCase& c) {
      return model::outer_product_step_time(config, shape_of(c), options_of(a, config, c));
    };
  if (a == A::a1_2d_sbnt)
    return [a](const MachineConfig& config, const KernelCase& c) {
      return model::a1_n_port_table_time(config, shape_of(c), options_of(a, config, c));
    };
  if (has_packets(a))
    return [a](const MachineConfig& config, const KernelCase& c) {
      return model::transposed_n_port_table_time(config, shape_of(c), options_of(a, config, c));
    };
  return {};
}

// "Johnsson & Ho (1987), A1^l(1), CRA(1,N)[C]: §5.1, Tables 5-7": the paper named, for the docs' table.
std::string paper_of(std::size_t row) {
  return "Johnsson & Ho (1987), " + std::string(model::matmul_algorithms()[row].source);
}

Algorithm matmul_row(std::size_t row) {
  const model::MatmulAlgorithmInfo& info = model::matmul_algorithms()[row];
  const A a = info.algorithm;
  const bool n_port = info.ports == "all";
  return {
      .name = std::string(info.name),
      .paper = paper_of(row),
      .ports = n_port ? std::vector<Ports::Kind>{Ports::Kind::all} : std::vector<Ports::Kind>{},
      .params = params_of(a),
      .resolve = matmul_resolve(a),
      .cannot_run = matmul_cannot_run(a),
      .run = matmul_run(a),
      .predict = matmul_predict(a),
      .lower_bound = {},
      .all_cases = matmul_all_cases(a),
      .paper_table = matmul_paper_table(a),
  };
}

}  // namespace
}  // namespace matmul_rows

KernelFamily matmul_family() {
  using namespace matmul_rows;
  std::vector<Algorithm> rows;
  for (std::size_t row = 0; row < model::matmul_algorithms().size(); ++row) rows.push_back(matmul_row(row));
  return {
      .name = "matmul",
      .summary =
          "matrix multiplication A <- C × D + E on doubles or floats, by columns and on a processor grid (Johnsson & Ho "
          "1987 §5)",
      .m_is = "the side of the matrices, P = Q = R = m unless --P, --Q, --R",
      .default_algo = "a1-sbt",
      .algorithms = std::move(rows),
      .resolve = {},
  };
}

}  // namespace hcemu::harness
