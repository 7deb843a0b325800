// The complete exchange's algorithms, one row each, and the harness they run in: every node sends 2^d random blocks
// of m bytes, and receives block id of every node.
#include <cstring>
#include <string>

#include "harness/algorithm.hpp"
#include "harness/case_data.hpp"
#include "harness/verification.hpp"
#include "hcemu/kernels/exchange.hpp"
#include "hcemu/kernels/primitives.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/model/all_port_exchange.hpp"
#include "hcemu/model/exchange.hpp"
#include "hcemu/model/lower_bounds.hpp"
#include "hcemu/model/planner.hpp"
#include "hcemu/model/primitives.hpp"

namespace hcemu::harness {
namespace {

// The least time of the problem on this machine (model/lower_bounds.hpp), whatever the algorithm.
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
    failure.record_into(result);
    return result;
  };
}

const ParamSpec kPartition{"partition", "", ParamKind::partition,
                           "the subcube dimension of each phase, d_1 + ... + d_k = d, the first phase spanning the "
                           "highest bits (Bokhari 1993 §2.3)"};

// The same parameter where the algorithm fixes it (Direct, Standard) or the planner chooses it (auto).
ParamSpec chosen_partition(std::string_view doc) {
  ParamSpec p = kPartition;
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
      .predict = partition_time,
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
      .cannot_run = {},
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
      .params = {kPartition},
      .resolve =
          [](const MachineConfig& config, KernelCase c) {
            model::check_partition(config.d, c.params.parts("partition"));
            return c;
          },
      .cannot_run = {},
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
      .cannot_run = {},
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
      .cannot_run = {},
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
      .cannot_run = {},
      .run = exchange_run([](Node& node, std::span<const std::byte> send, std::span<std::byte> recv,
                             const KernelCase& c) { kernels::sbnt_exchange(node, send, recv, c.m); }),
      .predict = [](const MachineConfig& config,
                    const KernelCase& c) { return model::sbnt_exchange_time(config, c.m); },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

}  // namespace

KernelFamily exchange_family() {
  return {
      .name = "exchange",
      .summary =
          "complete exchange: Direct, Standard and Multiphase (Bokhari 1993; Nicol & Bokhari 1994), all-port "
          "(Stout & Wagar 1990 §6), SBnT-p (Johnsson & Ho 1987 §4.4)",
      .m_is = "bytes per block",
      .default_algo = "auto",
      .algorithms = {direct(), standard(), multiphase(), planned(), all_port(), sbnt()},
      .resolve = {},
  };
}

}  // namespace hcemu::harness
