// Reductions over real values (Johnsson & Ho 1987 §4.5): the one-to-all reduction on the reversed binomial tree and
// the all-to-all reductions by recursive halving and along SBnTs. Values are small integers stored as doubles, so
// that every order of summation gives the same exact result. The makespan equals the closed form of
// hcemu/model/primitives.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "hcemu/hcemu.hpp"
#include "hcemu/kernels/reduction.hpp"
#include "hcemu/model/primitives.hpp"
#include "hcemu/testing/gtest.hpp"
#include "kernel_machines.hpp"

namespace hcemu {
namespace {

using testing::Case;
using testing::CaseResult;
using testing::KernelCheck;
using Values = std::vector<double>;

using test::circuit_machine;
using test::link_bound_machine;

Values small_integers(std::size_t n, std::mt19937_64& rng) {
  Values v(n);
  for (double& x : v) x = static_cast<double>(static_cast<int>(rng() % 2001) - 1000);
  return v;
}

int root_of(int nodes) { return nodes * 2 / 3; }

kernels::Reduction maximum() {
  kernels::Reduction r;
  r.combine = [](std::span<double> into, std::span<const double> from) {
    for (std::size_t k = 0; k < into.size(); ++k) into[k] = std::max(into[k], from[k]);
  };
  return r;
}

// ----- One-to-all ------------------------------------------------------------------------------------------------

KernelCheck<double> reduce_check(std::size_t elements, kernels::Reduction reduction, bool is_max) {
  KernelCheck<double> check;
  check.input([elements](const Case&, int, std::mt19937_64& rng) { return small_integers(elements, rng); })
      .kernel([reduction](Node& node, std::span<const double> in, Values& out) {
        Values data(in.begin(), in.end());
        kernels::sbt_reduce(node, data, root_of(node.size()), reduction);
        if (node.id() == root_of(node.size())) out = data;
      })
      .reference([elements, is_max](const Case& c, const std::vector<Values>& in) {
        std::vector<Values> out(static_cast<std::size_t>(c.nodes()));
        Values total = in[0];
        for (std::size_t x = 1; x < in.size(); ++x)
          for (std::size_t k = 0; k < elements; ++k)
            total[k] = is_max ? std::max(total[k], in[x][k]) : total[k] + in[x][k];
        out[static_cast<std::size_t>(root_of(c.nodes()))] = total;
        return out;
      })
      .tolerance(testing::Tolerance::exact())
      .no_contention()
      .no_forced_discards();
  return check;
}

HCEMU_KERNEL_CHECKS(SbtReduce, TakesDStepsOfOneMessageAndOneCombine) {
  // SBT-b(1,1) backwards: n(M t_c + τ) plus n·M additions; doubles are 8-byte elements. d = 4, M = 100 doubles,
  // λ = 10, τ = 0.01, t_a = 0.05, store-and-forward: 4·(10 + 8 + 5) = 92 µs.
  MachineConfig c = link_bound_machine(10, 0.01);
  c.flop = 0.05;
  auto hand = reduce_check(100, {}, false);
  hand.dims({4}).ports({"one"}).base(c).predict([](const MachineConfig&) -> std::optional<Time> { return from_us(92); });
  checks.add("by hand", hand);
  MachineConfig circuit = circuit_machine();
  circuit.flop = 0.001;
  circuit.packet = 256;
  auto check = reduce_check(77, {}, false);
  check.dims(0, 6).ports({"one", "half", "all"}).base(circuit).predict([](const MachineConfig& cfg) -> std::optional<Time> {
    return model::sbt_reduce_time(cfg, 77);
  });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(SbtReduce, TakesAnyCommutativeOperationAndItsFlopCount) {
  kernels::Reduction op = maximum();
  op.flops_per_element = 3;
  MachineConfig c = circuit_machine();
  c.flop = 0.01;
  auto check = reduce_check(50, op, true);
  check.dims({0, 3, 5}).ports({"one"}).base(c).predict([](const MachineConfig& cfg) -> std::optional<Time> {
    return model::sbt_reduce_time(cfg, 50, 3);
  });
  checks.add(check);
}

// ----- All-to-all (reduce-scatter) -------------------------------------------------------------------------------

using ReduceScatter = std::function<void(Node&, std::span<double>, std::size_t, std::span<double>, kernels::Subcube)>;

// Every node contributes 2^d blocks of `block` values; node x must end with the sum of every node's block x.
KernelCheck<double> reduce_scatter_check(std::size_t block, ReduceScatter fn) {
  KernelCheck<double> check;
  check
      .input([block](const Case& c, int, std::mt19937_64& rng) {
        return small_integers(block * static_cast<std::size_t>(c.nodes()), rng);
      })
      .kernel([block, fn](Node& node, std::span<const double> in, Values& out) {
        Values data(in.begin(), in.end());
        out.assign(block, 0.0);
        fn(node, data, block, out, {});
      })
      .reference([block](const Case& c, const std::vector<Values>& in) {
        std::vector<Values> out(static_cast<std::size_t>(c.nodes()), Values(block, 0.0));
        for (const Values& v : in)
          for (std::size_t x = 0; x < out.size(); ++x)
            for (std::size_t k = 0; k < block; ++k) out[x][k] += v[x * block + k];
        return out;
      })
      .tolerance(testing::Tolerance::exact())
      .no_contention()
      .no_forced_discards();
  return check;
}

ReduceScatter halving() {
  return [](Node& n, std::span<double> data, std::size_t b, std::span<double> out, kernels::Subcube cube) {
    kernels::recursive_halving_reduce_scatter(n, data, b, out, {}, cube);
  };
}
ReduceScatter balanced() {
  return [](Node& n, std::span<double> data, std::size_t b, std::span<double> out, kernels::Subcube cube) {
    kernels::sbnt_reduce_scatter(n, data, b, out, {}, cube);
  };
}

HCEMU_KERNEL_CHECKS(RecursiveHalvingReduceScatter, MovesHalfTheBlocksEachStep) {
  // The paper's algorithm 4 reduction: Σ_i (P⌈R/2^(i+1)⌉ t_c + τ) with P⌈R/N⌉ = 10 doubles per block, d = 3:
  // 40 + 20 + 10 = 70 doubles (560 bytes), 3 start-ups, 70 additions: 5.6 + 30 + 3.5 = 39.1 µs.
  MachineConfig c = link_bound_machine(10, 0.01);
  c.flop = 0.05;
  auto hand = reduce_scatter_check(10, halving());
  hand.dims({3}).ports({"one"}).base(c).predict([](const MachineConfig&) -> std::optional<Time> {
    return from_us(5.6) + from_us(30) + from_us(3.5);
  });
  checks.add("by hand", hand);
  MachineConfig circuit = circuit_machine();
  circuit.flop = 0.001;
  auto check = reduce_scatter_check(13, halving());
  check.dims(0, 6).ports({"one", "half", "all"}).base(circuit).predict([](const MachineConfig& cfg) -> std::optional<Time> {
    return model::recursive_halving_reduce_scatter_time(cfg, 13, cfg.d);
  });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(SbntReduceScatter, RunsTheBroadcastLoadsBackwards) {
  // n = 5, blocks of 8 doubles: the busiest ports carry 1, 1, 2, 2, 1 blocks (the broadcast's 1, 2, 2, 1, 1
  // reversed): 7·64 bytes and 5 start-ups, plus 31 additions of 8 values and ρ for packing 31 blocks.
  MachineConfig c = link_bound_machine(10, 0.01);
  c.flop = 0.05;
  c.rho = 0.001;
  auto hand = reduce_scatter_check(8, balanced());
  hand.dims({5}).ports({"all"}).base(c).predict([](const MachineConfig&) -> std::optional<Time> {
    return 7 * 64 * from_us(0.01) + 5 * from_us(10) + 31 * 8 * from_us(0.05) + 31 * 64 * from_us(0.001);
  });
  checks.add("by hand", hand);
  MachineConfig circuit = circuit_machine();
  circuit.flop = 0.001;
  circuit.rho = 0.002;
  auto check = reduce_scatter_check(9, balanced());
  check.dims(0, 6).ports({"all"}).base(circuit).predict([](const MachineConfig& cfg) {
    return model::sbnt_reduce_scatter_time(cfg, 9, cfg.d);
  });
  checks.add(check);
  auto other = reduce_scatter_check(9, balanced());
  other.dims({0, 2, 4}).ports({"one", "half"}).base(circuit);
  checks.add("other ports", other);
}

HCEMU_KERNEL_CHECKS(ReduceScatters, WorkInsideSubcubes) {
  // Dimensions [1, 4) of a 5-cube: 8 nodes per subcube, each node's 8 blocks go to its subcube's members.
  for (const auto& [name, fn] :
       std::vector<std::pair<std::string, ReduceScatter>>{{"halving", halving()}, {"balanced", balanced()}}) {
    KernelCheck<double> check;
    check.input([](const Case&, int, std::mt19937_64& rng) { return small_integers(8 * 5, rng); })
        .kernel([fn](Node& node, std::span<const double> in, Values& out) {
          Values data(in.begin(), in.end());
          out.assign(5, 0.0);
          fn(node, data, 5, out, kernels::Subcube{1, 3});
        })
        .reference([](const Case& c, const std::vector<Values>& in) {
          std::vector<Values> out(static_cast<std::size_t>(c.nodes()), Values(5, 0.0));
          for (int x = 0; x < c.nodes(); ++x) {
            const int coordinate = (x >> 1) & 7;
            for (int k = 0; k < 8; ++k) {
              const Values& v = in[static_cast<std::size_t>((x & ~(7 << 1)) | (k << 1))];
              for (std::size_t e = 0; e < 5; ++e)
                out[static_cast<std::size_t>(x)][e] += v[static_cast<std::size_t>(coordinate) * 5 + e];
            }
          }
          return out;
        })
        .tolerance(testing::Tolerance::exact())
        .no_contention()
        .dims({5})
        .ports({"all"})
        .base(circuit_machine());
    checks.add(name, check);
  }
}

HCEMU_KERNEL_CHECKS(Reductions, PostEveryReceiveBeforeItsMessageArrivesUnderForced) {
  MachineConfig forced = circuit_machine();
  forced.protocol = Protocol::forced;
  auto one = reduce_check(30, {}, false);
  one.dims({0, 2, 4}).ports({"one", "all"}).base(forced);
  checks.add("sbt reduce", one);
  for (const auto& [name, fn] :
       std::vector<std::pair<std::string, ReduceScatter>>{{"halving", halving()}, {"balanced", balanced()}}) {
    auto check = reduce_scatter_check(6, fn);
    check.dims({0, 2, 4}).ports({"all"}).base(forced);
    checks.add(name, check);
  }
}

}  // namespace
}  // namespace hcemu
