// The one-to-all broadcast as the registry (hcemu command, harness) sees it.
#include <algorithm>
#include <limits>
#include <string>

#include "case_data.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/kernels/broadcast.hpp"
#include "hcemu/kernels/registry.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/model/collectives.hpp"
#include "kernels/registry_support.hpp"

namespace hcemu::kernels {
namespace {

const std::vector<std::string> kAlgos = {"sbt", "bcast2", "bcast4", "nesbt"};

void check_algo(const KernelCase& c) {
  for (const auto& a : kAlgos)
    if (a == c.algo) return;
  throw UsageError("broadcast: unknown algo '" + c.algo + "' (sbt, bcast2, bcast4, nesbt)");
}

// BROADCAST 4's number of groups g (Stout & Wagar §2) and nESBT's chunk size B in bytes (Johnsson & Ho §3.4) are
// KernelCase::pieces when it is not 0, else the papers' optima for this machine and m.
int groups_of(const MachineConfig& config, const KernelCase& c) {
  if (c.pieces == 0) return model::optimal_broadcast_groups(config, c.m);
  // pipelined_broadcast numbers its d·g packets with ints.
  const auto most = static_cast<std::size_t>(std::numeric_limits<int>::max() / std::max(config.d, 1));
  if (c.pieces > most)
    throw UsageError("broadcast bcast4: " + std::to_string(c.pieces) + " groups are too many (at most " +
                     std::to_string(most) + " on d = " + std::to_string(config.d) + ")");
  return static_cast<int>(c.pieces);
}

std::size_t chunk_of(const MachineConfig& config, const KernelCase& c) {
  return c.pieces == 0 ? model::optimal_nesbt_chunk(config, c.m) : c.pieces;
}

// The pieces this case runs with: g for bcast4, the chunk for nesbt, 0 for the algorithms without one.
std::size_t pieces_of(const MachineConfig& config, const KernelCase& c) {
  if (c.algo == "bcast4") return static_cast<std::size_t>(groups_of(config, c));
  if (c.algo == "nesbt") return chunk_of(config, c);
  return 0;
}

std::optional<Time> predict(const MachineConfig& config, const KernelCase& c) {
  check_algo(c);
  if (c.algo == "sbt") return model::sbt_broadcast_time(config, c.m);
  if (c.algo == "bcast2") return model::symmetrized_broadcast_time(config, c.m);
  if (c.algo == "bcast4") return model::pipelined_broadcast_time(config, c.m, groups_of(config, c));
  return model::nesbt_broadcast_time(config, c.m, chunk_of(config, c));
}

KernelResult run(const MachineConfig& config, const EmulatorSettings& settings, const KernelCase& c) {
  check_algo(c);
  if (c.root < 0 || c.root >= config.nodes())
    throw UsageError("broadcast: root " + std::to_string(c.root) + " does not exist in a " +
                     std::to_string(config.nodes()) + "-node machine");
  KernelResult result;
  result.run_case = c;
  result.run_case.pieces = pieces_of(config, c);
  const KernelCase& ran = result.run_case;

  FirstFailure failure;
  Machine machine(config, settings);
  result.report = machine.run([&](Node& node) {
    Buffer<std::byte> message = node.allocate<std::byte>(ran.m);
    if (node.id() == ran.root) detail::fill(message.span(), ran.seed, static_cast<std::uint64_t>(ran.root), 0);
    if (ran.algo == "sbt")
      sbt_broadcast(node, message.span(), ran.root);
    else if (ran.algo == "bcast2")
      symmetrized_broadcast(node, message.span(), ran.root);
    else if (ran.algo == "bcast4")
      pipelined_broadcast(node, message.span(), ran.root, static_cast<int>(ran.pieces));
    else
      nesbt_broadcast(node, message.span(), ran.root, ran.pieces);
    const std::size_t k = detail::first_mismatch(message.span(), ran.seed, static_cast<std::uint64_t>(ran.root), 0);
    if (k != ran.m) {
      failure.report("node " + std::to_string(node.id()) + ": the message differs from the root's at byte " +
                     std::to_string(k));
    }
  });
  failure.record_into(result);
  result.predicted = predict(config, ran);
  return result;
}

std::vector<KernelCase> expand_all(const MachineConfig& config, const KernelCase& base) {
  // BROADCAST 2 and 4 and nESBT are all-port algorithms.
  return cases_for_each_algo(config, base, kAlgos, {"bcast2", "bcast4", "nesbt"});
}

}  // namespace

KernelInfo broadcast_kernel_info() {
  KernelInfo info;
  info.name = "broadcast";
  info.summary =
      "one-to-all broadcast: binomial tree (Johnsson & Ho 1987 §3.2), BROADCAST 2 and 4 (Stout & Wagar 1990 §2), "
      "n edge-disjoint binomial trees (Johnsson & Ho §3.4); bcast4's groups g and nesbt's chunk bytes are "
      "KernelCase::pieces when given, else the papers' optima";
  info.algos = kAlgos;
  info.default_algo = "sbt";
  info.expand_all = expand_all;
  info.run = run;
  info.predict = predict;
  return info;
}

}  // namespace hcemu::kernels
