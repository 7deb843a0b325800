// The allreduce as a kernel family of the `hcemu` command: one row per algorithm (hcemu/algorithm.hpp), each with
// its paper, how to run it on data made from the case's seed and verified against the sum, its closed form and the
// problem's lower bound. Registered when the program starts, or when `hcemu --load` loads the library of rows.
#include <cstdint>
#include <string>
#include <vector>

#include "allreduce.hpp"
#include "hcemu/algorithm.hpp"
#include "hcemu/case_data.hpp"
#include "hcemu/node.hpp"

namespace {

// Element k of node x's vector: a whole number in [-1000, 1000], so that every sum of up to 2^16 of them is exact in
// any order, and the check below is equality.
double value(std::uint64_t seed, std::uint64_t x, std::size_t k) {
  const std::uint64_t word = hcemu::data::data_word(hcemu::data::data_key(seed, x, 0), k);
  return static_cast<double>(static_cast<std::int64_t>(word % 2001) - 1000);
}

// How an allreduce row runs: every node fills its m doubles, calls the kernel, and checks every element against the
// sum, computed once on the host before the run.
hcemu::RunFn allreduce_run(void (*kernel)(hcemu::Node&, std::span<double>)) {
  return [kernel](const hcemu::MachineConfig& config, const hcemu::EmulatorSettings& settings,
                  const hcemu::KernelCase& c) {
    std::vector<double> sum(c.m, 0.0);
    for (int x = 0; x < config.nodes(); ++x)
      for (std::size_t k = 0; k < c.m; ++k) sum[k] += value(c.seed, static_cast<std::uint64_t>(x), k);
    return hcemu::run_verified(config, settings, [&](hcemu::Node& node, const hcemu::FailFn& fail) {
      hcemu::Buffer<double> data = node.allocate<double>(c.m);
      for (std::size_t k = 0; k < c.m; ++k) data[k] = value(c.seed, static_cast<std::uint64_t>(node.id()), k);
      kernel(node, data.span());
      for (std::size_t k = 0; k < c.m; ++k) {
        if (data[k] == sum[k]) continue;
        fail("node " + std::to_string(node.id()) + ": element " + std::to_string(k) + " is " +
             std::to_string(data[k]) + ", the sum is " + std::to_string(sum[k]));
        return;
      }
    });
  };
}

// Both send along the cube's dimension links (node.neighbor(k), the Gray-code circuit): on a torus or mesh those are
// not links, and the closed forms do not hold.
std::string needs_cube(const hcemu::MachineConfig& config) {
  return config.topology.grid() ? "made for the hypercube's dimension links, and this machine is a " +
                                      config.topology.str()
                                : std::string();
}

std::optional<hcemu::Time> problem_bound(const hcemu::MachineConfig& config, const hcemu::KernelCase& c) {
  return allreduce::lower_bound(config, c.m);
}

hcemu::Algorithm recursive_doubling_row() {
  return {
      .name = "recursive-doubling",
      .paper = "after Johnsson & Ho (1987) §4.2, SBT-b(1,N) with a sum: d exchanges of the whole vector, one per "
               "dimension",
      .ports = {},
      .params = {},
      .resolve = {},
      .cannot_run = needs_cube,
      .run = allreduce_run(allreduce::recursive_doubling),
      .predict = [](const hcemu::MachineConfig& config,
                    const hcemu::KernelCase& c) -> std::optional<hcemu::Time> {
        return allreduce::recursive_doubling_time(config, c.m);
      },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

hcemu::Algorithm ring_row() {
  return {
      .name = "ring",
      .paper = "Patarasuk & Yuan (2009): reduce-scatter and allgather around the Gray-code circuit of Johnsson & Ho "
               "(1987) §4.2's CRA",
      .ports = {},
      .params = {},
      .resolve = {},
      .cannot_run = needs_cube,
      .run = allreduce_run(allreduce::ring),
      .predict = [](const hcemu::MachineConfig& config,
                    const hcemu::KernelCase& c) -> std::optional<hcemu::Time> {
        return allreduce::ring_time(config, c.m);
      },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

hcemu::KernelFamily allreduce_family() {
  return {
      .name = "allreduce",
      .summary = "every node ends with the sum of every node's m doubles: recursive doubling (after Johnsson & Ho "
                 "1987) and the ring (Patarasuk & Yuan 2009)",
      .m_is = "doubles in every node's vector",
      .default_algo = "recursive-doubling",
      .algorithms = {recursive_doubling_row(), ring_row()},
      .resolve = {},
      .rooted = false,
  };
}

}  // namespace

HCEMU_REGISTER_FAMILY(allreduce_family());
