// The one-to-all broadcasts, one row each, and the harness they run in: the root's m random bytes reach every node.
#include <algorithm>
#include <limits>
#include <string>

#include "harness/algorithm.hpp"
#include "harness/case_data.hpp"
#include "harness/verification.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/kernels/broadcast.hpp"
#include "hcemu/kernels/primitives.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/model/collectives.hpp"
#include "hcemu/model/lower_bounds.hpp"
#include "hcemu/model/primitives.hpp"

namespace hcemu::harness {
// The family's rows and helpers, in a namespace of its own: the families name theirs alike (sbnt(), problem_bound).
namespace broadcast_rows {
namespace {

// The least time of the problem on this machine (model/lower_bounds.hpp), whatever the algorithm.
std::optional<Time> problem_bound(const MachineConfig& config, const KernelCase& c) {
  return model::broadcast_lower_bound(config, c.m);
}

// How a broadcast runs: its kernel call on one node, with the message buffer (the data on the root).
using BroadcastCall = std::function<void(Node&, std::span<std::byte> message, const KernelCase&)>;

RunFn broadcast_run(BroadcastCall call) {
  return [call](const MachineConfig& config, const EmulatorSettings& settings, const KernelCase& c) {
    KernelResult result;
    const auto root = static_cast<std::uint64_t>(c.root);
    FirstFailure failure;
    Machine machine(config, settings);
    result.report = machine.run([&](Node& node) {
      Buffer<std::byte> message = node.allocate<std::byte>(c.m);
      if (node.id() == c.root) data::fill(message.span(), c.seed, root, 0);
      call(node, message.span(), c);
      const std::size_t k = data::first_mismatch(message.span(), c.seed, root, 0);
      if (k != c.m)
        failure.report("node " + std::to_string(node.id()) + ": the message differs from the root's at byte " +
                       std::to_string(k));
    });
    failure.record_into(result, machine);
    return result;
  };
}

Algorithm sbt() {
  return {
      .name = "sbt",
      .paper = "Johnsson & Ho (1987) §3.2, the binomial spanning tree; Stout & Wagar (1990) §2, BROADCAST 1",
      .ports = {},
      .params = {},
      .resolve = {},
      .cannot_run = {},
      .run = broadcast_run([](Node& node, std::span<std::byte> message, const KernelCase& c) {
        kernels::sbt_broadcast(node, message, c.root);
      }),
      .predict = [](const MachineConfig& config, const KernelCase& c) -> std::optional<Time> {
        return model::sbt_broadcast_time(config, c.m);
      },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm bcast2() {
  return {
      .name = "bcast2",
      .paper = "Stout & Wagar (1990) §2, BROADCAST 2: BROADCAST 1 symmetrized over d packets",
      .ports = {Ports::Kind::all},
      .params = {},
      .resolve = {},
      .cannot_run = {},
      .run = broadcast_run([](Node& node, std::span<std::byte> message, const KernelCase& c) {
        kernels::symmetrized_broadcast(node, message, c.root);
      }),
      .predict = [](const MachineConfig& config,
                    const KernelCase& c) { return model::symmetrized_broadcast_time(config, c.m); },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

// Stout & Wagar (1990) §2: BROADCAST 3A on its own, the one wave BROADCAST 4 pipelines.
Algorithm bcast3a() {
  return {
      .name = "bcast3a",
      .paper = "Stout & Wagar (1990) §2, BROADCAST 3A: d packets in one systolic wave, only the nodes at distance k "
               "sending in stage k, d + 1 stages",
      .ports = {Ports::Kind::all},
      .params = {},
      .resolve = {},
      .cannot_run = {},
      .run = broadcast_run([](Node& node, std::span<std::byte> message, const KernelCase& c) {
        kernels::systolic_broadcast(node, message, c.root);
      }),
      .predict = [](const MachineConfig& config,
                    const KernelCase& c) { return model::systolic_broadcast_time(config, c.m); },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm bcast4() {
  return {
      .name = "bcast4",
      .paper = "Stout & Wagar (1990) §2, BROADCAST 4: g groups of d packets in systolic waves, d + g - 1 stages",
      .ports = {Ports::Kind::all},
      .params = {{"groups", "g", ParamKind::count,
                  "groups of d packets (Stout & Wagar 1990 §2), at most ⌈m/d⌉; 0 = the g of least closed-form "
                  "time, whole-byte packets counted (the paper's optimum is sqrt((d-1)τm/(dβ)))",
                  true, false}},
      .resolve =
          [](const MachineConfig& config, KernelCase c) {
            const std::uint64_t g = c.params.number("groups");
            // Packets of ⌈m/(dg)⌉ bytes: past g = ⌈m/d⌉ (where the optimum stops too) the d·g packets outnumber the
            // bytes, and the groups beyond only add empty packets, each a message to every node (m = 64,
            // g = 1000000: 60 M of them, minutes of work for nothing).
            const auto d = static_cast<std::uint64_t>(std::max(config.d, 1));
            const std::uint64_t most = std::max<std::uint64_t>((c.m + d - 1) / d, 1);
            if (g == 0)
              c.params.set("groups", static_cast<std::uint64_t>(model::optimal_broadcast_groups(config, c.m)));
            else if (g > most)
              throw UsageError("broadcast bcast4: " + std::to_string(g) + " groups of d = " + std::to_string(d) +
                               " packets cut m = " + std::to_string(c.m) + " bytes into more packets than bytes: at "
                               "most ⌈m/d⌉ = " + std::to_string(most) + " groups (more only add empty packets)");
            else if (g > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
              throw UsageError("broadcast bcast4: " + std::to_string(g) + " groups are too many");
            return c;
          },
      .cannot_run = {},
      .run = broadcast_run([](Node& node, std::span<std::byte> message, const KernelCase& c) {
        kernels::pipelined_broadcast(node, message, c.root, static_cast<int>(c.params.number("groups")));
      }),
      .predict =
          [](const MachineConfig& config, const KernelCase& c) {
            return model::pipelined_broadcast_time(config, c.m, static_cast<int>(c.params.number("groups")));
          },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm nesbt() {
  return {
      .name = "nesbt",
      .paper = "Johnsson & Ho (1987) §3.4: n edge-disjoint spanning binomial trees, pipelined in chunks",
      .ports = {Ports::Kind::one, Ports::Kind::all},
      .params = {{"chunk", "B", ParamKind::bytes,
                  "bytes per chunk, the paper's packet size B (Johnsson & Ho 1987 §3.4); 0 = the paper's optimum "
                  "sqrt(mβ/τ)/d",
                  true, false}},
      .resolve =
          [](const MachineConfig& config, KernelCase c) {
            if (c.params.number("chunk") == 0)
              c.params.set("chunk", static_cast<std::uint64_t>(model::optimal_nesbt_chunk(config, c.m)));
            return c;
          },
      .cannot_run = {},
      .run = broadcast_run([](Node& node, std::span<std::byte> message, const KernelCase& c) {
        kernels::nesbt_broadcast(node, message, c.root, static_cast<std::size_t>(c.params.number("chunk")));
      }),
      .predict =
          [](const MachineConfig& config, const KernelCase& c) {
            return model::nesbt_broadcast_time(config, c.m, static_cast<std::size_t>(c.params.number("chunk")));
          },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

// Johnsson & Ho's chunk B of a pipeline of h + 1 levels: 0 asks for the paper's B_opt (model::optimal_pipeline_chunk).
ParamSpec chunk_param(std::string optimum) { return {"chunk", "B", ParamKind::bytes, optimum, true, false}; }

std::function<KernelCase(const MachineConfig&, KernelCase)> optimal_chunk(int (*height)(const MachineConfig&)) {
  return [height](const MachineConfig& config, KernelCase c) {
    if (c.params.number("chunk") == 0)
      c.params.set("chunk", static_cast<std::uint64_t>(model::optimal_pipeline_chunk(config, c.m, height(config))));
    return c;
  };
}

std::size_t chunk_of(const KernelCase& c) { return static_cast<std::size_t>(c.params.number("chunk")); }

Algorithm gray_code() {
  return {
      .name = "gray-code",
      .paper =
          "Johnsson & Ho (1987) §4.1.1, GC(1,1): the message pipelined in chunks along a Gray-code Hamiltonian path",
      .ports = {Ports::Kind::one, Ports::Kind::k, Ports::Kind::all},
      .params = {chunk_param("bytes per chunk, the paper's B (Johnsson & Ho 1987 §4.1.1); 0 = the paper's optimum "
                             "sqrt(mβ/((N-2)τ))")},
      .resolve = optimal_chunk([](const MachineConfig& config) { return config.nodes() - 2; }),
      .cannot_run = {},
      .run = broadcast_run([](Node& node, std::span<std::byte> message, const KernelCase& c) {
        kernels::gray_code_broadcast(node, message, c.root, chunk_of(c));
      }),
      .predict = [](const MachineConfig& config,
                    const KernelCase& c) { return model::gray_code_broadcast_time(config, c.m, chunk_of(c)); },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm rotated_gray_code() {
  return {
      .name = "rotated-gray-code",
      .paper = "Johnsson & Ho (1987) §4.1.1, GC(n,1): n parts of the message along n rotated Gray-code paths",
      .ports = {Ports::Kind::all},
      .params = {},
      .resolve = {},
      .cannot_run = {},
      .run = broadcast_run([](Node& node, std::span<std::byte> message, const KernelCase& c) {
        kernels::rotated_gray_code_broadcast(node, message, c.root);
      }),
      .predict = [](const MachineConfig& config,
                    const KernelCase& c) { return model::rotated_gray_code_broadcast_time(config, c.m); },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm pipelined_sbt() {
  return {
      .name = "pipelined-sbt",
      .paper = "Johnsson & Ho (1987) §4.1.2, SBT-b(n,1): the binomial tree pipelined in chunks on all ports",
      .ports = {Ports::Kind::all},
      .params = {chunk_param("bytes per chunk, the paper's B (Johnsson & Ho 1987 §4.1.2); 0 = the paper's optimum "
                             "sqrt(mβ/((d-1)τ))")},
      .resolve = optimal_chunk([](const MachineConfig& config) { return config.d - 1; }),
      .cannot_run = {},
      .run = broadcast_run([](Node& node, std::span<std::byte> message, const KernelCase& c) {
        kernels::pipelined_sbt_broadcast(node, message, c.root, chunk_of(c));
      }),
      .predict = [](const MachineConfig& config,
                    const KernelCase& c) { return model::pipelined_sbt_broadcast_time(config, c.m, chunk_of(c)); },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm sbnt() {
  return {
      .name = "sbnt",
      .paper = "Johnsson & Ho (1987) §4.1.5: the spanning balanced n-tree, pipelined in chunks on all ports",
      .ports = {Ports::Kind::all},
      .params = {chunk_param("bytes per chunk, the paper's B (Johnsson & Ho 1987 §4.1.5); 0 = the optimum of a "
                             "pipeline d deep, sqrt(mβ/((d-1)τ))")},
      .resolve = optimal_chunk([](const MachineConfig& config) { return config.d - 1; }),
      .cannot_run = {},
      .run = broadcast_run([](Node& node, std::span<std::byte> message, const KernelCase& c) {
        kernels::sbnt_broadcast(node, message, c.root, chunk_of(c));
      }),
      .predict = [](const MachineConfig& config,
                    const KernelCase& c) { return model::sbnt_broadcast_time(config, c.m, chunk_of(c)); },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm two_rooted_tree() {
  return {
      .name = "two-rooted-cbt",
      .paper = "Johnsson & Ho (1987) §4.1.6: the two-rooted complete binary tree, pipelined in chunks",
      .ports = {Ports::Kind::one, Ports::Kind::k, Ports::Kind::all},
      .params = {chunk_param("bytes per chunk B; 0 = the optimum of the closed form, sqrt(mβ/((d-2)τ)) on one port "
                             "(each chunk is sent twice per level), sqrt(mβ/((d-1)τ)) on more")},
      .resolve = optimal_chunk(model::two_rooted_tree_chunk_height),
      .cannot_run = {},
      .run = broadcast_run([](Node& node, std::span<std::byte> message, const KernelCase& c) {
        kernels::two_rooted_tree_broadcast(node, message, c.root, chunk_of(c));
      }),
      .predict = [](const MachineConfig& config,
                    const KernelCase& c) { return model::two_rooted_tree_broadcast_time(config, c.m, chunk_of(c)); },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm nrsbt() {
  Algorithm row = bcast2();
  row.name = "nrsbt";
  row.paper =
      "Johnsson & Ho (1987) §4.1.4, nRSBT-b(n,1): n rotated binomial trees, one part each; the same kernel "
      "as bcast2";
  row.run = broadcast_run([](Node& node, std::span<std::byte> message, const KernelCase& c) {
    kernels::nrsbt_broadcast(node, message, c.root);
  });
  return row;
}

// ----- Johnsson & Ho (1987) Table 1's one-port nRSBT ---------------------------------------------------------------

Algorithm nrsbt_one_port() {
  return {
      .name = "nrsbt-one-port",
      .paper =
          "Johnsson & Ho (1987) §4.1.4, nRSBT-b(1,1): the n rotated binomial trees on one port, two sweeps through "
          "the dimensions, the parts crossing one dimension in one message",
      .ports = {},
      .params = {},
      .resolve = {},
      .cannot_run = {},
      .run = broadcast_run([](Node& node, std::span<std::byte> message, const KernelCase& c) {
        kernels::nrsbt_one_port_broadcast(node, message, c.root);
      }),
      .predict = [](const MachineConfig& config, const KernelCase& c) -> std::optional<Time> {
        return model::nrsbt_one_port_broadcast_time(config, c.m);
      },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

}  // namespace
}  // namespace broadcast_rows

KernelFamily broadcast_family() {
  using namespace broadcast_rows;
  return {
      .name = "broadcast",
      .summary =
          "one-to-all broadcast: binomial tree (Johnsson & Ho 1987 §3.2), BROADCAST 2 and 4 (Stout & Wagar "
          "1990 §2), n edge-disjoint binomial trees (Johnsson & Ho §3.4), Gray-code paths, pipelined trees, "
          "the SBnT and the two-rooted complete binary tree (Johnsson & Ho §4.1)",
      .m_is = "bytes of the message",
      .default_algo = "sbt",
      .algorithms = {sbt(), bcast2(), bcast3a(), bcast4(), nesbt(), gray_code(), rotated_gray_code(), pipelined_sbt(),
                     sbnt(), two_rooted_tree(), nrsbt(), nrsbt_one_port()},
      .resolve =
          [](const MachineConfig& config, KernelCase c) {
            if (c.root < 0 || c.root >= config.nodes())
              throw UsageError("broadcast: root " + std::to_string(c.root) + " does not exist in a " +
                               std::to_string(config.nodes()) + "-node machine");
            return c;
          },
      .rooted = true,
  };
}

}  // namespace hcemu::harness
