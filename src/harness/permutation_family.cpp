// A fixed permutation of the nodes' messages (Stout & Wagar 1990 §6), one row per algorithm, and the harness they run
// in: every node s holds m random bytes and sends them to π(s); node π(s) must end with s's bytes. The permutation is
// the case's `perm` (--perm inversion|bit-reversal|shuffle|rotation|reflection|random[:SEED],
// model::permutation_by_name; default inversion), and the plain e-cube routing of it is the baseline, its contention
// counted in the report.
#include <string>

#include "harness/algorithm.hpp"
#include "harness/case_data.hpp"
#include "harness/verification.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/kernels/permutation.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/model/lower_bounds.hpp"
#include "hcemu/model/permutation.hpp"

namespace hcemu::harness {
// The family's rows and helpers, in a namespace of its own: the families name theirs alike (sbnt(), problem_bound).
namespace permutation_rows {
namespace {

constexpr std::string_view kDefaultPermutation = "inversion";

// The case's permutation spelled as given (the default when none is), before the family's resolve checks it.
std::string perm_name(const KernelCase& c) {
  const std::string& given = c.params.text("perm");
  return given.empty() ? std::string(kDefaultPermutation) : given;
}

model::Permutation permutation_of(const MachineConfig& config, const KernelCase& c) {
  return model::permutation_by_name(perm_name(c), config.d);
}

ParamSpec perm_param() {
  std::string names;
  for (const std::string& name : model::permutation_names())
    names += (names.empty() ? "" : ", ") + name + (name == kDefaultPermutation ? " (the default)" : "");
  return {"perm",
          "π",
          ParamKind::text,
          "the permutation: " + names + " or random:SEED (Stout & Wagar 1990 §6; rotation s -> s + 1, reflection "
          "s -> s ^ 2^(d-1), §6 and §9)",
          false,
          false};
}

using Permute =
    std::function<void(Node&, std::span<const std::byte> message, std::span<std::byte> out, const model::Permutation&)>;

RunFn permutation_run(Permute call) {
  return [call](const MachineConfig& config, const EmulatorSettings& settings, const KernelCase& c) {
    KernelResult result;
    const model::Permutation permutation = permutation_of(config, c);
    const std::vector<std::uint32_t> inverse = model::inverse_permutation(permutation.image);
    FirstFailure failure;
    Machine machine(config, settings);
    result.report = machine.run([&](Node& node) {
      const auto self = static_cast<std::uint64_t>(node.id());
      Buffer<std::byte> message = node.allocate<std::byte>(c.m);
      data::fill(message.span(), c.seed, self, 0);
      Buffer<std::byte> out = node.allocate<std::byte>(c.m);
      call(node, message.span(), out.span(), permutation);
      const std::uint64_t from = inverse[self];
      const std::size_t k = data::first_mismatch(out.span(), c.seed, from, 0);
      if (k != c.m)
        failure.report("node " + std::to_string(self) + ": the message differs from node " + std::to_string(from) +
                       "'s at byte " + std::to_string(k));
    });
    failure.record_into(result, machine);
    return result;
  };
}

std::optional<Time> problem_bound(const MachineConfig& config, const KernelCase& c) {
  return model::permutation_lower_bound(config, c.m, permutation_of(config, c).image);
}

Algorithm ecube() {
  return {
      .name = "ecube",
      .paper = "the baseline: every message straight to its image, routed by the machine (e-cube), contention and all",
      .ports = {},
      .params = {perm_param()},
      .resolve = {},
      .cannot_run = {},
      .run = permutation_run(kernels::ecube_permutation),
      .predict =
          [](const MachineConfig& config, const KernelCase& c) {
            return model::ecube_permutation_time(config, c.m, permutation_of(config, c).image);
          },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm inversion() {
  return {
      .name = "inversion",
      .paper =
          "Stout & Wagar (1990) §6, INVERSION: O.C. SEND 2 from every node at once; the inversion permutation only",
      .ports = {Ports::Kind::all},
      .params = {perm_param()},
      .resolve =
          [](const MachineConfig&, KernelCase c) {
            if (perm_name(c) != "inversion")
              throw UsageError("permutation inversion routes only --perm inversion, not '" + perm_name(c) +
                               "' (ecube and permuted-send route any permutation)");
            return c;
          },
      .cannot_run = {},
      .run = permutation_run([](Node& node, std::span<const std::byte> message, std::span<std::byte> out,
                                const model::Permutation&) { kernels::inversion(node, message, out); }),
      .predict = [](const MachineConfig& config, const KernelCase& c) { return model::inversion_time(config, c.m); },
      .lower_bound = problem_bound,
      // `--algo all` runs it for the inversion permutation on all-port machines only.
      .all_cases = [](const MachineConfig& config, const KernelCase& c) -> std::vector<KernelCase> {
        if (config.ports.kind != Ports::Kind::all || perm_name(c) != "inversion") return {};
        return {c};
      },
  };
}

Algorithm permuted_send() {
  return {
      .name = "permuted-send",
      .paper =
          "Stout & Wagar (1990) §6, PERMUTED SEND: two COMPLETE EXCHANGEs, every message dispersed over all nodes "
          "and gathered at its image",
      .ports = {Ports::Kind::all},
      .params = {perm_param()},
      .resolve = {},
      .cannot_run = {},
      .run = permutation_run(kernels::permuted_send),
      .predict = [](const MachineConfig& config,
                    const KernelCase& c) { return model::permuted_send_time(config, c.m); },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

}  // namespace
}  // namespace permutation_rows

KernelFamily permutation_family() {
  using namespace permutation_rows;
  return {
      .name = "permutation",
      .summary =
          "every node's m bytes to its image under a fixed permutation (--perm): the e-cube baseline, INVERSION and "
          "PERMUTED SEND (Stout & Wagar 1990 §6)",
      .m_is = "bytes of each node's message",
      .default_algo = "permuted-send",
      .algorithms = {ecube(), inversion(), permuted_send()},
      .resolve =
          [](const MachineConfig& config, KernelCase c) {
            // An unknown name is a UsageError naming the known ones; the case carries the name as run.
            try {
              model::permutation_by_name(perm_name(c), config.d);
            } catch (const UsageError& e) {
              throw UsageError(std::string("permutation --perm: ") + e.what());
            }
            c.params.set("perm", perm_name(c));
            return c;
          },
  };
}

}  // namespace hcemu::harness
