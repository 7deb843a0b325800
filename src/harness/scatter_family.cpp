// Scatter and gather (Stout & Wagar 1990 §5 DISTRIBUTE and COLLECT; Johnsson & Ho 1987 §4.3 one-to-all personalized
// communication), one row per algorithm, and the harness they run in. KernelCase::m is the bytes of one block and the
// case's root (--root) is the scattering or gathering node. Scatter: the root holds 2^d random blocks, block t for
// node t, and every node must end with its own. Gather: every node holds its random block, and the root must end with
// all of them in order.
#include <string>

#include "harness/algorithm.hpp"
#include "harness/case_data.hpp"
#include "harness/verification.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/kernels/scatter.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/model/lower_bounds.hpp"
#include "hcemu/model/paper_tables.hpp"
#include "hcemu/model/scatter.hpp"

namespace hcemu::harness {
// The family's rows and helpers, in a namespace of its own: the families name theirs alike (sbnt(), problem_bound).
namespace scatter_rows {
namespace {

using Collective = std::function<void(Node&, std::span<const std::byte> in, std::span<std::byte> out, int root)>;

// Block t of the root's 2^d blocks (scatter) or node t's block (gather): data::fill(seed, root, t) either way.
RunFn scatter_run(Collective call) {
  return [call](const MachineConfig& config, const EmulatorSettings& settings, const KernelCase& c) {
    KernelResult result;
    const auto root = static_cast<std::uint64_t>(c.root);
    FirstFailure failure;
    Machine machine(config, settings);
    result.report = machine.run([&](Node& node) {
      const auto self = static_cast<std::uint64_t>(node.id());
      Buffer<std::byte> blocks = node.allocate<std::byte>(self == root ? c.m * node.size() : 0);
      if (self == root)
        for (int t = 0; t < node.size(); ++t)
          data::fill(blocks.span().subspan(static_cast<std::size_t>(t) * c.m, c.m), c.seed, root,
                     static_cast<std::uint64_t>(t));
      Buffer<std::byte> block = node.allocate<std::byte>(c.m);
      call(node, blocks.span(), block.span(), c.root);
      const std::size_t k = data::first_mismatch(block.span(), c.seed, root, self);
      if (k != c.m)
        failure.report("node " + std::to_string(self) + ": its block differs from the root's block for it at byte " +
                       std::to_string(k));
    });
    failure.record_into(result, machine);
    return result;
  };
}

RunFn gather_run(Collective call) {
  return [call](const MachineConfig& config, const EmulatorSettings& settings, const KernelCase& c) {
    KernelResult result;
    const auto root = static_cast<std::uint64_t>(c.root);
    FirstFailure failure;
    Machine machine(config, settings);
    result.report = machine.run([&](Node& node) {
      const auto self = static_cast<std::uint64_t>(node.id());
      Buffer<std::byte> block = node.allocate<std::byte>(c.m);
      data::fill(block.span(), c.seed, root, self);
      Buffer<std::byte> blocks = node.allocate<std::byte>(self == root ? c.m * node.size() : 0);
      call(node, block.span(), blocks.span(), c.root);
      if (self != root) return;
      for (int t = 0; t < node.size(); ++t) {
        const auto mine = blocks.span().subspan(static_cast<std::size_t>(t) * c.m, c.m);
        const std::size_t k = data::first_mismatch(mine, c.seed, root, static_cast<std::uint64_t>(t));
        if (k == c.m) continue;
        failure.report("root " + std::to_string(root) + ": block " + std::to_string(t) + " differs from node " +
                       std::to_string(t) + "'s at byte " + std::to_string(k));
        return;
      }
    });
    failure.record_into(result, machine);
    return result;
  };
}

std::optional<Time> scatter_bound(const MachineConfig& config, const KernelCase& c) {
  return model::scatter_lower_bound(config, c.m);
}
std::optional<Time> gather_bound(const MachineConfig& config, const KernelCase& c) {
  return model::gather_lower_bound(config, c.m);
}

Algorithm row(std::string name, std::string paper, std::vector<Ports::Kind> ports, RunFn run, TimeFn predict,
              TimeFn bound) {
  return {
      .name = name,
      .paper = paper,
      .ports = std::move(ports),
      .params = {},
      .resolve = {},
      .cannot_run = {},
      .run = std::move(run),
      .predict = std::move(predict),
      .lower_bound = std::move(bound),
      .all_cases = {},
  };
}

// The row with the figure its paper's table prints for it (Algorithm::paper_table).
Algorithm with_paper_table(Algorithm algorithm, TimeFn table) {
  algorithm.paper_table = std::move(table);
  return algorithm;
}

KernelCase checked_root(const MachineConfig& config, std::string_view family, KernelCase c) {
  if (c.root < 0 || c.root >= config.nodes())
    throw UsageError(std::string(family) + ": root " + std::to_string(c.root) + " does not exist in a " +
                     std::to_string(config.nodes()) + "-node machine");
  return c;
}

}  // namespace
}  // namespace scatter_rows

KernelFamily scatter_family() {
  using namespace scatter_rows;
  using kernels::distribute_1, kernels::distribute_2, kernels::sbt_scatter, kernels::sbnt_scatter;
  return {
      .name = "scatter",
      .summary =
          "the root's distinct m-byte block for every node: DISTRIBUTE 1 and 2 (Stout & Wagar 1990 §5), SBT-p, "
          "SBnT-p and SBT-p(n,1) (Johnsson & Ho 1987 §4.3)",
      .m_is = "bytes of each node's block",
      .default_algo = "distribute-1",
      .algorithms =
          {row(
               "distribute-1",
               "Stout & Wagar (1990) §5, DISTRIBUTE 1: the block for a node at distance h by O.C. SEND 3 through its "
               "h-cube, leaving in stage d - h",
               {Ports::Kind::all}, scatter_run(distribute_1),
               [](const MachineConfig& config, const KernelCase& c) { return model::distribute_1_time(config, c.m); },
               scatter_bound),
           row(
               "distribute-2",
               "Stout & Wagar (1990) §5, DISTRIBUTE 2: the distance classes leave the root in about d/log2 d waves",
               {Ports::Kind::all}, scatter_run(distribute_2),
               [](const MachineConfig& config, const KernelCase& c) { return model::distribute_2_time(config, c.m); },
               scatter_bound),
           row(
               "sbt", "Johnsson & Ho (1987) §4.3, SBT-p: recursive halving down the binomial tree", {},
               scatter_run(sbt_scatter),
               [](const MachineConfig& config, const KernelCase& c) -> std::optional<Time> {
                 return model::sbt_scatter_time(config, c.m);
               },
               scatter_bound),
           with_paper_table(
               row(
                   "sbnt",
                   "Johnsson & Ho (1987) §4.3, SBnT-p: each block down its path of the spanning balanced n-tree, "
                   "farthest first",
                   {Ports::Kind::all}, scatter_run(sbnt_scatter),
                   [](const MachineConfig& config,
                      const KernelCase& c) { return model::sbnt_scatter_time(config, c.m); },
                   scatter_bound),
               // Table 3's perfectly balanced figure beside the exact tree's (docs/kernels/scatter.md).
               [](const MachineConfig& config, const KernelCase& c) {
                 return model::sbnt_balanced_table_time(config, c.m);
               }),
           row(
               "pipelined-sbt",
               "Johnsson & Ho (1987) §4.3, SBT-p(n,1): the SBnT-p schedule down the binomial tree on all ports; its "
               "N/2-node subtree holds it to half the one-port time",
               {Ports::Kind::all}, scatter_run(kernels::pipelined_sbt_scatter),
               [](const MachineConfig& config,
                  const KernelCase& c) { return model::pipelined_sbt_scatter_time(config, c.m); },
               scatter_bound)},
      .resolve = [](const MachineConfig& config, KernelCase c) { return checked_root(config, "scatter", c); },
      .rooted = true,
  };
}

KernelFamily gather_family() {
  using namespace scatter_rows;
  using kernels::collect_1, kernels::collect_2, kernels::sbt_gather;
  return {
      .name = "gather",
      .summary =
          "every node's m-byte block to the root: COLLECT, DISTRIBUTE 1 and 2 backwards (Stout & Wagar 1990 §5), "
          "and the SBT-p gather (Johnsson & Ho 1987 §4.3, §4.5)",
      .m_is = "bytes of each node's block",
      .default_algo = "collect-1",
      .algorithms =
          {row(
               "collect-1", "Stout & Wagar (1990) §5, COLLECT: DISTRIBUTE 1 run backwards", {Ports::Kind::all},
               gather_run(collect_1),
               [](const MachineConfig& config, const KernelCase& c) { return model::collect_1_time(config, c.m); },
               gather_bound),
           row(
               "collect-2", "Stout & Wagar (1990) §5, COLLECT: DISTRIBUTE 2 run backwards", {Ports::Kind::all},
               gather_run(collect_2),
               [](const MachineConfig& config, const KernelCase& c) { return model::collect_2_time(config, c.m); },
               gather_bound),
           row(
               "sbt",
               "Johnsson & Ho (1987) §4.3 and §4.5: SBT-p run backwards, the reduction tree without the arithmetic", {},
               gather_run(sbt_gather),
               [](const MachineConfig& config, const KernelCase& c) -> std::optional<Time> {
                 return model::sbt_gather_time(config, c.m);
               },
               gather_bound)},
      .resolve = [](const MachineConfig& config, KernelCase c) { return checked_root(config, "gather", c); },
      .rooted = true,
  };
}

}  // namespace hcemu::harness
