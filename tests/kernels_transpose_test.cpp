// Matrix transposes: every node's part of the result equals the sequential transpose, and the makespan equals the
// closed form (Stout & Wagar §7.1 for rows, Johnsson & Ho §4.6 for blocks).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "common/cost_table.hpp"
#include "hcemu/hcemu.hpp"
#include "hcemu/kernels/transpose.hpp"
#include "hcemu/model/all_port_exchange.hpp"
#include "hcemu/model/exchange.hpp"
#include "hcemu/model/partitions.hpp"
#include "hcemu/model/transpose.hpp"
#include "hcemu/testing/gtest.hpp"
#include "kernel_machines.hpp"

namespace hcemu {
namespace {

using Element = std::uint32_t;
using Data = std::vector<Element>;
using testing::Case;
using testing::CaseResult;
using testing::KernelCheck;
constexpr std::size_t kBytes = sizeof(Element);

using test::ipsc_like;

Data random_elements(std::size_t count, std::mt19937_64& rng) {
  Data v(count);
  for (auto& x : v) x = static_cast<Element>(rng());
  return v;
}

// --- Row distribution: node p holds rows [p·s, (p+1)·s) of an n x n matrix, n = s·2^d.

std::size_t row_n(int d, std::size_t s) { return s << d; }

KernelCheck<Element>::InputFn rows_input(std::size_t s) {
  return [s](const Case& c, int, std::mt19937_64& rng) { return random_elements(s * row_n(c.d, s), rng); };
}

KernelCheck<Element>::ReferenceFn rows_reference(std::size_t s) {
  return [s](const Case& c, const std::vector<Data>& in) {
    const std::size_t n = row_n(c.d, s);
    auto at = [&](std::size_t i, std::size_t j) { return in[i / s][(i % s) * n + j]; };
    std::vector<Data> out(in.size(), Data(s * n));
    for (std::size_t p = 0; p < in.size(); ++p)
      for (std::size_t i = 0; i < s; ++i)
        for (std::size_t j = 0; j < n; ++j) out[p][i * n + j] = at(j, p * s + i);  // (M^T)(p·s+i, j) = M(j, p·s+i)
    return out;
  };
}

KernelCheck<Element>::KernelFn rows_kernel(std::size_t s, kernels::ExchangeFn exchange) {
  return [s, exchange](Node& node, std::span<const Element> in, Data& out) {
    out.resize(in.size());
    kernels::row_transpose(node, std::as_bytes(in), std::as_writable_bytes(std::span(out)), row_n(node.dim(), s),
                           kBytes, exchange);
  };
}

kernels::ExchangeFn multiphase(std::function<std::vector<int>(int)> partition_of) {
  return [partition_of](Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m) {
    kernels::multiphase_exchange(node, send, recv, m, partition_of(node.dim()));
  };
}

HCEMU_KERNEL_CHECKS(RowTranspose, ThroughEveryExchangeMatchesExchangePlusTwoPermutations) {
  const std::size_t s = 3;
  for (auto [name, partition_of] : std::vector<std::pair<std::string, std::function<std::vector<int>(int)>>>{
           {"direct", model::direct_partition},
           {"standard", model::standard_partition},
           {"E(d,2)", [](int d) { return d >= 2 ? model::equipartition(d, 2) : model::direct_partition(d); }}}) {
    KernelCheck<Element> check;
    check.dims(0, 8)
        .ports({"one", "all"})
        .base(ipsc_like())
        .input(rows_input(s))
        .reference(rows_reference(s))
        .kernel(rows_kernel(s, multiphase(partition_of)))
        .predict([=](const MachineConfig& cfg) {
          const std::size_t n = row_n(cfg.d, s);
          const Time exchange = model::multiphase_exchange_time(cfg, partition_of(cfg.d), s * s * kBytes);
          // The exchange, then ρ for packing and for unpacking all n·s elements of the node's share.
          return exchange + 2 * CostTable::from(cfg).copy(n * s * kBytes);
        })
        .tolerance(testing::Tolerance::exact())
        .no_contention();
    checks.add(name, check);
  }
}

HCEMU_KERNEL_CHECKS(RowTranspose, AllPortMatchesStoutWagarSevenOne) {
  // Stout & Wagar §7.1: τN^2/2^(d+1) + dβ (all-port, store-and-forward, local work free). s = 15 makes every
  // block (900 bytes) divisible by lcm(1..6) = 60, so the exchange's links are evenly loaded.
  const std::size_t s = 15;
  MachineConfig base;
  base.lambda = 18;
  base.tau = 0.25;
  base.switching = Switching::store_and_forward;
  KernelCheck<Element> check;
  // d >= 1: at d = 0 there is nothing to exchange and the formula's 2^(d-1)·τm term does not apply.
  check.dims(1, 6)
      .ports({"all"})
      .base(base)
      .input(rows_input(s))
      .reference(rows_reference(s))
      .kernel(rows_kernel(s, [](Node& node, std::span<const std::byte> send, std::span<std::byte> recv,
                                std::size_t m) { kernels::all_port_exchange(node, send, recv, m); }))
      .predict([=](const MachineConfig& cfg) {
        const CostTable cost = CostTable::from(cfg);
        const std::size_t n_bytes_squared = row_n(cfg.d, s) * row_n(cfg.d, s) * kBytes;
        return cost.tau * static_cast<Time>(n_bytes_squared >> (cfg.d + 1)) + cfg.d * cost.lambda;
      })
      .tolerance(testing::Tolerance::exact())
      .no_contention();
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(RowTranspose, EmptyAndSingleElementBlocks) {
  for (std::size_t s : {std::size_t{0}, std::size_t{1}}) {
    KernelCheck<Element> check;
    check.dims({0, 1, 4})
        .ports({"one"})
        .base(ipsc_like())
        .input(rows_input(s))
        .reference(rows_reference(s))
        .kernel(rows_kernel(s, multiphase(model::standard_partition)))
        .predict([=](const MachineConfig& cfg) {
          return model::row_transpose_time(cfg, row_n(cfg.d, s), kBytes,
                                           model::multiphase_exchange_time(cfg, model::standard_partition(cfg.d),
                                                                           s * s * kBytes));
        })
        .tolerance(testing::Tolerance::exact());
    checks.add("s = " + std::to_string(s), check);
  }
}

// --- Block distribution on a 2^c x 2^c grid: node a·2^c + b holds block (a, b), side s, n = s·2^c.

KernelCheck<Element>::ReferenceFn blocks_reference(std::size_t s) {
  return [s](const Case& c, const std::vector<Data>& in) {
    const int half = c.d / 2;
    const std::size_t mask = (std::size_t{1} << half) - 1;
    std::vector<Data> out(in.size(), Data(s * s));
    for (std::size_t id = 0; id < in.size(); ++id) {
      const std::size_t a = id >> half, b = id & mask;
      const Data& from = in[(b << half) | a];  // (M^T)_{a,b} = (M_{b,a})^T
      for (std::size_t i = 0; i < s; ++i)
        for (std::size_t j = 0; j < s; ++j) out[id][i * s + j] = from[j * s + i];
    }
    return out;
  };
}

KernelCheck<Element> johnsson_ho_check(std::size_t s) {
  KernelCheck<Element> check;
  check.input([s](const Case&, int, std::mt19937_64& rng) { return random_elements(s * s, rng); })
      .reference(blocks_reference(s))
      .kernel([s](Node& node, std::span<const Element> in, Data& out) {
        out.resize(in.size());
        kernels::johnsson_ho_transpose(node, std::as_bytes(in), std::as_writable_bytes(std::span(out)),
                                       s << (node.dim() / 2), kBytes);
      });
  return check;
}

HCEMU_KERNEL_CHECKS(JohnssonHoTranspose, TakesDBlockStepsAndOneLocalTranspose) {
  // Johnsson & Ho §4.6, square grid: d steps of (B·t_c + τ), here d·(λ + δ' + δ + τB) for one hop, plus ρB.
  const std::size_t s = 5;
  KernelCheck<Element> check = johnsson_ho_check(s);
  check.dims({0, 2, 4, 6, 8})
      .ports({"one", "half", "all"})
      .base(ipsc_like())
      .predict([=](const MachineConfig& cfg) {
        const CostTable cost = CostTable::from(cfg);
        const auto block = static_cast<Time>(s * s * kBytes);
        return cfg.d * (cost.lambda + cost.delta_msg + cost.delta_hop + cost.tau * block) + cost.rho * block;
      })
      .tolerance(testing::Tolerance::exact())
      .no_contention();
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(JohnssonHoTranspose, MatchesTheModelWithPacketsAndStoreAndForward) {
  MachineConfig base = ipsc_like();
  base.packet = 48;  // 100-byte blocks: three packets, the last short
  base.switching = Switching::store_and_forward;
  KernelCheck<Element> check = johnsson_ho_check(5);
  check.dims({2, 4})
      .ports({"one", "all"})
      .base(base)
      .predict(
          [](const MachineConfig& cfg) { return model::johnsson_ho_transpose_time(cfg, 5 << (cfg.d / 2), kBytes); })
      .tolerance(testing::Tolerance::exact())
      .no_contention();
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(JohnssonHoTranspose, EmptyAndSingleElementBlocks) {
  for (std::size_t s : {std::size_t{0}, std::size_t{1}}) {
    KernelCheck<Element> check = johnsson_ho_check(s);
    check.dims({0, 2, 4})
        .ports({"one"})
        .base(ipsc_like())
        .predict(
            [s](const MachineConfig& cfg) { return model::johnsson_ho_transpose_time(cfg, s << (cfg.d / 2), kBytes); })
        .tolerance(testing::Tolerance::exact());
    checks.add("s = " + std::to_string(s), check);
  }
}

HCEMU_KERNEL_CHECKS(JohnssonHoTranspose, TenDimensions) {
  KernelCheck<Element> check = johnsson_ho_check(2);
  check.dims({10})
      .ports({"one", "all"})
      .base(ipsc_like())
      .predict([](const MachineConfig& cfg) { return model::johnsson_ho_transpose_time(cfg, 2 << 5, kBytes); })
      .tolerance(testing::Tolerance::exact())
      .no_contention();
  checks.add(check);
}

TEST(JohnssonHoTranspose, RejectsOddDimensions) {
  MachineConfig config = ipsc_like();
  config.d = 3;
  EXPECT_FALSE(model::johnsson_ho_transpose_time(config, 8, kBytes).has_value());
  EXPECT_THROW(Machine(config).run([](Node& node) {
    Data in(4), out(4);
    kernels::johnsson_ho_transpose(node, std::as_bytes(std::span(in)), std::as_writable_bytes(std::span(out)), 8,
                                   kBytes);
  }),
               KernelError);
}

}  // namespace
}  // namespace hcemu
