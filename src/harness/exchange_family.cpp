// The complete exchange's algorithms, one row each, and the harness they run in: every node sends 2^d random blocks
// of m bytes, and receives block id of every node.
#include <bit>
#include <cstring>
#include <string>

#include "harness/algorithm.hpp"
#include "harness/case_data.hpp"
#include "harness/verification.hpp"
#include "hcemu/kernels/exchange.hpp"
#include "hcemu/kernels/primitives.hpp"
#include "hcemu/kernels/torus_exchange.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/model/all_port_exchange.hpp"
#include "hcemu/model/exchange.hpp"
#include "hcemu/model/lower_bounds.hpp"
#include "hcemu/model/paper_tables.hpp"
#include "hcemu/model/planner.hpp"
#include "hcemu/model/primitives.hpp"
#include "hcemu/model/torus_exchange_cost.hpp"

namespace hcemu::harness {
// The family's rows and helpers, in a namespace of its own: the families name theirs alike (sbnt(), problem_bound).
namespace exchange_rows {
namespace {

// The least time of the problem on this machine (model/lower_bounds.hpp), whatever the algorithm: the cube's, or on a
// torus or mesh the grid's (model::grid_complete_exchange_lower_bound).
std::optional<Time> problem_bound(const MachineConfig& config, const KernelCase& c) {
  return model::complete_exchange_lower_bound(config, c.m);
}

// How an exchange algorithm runs: its kernel call on one node, with the caller's send and receive buffers.
using ExchangeCall =
    std::function<void(Node&, std::span<const std::byte> send, std::span<std::byte> recv, const KernelCase&)>;

RunFn exchange_run(ExchangeCall call) {
  return [call](const MachineConfig& config, const EmulatorSettings& settings, const KernelCase& c) {
    KernelResult result;
    const std::size_t m = c.m;
    FirstFailure failure;
    Machine machine(config, settings);
    result.report = machine.run([&](Node& node) {
      const auto n = static_cast<std::size_t>(node.size());
      const auto self = static_cast<std::uint64_t>(node.id());
      Buffer<std::byte> send = node.allocate<std::byte>(n * m);
      Buffer<std::byte> recv = node.allocate<std::byte>(n * m);
      for (std::size_t t = 0; t < n; ++t) data::fill(send.span().subspan(t * m, m), c.seed, self, t);
      call(node, send.span(), recv.span(), c);
      for (std::size_t s = 0; s < n; ++s) {
        const std::size_t k = data::first_mismatch(recv.span().subspan(s * m, m), c.seed, s, self);
        if (k == m) continue;
        failure.report("node " + std::to_string(self) + ": block from node " + std::to_string(s) + " differs at byte " +
                       std::to_string(k));
        return;
      }
    });
    failure.record_into(result, machine);
    return result;
  };
}

// A function, not a constant: the registry may be read during static initialisation.
ParamSpec partition_param() {
  return {"partition", "", ParamKind::partition,
          "the subcube dimension of each phase, d_1 + ... + d_k = d, the first phase spanning the "
          "highest bits (Bokhari 1993 §2.3)"};
}

// The same parameter where the algorithm fixes it (Direct, Standard) or the planner chooses it (auto).
ParamSpec chosen_partition(std::string_view doc) {
  ParamSpec p = partition_param();
  p.doc = doc;
  p.chosen = true;
  return p;
}

// A case of an algorithm whose partition is a function of d.
std::function<KernelCase(const MachineConfig&, KernelCase)> with_partition(model::Partition (*of)(int d)) {
  return [of](const MachineConfig& config, KernelCase c) {
    c.params.set("partition", of(config.d));
    return c;
  };
}

// Every multiphase schedule runs the same kernel and has the same closed form (Bokhari 1993 eq. 2).
void run_partition(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, const KernelCase& c) {
  kernels::multiphase_exchange(node, send, recv, c.m, c.params.parts("partition"), {c.sync});
}

std::optional<Time> partition_time(const MachineConfig& config, const KernelCase& c) {
  return model::multiphase_exchange_time(config, c.params.parts("partition"), c.m, c.sync);
}

// Why a schedule made for the hypercube's e-cube routes is not run on a torus or mesh, or empty on a cube.
std::string needs_cube(const MachineConfig& config) {
  if (!config.topology.grid()) return {};
  return "made for the hypercube (its partners differ in bits of the node id, contention-free only under e-cube "
         "routes), and this machine is a " +
         config.topology.str() + "; on a torus run t1, t2 or t1.x, or direct as the baseline that ignores the topology";
}

// Direct's closed form, on a cube only: on a torus or mesh its XOR partners share links under dimension-ordered
// routes, and the contention has no closed form (the run counts it).
std::optional<Time> direct_time(const MachineConfig& config, const KernelCase& c) {
  if (config.topology.grid()) return std::nullopt;
  return partition_time(config, c);
}

Algorithm direct() {
  return {
      .name = "direct",
      .paper = "Bokhari (1993) §2.2: 2^d - 1 steps, partner id ^ j (the XOR schedule)",
      .ports = {},
      .params = {chosen_partition("(d): one phase")},
      .resolve = with_partition(model::direct_partition),
      .cannot_run = {},
      .run = exchange_run([](Node& node, std::span<const std::byte> send, std::span<std::byte> recv,
                             const KernelCase& c) { kernels::direct_exchange(node, send, recv, c.m, {c.sync}); }),
      // On a torus it is the baseline that ignores the topology (Suh, Shin & An §5 compare against the topology's
      // own schedules): it runs, its contention counted, without a prediction.
      .predict = direct_time,
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm standard() {
  return {
      .name = "standard",
      .paper = "Bokhari (1993) §2.1, after Johnsson & Ho: d steps, one per dimension, each followed by a shuffle",
      .ports = {},
      .params = {chosen_partition("(1, ..., 1): one phase per dimension")},
      .resolve = with_partition(model::standard_partition),
      .cannot_run = needs_cube,
      .run = exchange_run([](Node& node, std::span<const std::byte> send, std::span<std::byte> recv,
                             const KernelCase& c) { kernels::standard_exchange(node, send, recv, c.m, {c.sync}); }),
      .predict = partition_time,
      .lower_bound = problem_bound,
      // Below d = 2 the Standard exchange is the Direct one.
      .all_cases =
          [](const MachineConfig& config, const KernelCase& base) {
            return config.d >= 2 ? std::vector<KernelCase>{base} : std::vector<KernelCase>{};
          },
  };
}

Algorithm multiphase() {
  return {
      .name = "multiphase",
      .paper =
          "Bokhari (1993) §2.3; Nicol & Bokhari (1994) §2.4: a Direct exchange in the subcubes of each phase, "
          "then a shuffle",
      .ports = {},
      .params = {partition_param()},
      .resolve =
          [](const MachineConfig& config, KernelCase c) {
            model::check_partition(config.d, c.params.parts("partition"));
            return c;
          },
      .cannot_run = needs_cube,
      .run = exchange_run(run_partition),
      .predict = partition_time,
      .lower_bound = problem_bound,
      // Every equipartition E(d, n) (Bokhari 1993 eq. 3) strictly between Direct (n = 1) and Standard (n = d).
      .all_cases =
          [](const MachineConfig& config, const KernelCase& base) {
            std::vector<KernelCase> cases;
            for (int n = 2; n < config.d; ++n) {
              KernelCase c = base;
              c.params.set("partition", model::equipartition(config.d, n));
              cases.push_back(std::move(c));
            }
            return cases;
          },
  };
}

Algorithm planned() {
  return {
      .name = "auto",
      .paper =
          "Nicol & Bokhari (1994) §3; Bokhari (1993) §4-5: the multiphase exchange with the partition the "
          "planner finds fastest for this machine, m and sync",
      .ports = {},
      .params = {chosen_partition("chosen by the planner (model::optimal_partition)")},
      .resolve =
          [](const MachineConfig& config, KernelCase c) {
            if (c.params.parts("partition").empty())
              c.params.set("partition", model::optimal_partition(config, c.m, c.sync).partition);
            return c;
          },
      .cannot_run = needs_cube,
      .run = exchange_run(run_partition),
      .predict = partition_time,
      .lower_bound = problem_bound,
      // One of the others: `--algo all` marks the fastest of them instead.
      .all_cases = [](const MachineConfig&, const KernelCase&) { return std::vector<KernelCase>{}; },
  };
}

Algorithm all_port() {
  return {
      .name = "all-port",
      .paper = "Stout & Wagar (1990) §6, COMPLETE EXCHANGE: 2^(d-1)·τm + dλ on link-bound cubes",
      .ports = {Ports::Kind::all},
      .params = {},
      .resolve = {},
      .cannot_run = needs_cube,
      .run = exchange_run([](Node& node, std::span<const std::byte> send, std::span<std::byte> recv,
                             const KernelCase& c) { kernels::all_port_exchange(node, send, recv, c.m, {c.sync}); }),
      .predict = [](const MachineConfig& config,
                    const KernelCase& c) { return model::all_port_exchange_time(config, c.m); },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm sbnt() {
  return {
      .name = "sbnt",
      .paper = "Johnsson & Ho (1987) §4.4, SBnT-p(n,N): every block down its source's spanning balanced n-tree",
      .ports = {Ports::Kind::all},
      .params = {},
      .resolve = {},
      .cannot_run = needs_cube,
      .run = exchange_run([](Node& node, std::span<const std::byte> send, std::span<std::byte> recv,
                             const KernelCase& c) { kernels::sbnt_exchange(node, send, recv, c.m); }),
      .predict = [](const MachineConfig& config,
                    const KernelCase& c) { return model::sbnt_exchange_time(config, c.m); },
      .lower_bound = problem_bound,
      .all_cases = {},
      // Table 4's perfectly balanced figure beside the exact tree's (docs/kernels/allgather.md).
      .paper_table = [](const MachineConfig& config,
                        const KernelCase& c) { return model::sbnt_exchange_table_time(config, c.m); },
  };
}

Algorithm nrsbt() {
  return {
      .name = "nrsbt",
      .paper =
          "Johnsson & Ho (1987) §4.4, nRSBT-p(n,N): n parts of every block, part k by the standard exchange in the "
          "dimension order k, k+1, ..., k-1, all n ports at once",
      .ports = {Ports::Kind::all},
      .params = {},
      .resolve = {},
      .cannot_run = needs_cube,
      .run = exchange_run([](Node& node, std::span<const std::byte> send, std::span<std::byte> recv,
                             const KernelCase& c) { kernels::nrsbt_exchange(node, send, recv, c.m); }),
      .predict = [](const MachineConfig& config,
                    const KernelCase& c) { return model::nrsbt_exchange_time(config, c.m); },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

// ----- Suh, Shin & An's exchanges on the 2^k x 2^k torus (kernels/torus_exchange.hpp, docs/kernels/torus.md) -----

// T1's x on the largest square torus the engines run, 2^(max_dimension/2) on a side: the rows t1.x go up to one less
// (strictly between T1 and T2 somewhere); t1 is the rest.
int most_torus_x() { return std::max(0, max_dimension() / 2 - 3); }

// k of the machine's 2^k x 2^k torus, or -1 when it is not a square torus.
int torus_side_exponent(const MachineConfig& config) {
  if (config.topology.kind != Topology::Kind::torus) return -1;
  const auto [rows, cols] = config.topology.sides(config.d);
  return rows == cols ? std::countr_zero(static_cast<unsigned>(rows)) : -1;
}

std::string needs_square_torus(const MachineConfig& config) {
  if (torus_side_exponent(config) >= 0) return {};
  if (config.topology.kind == Topology::Kind::torus) {
    const auto [rows, cols] = config.topology.sides(config.d);
    return "made for a square 2^k x 2^k torus, and this one is " + std::to_string(rows) + " x " + std::to_string(cols);
  }
  return "made for a 2^k x 2^k torus (--topology torus -d 2k), and this machine is a " + config.topology.str();
}

// A member of the family: its x (0 = T2, 1 = T1.1, k - 3 = T1) as a function of k, why it cannot run on a square
// torus of that k (empty: it can), the cases `--algo all` runs, and its parameter x when it reports the one it chose.
Algorithm torus_member(std::string name, std::string paper, std::function<int(int)> x_of,
                       std::function<std::string(int k)> cannot, CasesFn all_cases, std::vector<ParamSpec> params) {
  auto x_at = [x_of](const MachineConfig& config) { return x_of(torus_side_exponent(config)); };
  const bool has_x = !params.empty();
  return {
      .name = name,
      .paper = paper,
      .ports = {},
      .params = std::move(params),
      .resolve =
          [x_at, has_x](const MachineConfig& config, KernelCase c) {
            if (has_x) c.params.set("x", static_cast<std::uint64_t>(x_at(config)));
            return c;
          },
      .cannot_run =
          [cannot](const MachineConfig& config) {
            if (std::string why = needs_square_torus(config); !why.empty()) return why;
            return cannot ? cannot(torus_side_exponent(config)) : std::string();
          },
      .run =
          [x_at](const MachineConfig& config, const EmulatorSettings& settings, const KernelCase& c) {
            const int k = torus_side_exponent(config);
            const int x = x_at(config);
            return exchange_run(
                [k, x](Node& node, std::span<const std::byte> send, std::span<std::byte> recv, const KernelCase& kc) {
                  kernels::torus_t1x_exchange(node, send, recv, kc.m, x, model::TorusShape::square(k), {kc.sync});
                })(config, settings, c);
          },
      .predict = [x_at](const MachineConfig& config, const KernelCase& c) -> std::optional<Time> {
        return model::torus_exchange_time(config, torus_side_exponent(config), x_at(config), c.m, c.sync);
      },
      .lower_bound = problem_bound,
      .all_cases = std::move(all_cases),
  };
}

// The base case when `keep(k)` holds on this square torus, else none.
CasesFn torus_cases_when(std::function<bool(int k)> keep) {
  return [keep](const MachineConfig& config, const KernelCase& base) {
    return keep(torus_side_exponent(config)) ? std::vector<KernelCase>{base} : std::vector<KernelCase>{};
  };
}

Algorithm torus_t1() {
  return torus_member(
      "t1",
      "Suh, Shin & An (1998) §3.1, after Suh & Yalamanchili: 3k - 3 start-ups on a 2^k x 2^k torus (T2 for k <= 3)",
      [](int k) { return model::torus_max_x(k); }, {},
      // For k <= 3 T1 is T2: `--algo all` runs it once, as t2.
      torus_cases_when([](int k) { return k >= 4; }),
      {ParamSpec{"x", "x", ParamKind::count,
                 "k - 3 (0 for k <= 3): T1 as the member of the T1.x family with that many concentration phases", false,
                 true}});
}

Algorithm torus_t2() {
  return torus_member("t2", "Suh, Shin & An (1998) §3.2: every node active, 3·2^(k-2) steps on a 2^k x 2^k torus",
                      [](int) { return 0; }, {}, {}, {});
}

// T1.x for one x >= 1: the row "t1.x". `--algo all` runs it where it lies strictly between T1 and T2 (x <= k - 4).
Algorithm torus_t1x(int x) {
  const std::string name = "t1." + std::to_string(x);
  const std::string paper =
      x == 1 ? "Suh, Shin & An (1998) §4.1: T1.1, 3·2^(k-3) + 3 steps on a 2^k x 2^k torus (k >= 4)"
             : "Suh, Shin & An (1998) §4.2 as docs/kernels/torus.md reads it: T1." + std::to_string(x) + ", " +
                   std::to_string(3 * x) + " + 3·2^(k-" + std::to_string(2 + x) + ") steps (k >= " +
                   std::to_string(x + 3) + ")";
  return torus_member(
      name, paper, [x](int) { return x; },
      [x](int k) {
        return k >= x + 3 ? std::string()
                          : "needs a 2^k x 2^k torus with k >= " + std::to_string(x + 3) + " (-d " +
                                std::to_string(x + 3) + " or more), and this one has k = " + std::to_string(k);
      },
      torus_cases_when([x](int k) { return x <= k - 4; }), {});
}

}  // namespace
}  // namespace exchange_rows

KernelFamily exchange_family() {
  using namespace exchange_rows;
  return {
      .name = "exchange",
      .summary =
          "complete exchange: Direct, Standard and Multiphase (Bokhari 1993; Nicol & Bokhari 1994), all-port "
          "(Stout & Wagar 1990 §6), SBnT-p (Johnsson & Ho 1987 §4.4); on a 2^k x 2^k torus T1, T1.x and T2 (Suh, "
          "Shin & An 1998)",
      .m_is = "bytes per block",
      .default_algo = "auto",
      .algorithms =
          [] {
            std::vector<Algorithm> rows = {direct(), standard(), multiphase(), planned(), all_port(), sbnt(), nrsbt(), torus_t1()};
            // From T1 to T2, the members in order of fewer start-ups and more bytes (x from k - 3 down to 0).
            for (int x = most_torus_x() - 1; x >= 1; --x) rows.push_back(torus_t1x(x));
            rows.push_back(torus_t2());
            return rows;
          }(),
      .resolve = {},
  };
}

}  // namespace hcemu::harness
