// The all-to-all broadcasts, one row each, and the harness they run in: every node's m random bytes reach every node.
#include <string>

#include "harness/algorithm.hpp"
#include "harness/case_data.hpp"
#include "harness/verification.hpp"
#include "hcemu/kernels/allgather.hpp"
#include "hcemu/kernels/primitives.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/model/collectives.hpp"
#include "hcemu/model/lower_bounds.hpp"
#include "hcemu/model/paper_tables.hpp"
#include "hcemu/model/primitives.hpp"

namespace hcemu::harness {
// The family's rows and helpers, in a namespace of its own: the families name theirs alike (sbnt(), problem_bound).
namespace allgather_rows {
namespace {

// The least time of the problem on this machine (model/lower_bounds.hpp), whatever the algorithm.
std::optional<Time> problem_bound(const MachineConfig& config, const KernelCase& c) {
  return model::allgather_lower_bound(config, c.m);
}

// How an all-to-all broadcast runs: its kernel call on one node, with the 2^d blocks (its own filled in).
using AllgatherCall = std::function<void(Node&, std::span<std::byte> all, const KernelCase&)>;

RunFn allgather_run(AllgatherCall call) {
  return [call](const MachineConfig& config, const EmulatorSettings& settings, const KernelCase& c) {
    KernelResult result;
    const std::size_t m = c.m;
    FirstFailure failure;
    Machine machine(config, settings);
    result.report = machine.run([&](Node& node) {
      const auto n = static_cast<std::size_t>(node.size());
      const auto self = static_cast<std::size_t>(node.id());
      Buffer<std::byte> all = node.allocate<std::byte>(n * m);
      data::fill(all.span().subspan(self * m, m), c.seed, self, 0);
      call(node, all.span(), c);
      for (std::size_t s = 0; s < n; ++s) {
        const std::size_t k = data::first_mismatch(all.span().subspan(s * m, m), c.seed, s, 0);
        if (k == m) continue;
        failure.report("node " + std::to_string(self) + ": the message of node " + std::to_string(s) +
                       " differs at byte " + std::to_string(k));
        return;
      }
    });
    failure.record_into(result, machine);
    return result;
  };
}

Algorithm recursive_doubling() {
  return {
      .name = "recursive-doubling",
      .paper = "Johnsson & Ho (1987) §4.2, SBT-b(1,N): d exchanges of everything held so far",
      .ports = {},
      .params = {},
      .resolve = {},
      .cannot_run = {},
      .run = allgather_run([](Node& node, std::span<std::byte> all, const KernelCase& c) {
        kernels::recursive_doubling_allgather(node, all, c.m);
      }),
      .predict = [](const MachineConfig& config, const KernelCase& c) -> std::optional<Time> {
        return model::recursive_doubling_allgather_time(config, c.m);
      },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm completed() {
  return {
      .name = "completed",
      .paper = "Stout & Wagar (1990) §6, COMPLETE BROADCAST: BROADCAST 2 from every node at once, batched",
      .ports = {Ports::Kind::all},
      .params = {},
      .resolve = {},
      .cannot_run = {},
      .run = allgather_run([](Node& node, std::span<std::byte> all, const KernelCase& c) {
        kernels::completed_allgather(node, all, c.m);
      }),
      .predict = [](const MachineConfig& config,
                    const KernelCase& c) { return model::completed_allgather_time(config, c.m); },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm cra() {
  return {
      .name = "cra",
      .paper = "Johnsson & Ho (1987) §4.2.1, CRA(1,N): every block rotated around a Gray-code ring, N - 1 steps",
      .ports = {},
      .params = {},
      .resolve = {},
      .cannot_run = {},
      .run = allgather_run(
          [](Node& node, std::span<std::byte> all, const KernelCase& c) { kernels::cra_allgather(node, all, c.m); }),
      .predict = [](const MachineConfig& config, const KernelCase& c) -> std::optional<Time> {
        return model::cra_allgather_time(config, c.m);
      },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm rotated_cra() {
  return {
      .name = "rotated-cra",
      .paper =
          "Johnsson & Ho (1987) §4.2.1, CRA(n,N): n parts on n rotated rings; its paths share links, so neither "
          "the paper nor hcemu gives its time",
      .ports = {Ports::Kind::all},
      .params = {},
      .resolve = {},
      .cannot_run = {},
      .run = allgather_run([](Node& node, std::span<std::byte> all, const KernelCase& c) {
        kernels::rotated_cra_allgather(node, all, c.m);
      }),
      .predict = [](const MachineConfig&, const KernelCase&) -> std::optional<Time> { return std::nullopt; },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm gcea() {
  return {
      .name = "gcea",
      .paper = "Johnsson & Ho (1987) §4.2.2, GCEA(1,N): N - 1 pairwise exchanges across the Gray code's dimensions",
      .ports = {},
      .params = {},
      .resolve = {},
      .cannot_run = {},
      .run = allgather_run(
          [](Node& node, std::span<std::byte> all, const KernelCase& c) { kernels::gcea_allgather(node, all, c.m); }),
      .predict = [](const MachineConfig& config, const KernelCase& c) -> std::optional<Time> {
        return model::gcea_allgather_time(config, c.m, config.d);
      },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm rotated_gcea() {
  return {
      .name = "rotated-gcea",
      .paper = "Johnsson & Ho (1987) §4.2.2, GCEA(n,N): n parts exchanged at once across n rotated dimensions",
      .ports = {Ports::Kind::all},
      .params = {},
      .resolve = {},
      .cannot_run = {},
      .run = allgather_run([](Node& node, std::span<std::byte> all, const KernelCase& c) {
        kernels::rotated_gcea_allgather(node, all, c.m);
      }),
      .predict = [](const MachineConfig& config,
                    const KernelCase& c) { return model::rotated_gcea_allgather_time(config, c.m); },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm sbnt() {
  return {
      .name = "sbnt",
      .paper = "Johnsson & Ho (1987) §4.2.4, SBnT-b(n,N): every block down its source's spanning balanced n-tree",
      .ports = {Ports::Kind::all},
      .params = {},
      .resolve = {},
      .cannot_run = {},
      .run = allgather_run(
          [](Node& node, std::span<std::byte> all, const KernelCase& c) { kernels::sbnt_allgather(node, all, c.m); }),
      .predict = [](const MachineConfig& config,
                    const KernelCase& c) { return model::sbnt_allgather_time(config, c.m, config.d); },
      .lower_bound = problem_bound,
      .all_cases = {},
      // Table 2's perfectly balanced figure beside the exact tree's (docs/kernels/allgather.md).
      .paper_table = [](const MachineConfig& config,
                        const KernelCase& c) { return model::sbnt_balanced_table_time(config, c.m); },
  };
}

Algorithm nrsbt() {
  Algorithm row = completed();
  row.name = "nrsbt";
  row.paper =
      "Johnsson & Ho (1987) §4.2.3, nRSBT-b(n,N): n rotated binomial trees from every node; the same kernel "
      "as completed";
  row.run = allgather_run(
      [](Node& node, std::span<std::byte> all, const KernelCase& c) { kernels::nrsbt_allgather(node, all, c.m); });
  return row;
}

// ----- Johnsson & Ho (1987) Table 2: SBT-b(n,N) and the one-port tree schedules ------------------------------------

Algorithm pipelined_sbt() {
  return {
      .name = "pipelined-sbt",
      .paper =
          "Johnsson & Ho (1987) §4.2.3, SBT-b(n,N): every block down its source's binomial tree, batched per port "
          "and step on all ports; N/2 tree edges on one link keep it at half the data time",
      .ports = {Ports::Kind::all},
      .params = {},
      .resolve = {},
      .cannot_run = {},
      .run = allgather_run([](Node& node, std::span<std::byte> all, const KernelCase& c) {
        kernels::pipelined_sbt_allgather(node, all, c.m);
      }),
      .predict = [](const MachineConfig& config,
                    const KernelCase& c) { return model::pipelined_sbt_allgather_time(config, c.m); },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm sbnt_one_port() {
  return {
      .name = "sbnt-one-port",
      .paper =
          "Johnsson & Ho (1987) §4.2.3, SBnT-b(1,N): the spanning balanced n-trees on one port, two sweeps through "
          "the dimensions, one batched exchange a step",
      .ports = {},
      .params = {},
      .resolve = {},
      .cannot_run = {},
      .run = allgather_run([](Node& node, std::span<std::byte> all, const KernelCase& c) {
        kernels::sbnt_one_port_allgather(node, all, c.m);
      }),
      .predict = [](const MachineConfig& config, const KernelCase& c) -> std::optional<Time> {
        return model::sbnt_one_port_allgather_time(config, c.m);
      },
      .lower_bound = problem_bound,
      .all_cases = {},
      .paper_table = [](const MachineConfig& config,
                        const KernelCase& c) { return model::one_port_tree_allgather_table_time(config, c.m); },
  };
}

Algorithm nrsbt_one_port() {
  return {
      .name = "nrsbt-one-port",
      .paper =
          "Johnsson & Ho (1987) §4.2.3, nRSBT-b(1,N): n rotated binomial trees from every node on one port, two "
          "sweeps through the dimensions, one batched exchange a step",
      .ports = {},
      .params = {},
      .resolve = {},
      .cannot_run = {},
      .run = allgather_run([](Node& node, std::span<std::byte> all, const KernelCase& c) {
        kernels::nrsbt_one_port_allgather(node, all, c.m);
      }),
      .predict = [](const MachineConfig& config, const KernelCase& c) -> std::optional<Time> {
        return model::nrsbt_one_port_allgather_time(config, c.m);
      },
      .lower_bound = problem_bound,
      .all_cases = {},
      .paper_table = [](const MachineConfig& config,
                        const KernelCase& c) { return model::one_port_tree_allgather_table_time(config, c.m); },
  };
}

}  // namespace
}  // namespace allgather_rows

KernelFamily allgather_family() {
  using namespace allgather_rows;
  return {
      .name = "allgather",
      .summary =
          "all-to-all broadcast: recursive doubling (Johnsson & Ho 1987 §4.2), COMPLETE BROADCAST (Stout & "
          "Wagar 1990 §6), CRA, GCEA, SBnT and nRSBT (Johnsson & Ho §4.2)",
      .m_is = "bytes of each node's message",
      .default_algo = "recursive-doubling",
      .algorithms = {recursive_doubling(), completed(), cra(), rotated_cra(), gcea(), rotated_gcea(), sbnt(), nrsbt(),
                     pipelined_sbt(), sbnt_one_port(), nrsbt_one_port()},
      .resolve = {},
  };
}

}  // namespace hcemu::harness
