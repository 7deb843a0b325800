// The histograms: node i ends with the global counts of its block of bins, and the virtual-time makespan equals the
// closed form (docs/model.md §9; Stout & Wagar 1990 §8). Bins are 4-byte counts, so the paper's τ per item is 4τ here.
#include <gtest/gtest.h>

#include <string>

#include "harness/algorithm.hpp"
#include "hcemu/hcemu.hpp"
#include "hcemu/kernels/histogram.hpp"
#include "hcemu/model/collectives.hpp"
#include "hcemu/testing/gtest.hpp"
#include "kernel_machines.hpp"

namespace hcemu {
namespace {

using testing::Case;
using testing::CaseResult;
using testing::KernelCheck;
using Counts = std::vector<std::uint32_t>;

using test::circuit_machine;
using test::link_bound_machine;

using Histogram = std::function<void(Node&, std::span<const std::uint32_t>, std::size_t, std::span<std::uint32_t>)>;
using BinsOf = std::function<std::size_t(int d)>;

// Each node counts `items` random values (value v in bin v mod bins); node i must end with the global counts of
// bins [i·b, (i+1)·b), b = ⌈bins/2^d⌉, cut at bins.
KernelCheck<std::uint32_t> histogram_check(BinsOf bins_of, std::size_t items, Histogram histogram) {
  KernelCheck<std::uint32_t> check;
  check
      .input([items](const Case&, int, std::mt19937_64& rng) {
        Counts values(items);
        for (auto& v : values) v = static_cast<std::uint32_t>(rng());
        return values;
      })
      .kernel([bins_of, histogram](Node& node, std::span<const std::uint32_t> in, Counts& out) {
        const std::size_t bins = bins_of(node.dim());
        out.assign(model::histogram_owned_bins(node.dim(), bins, node.id()), 0);
        histogram(node, in, bins, out);
      })
      .reference([bins_of](const Case& c, const std::vector<Counts>& in) {
        const std::size_t bins = bins_of(c.d);
        Counts global(bins, 0);
        for (const Counts& values : in)
          for (std::uint32_t v : values) ++global[v % bins];
        std::vector<Counts> out;
        const std::size_t b = model::histogram_block_bins(c.d, bins);
        for (int x = 0; x < c.nodes(); ++x) {
          const std::size_t first = static_cast<std::size_t>(x) * b;
          const std::size_t owned = model::histogram_owned_bins(c.d, bins, x);
          out.emplace_back(global.begin() + static_cast<std::ptrdiff_t>(std::min(first, bins)),
                           global.begin() + static_cast<std::ptrdiff_t>(std::min(first, bins) + owned));
        }
        return out;
      })
      .tolerance(testing::Tolerance::exact())
      .no_contention()
      .no_forced_discards();
  return check;
}

BinsOf fixed(std::size_t bins) {
  return [bins](int) { return bins; };
}

Histogram recursive_halving() {
  return [](Node& node, std::span<const std::uint32_t> values, std::size_t bins, std::span<std::uint32_t> owned) {
    kernels::recursive_halving_histogram(node, values, bins, owned);
  };
}
Histogram symmetrized() {
  return [](Node& node, std::span<const std::uint32_t> values, std::size_t bins, std::span<std::uint32_t> owned) {
    kernels::symmetrized_histogram(node, values, bins, owned);
  };
}

// ----- Recursive halving -----------------------------------------------------------------------------------------

HCEMU_KERNEL_CHECKS(RecursiveHalvingHistogram, OnePortMovesHalfTheBinsLessEachStage) {
  // Stout & Wagar §8: stage k costs τ·m/2^k + β; here Σ_k (λ + δ' + δ + 4τ·bins/2^k), bins = 3·256.
  const std::size_t bins = 768;
  auto check = histogram_check(fixed(bins), 500, recursive_halving());
  check.dims(0, 8)
      .ports({"one", "all"})
      .base(circuit_machine())
      .predict([](const MachineConfig& cfg) -> std::optional<Time> {
        Time total = 0;
        for (int k = 1; k <= cfg.d; ++k)
          total += from_us(10) + from_us(3) + from_us(2) + from_us(0.01) * 4 * static_cast<Time>(bins >> k);
        return total;
      });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(RecursiveHalvingHistogram, ChargesAFlopPerCountAndPerAddition) {
  // t_a·items to count, t_a·bins·(1 - 2^-d) to add, on top of the transfers.
  MachineConfig c = link_bound_machine();
  c.flop = 0.003;
  const std::size_t bins = 768, items = 500;
  auto check = histogram_check(fixed(bins), items, recursive_halving());
  check.dims(0, 8).ports({"one"}).base(c).predict([](const MachineConfig& cfg) -> std::optional<Time> {
    const auto moved = static_cast<Time>(bins - (bins >> cfg.d));
    return cfg.d * from_us(10) + 4 * moved * from_us(0.01) + (static_cast<Time>(items) + moved) * from_us(0.003);
  });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(RecursiveHalvingHistogram, OddBinCountsPadTheBlocks) {
  for (std::size_t bins : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{1001}}) {
    auto check = histogram_check(fixed(bins), bins == 0 ? 0 : 300, recursive_halving());
    check.dims(0, 8)
        .ports({"one", "half"})
        .base(circuit_machine())
        .predict([bins](const MachineConfig& cfg) -> std::optional<Time> {
          return model::recursive_halving_histogram_time(cfg, bins, bins == 0 ? 0 : 300);
        });
    checks.add("bins = " + std::to_string(bins), check);
  }
}

HCEMU_KERNEL_CHECKS(RecursiveHalvingHistogram, AThousandNodes) {
  auto check = histogram_check(fixed(2048), 64, recursive_halving());
  check.dims({10}).ports({"one"}).base(link_bound_machine()).predict([](const MachineConfig&) -> std::optional<Time> {
    return 10 * from_us(10) + 4 * (2048 - 2) * from_us(0.01);
  });
  checks.add(check);
}

// ----- Symmetrized ---------------------------------------------------------------------------------------------------

HCEMU_KERNEL_CHECKS(SymmetrizedHistogram, AllPortStoreAndForwardTakesTheStoutWagarTime) {
  // docs/model.md §9: (1 - 2^-d)·τm/d + dλ with m = 4·bins bytes; bins = 3·d·2^d so that every sub-block is whole.
  auto bins_of = [](int d) { return std::size_t{3} * static_cast<std::size_t>(std::max(d, 1)) << d; };
  auto check = histogram_check(bins_of, 400, symmetrized());
  check.dims(0, 8)
      .ports({"all"})
      .base(link_bound_machine())
      .predict([bins_of](const MachineConfig& cfg) -> std::optional<Time> {
        if (cfg.d == 0) return 0;
        const auto m = static_cast<Time>(4 * bins_of(cfg.d));
        const Time n = Time{1} << cfg.d;
        return (n - 1) * from_us(0.01) * m / (n * cfg.d) + cfg.d * from_us(10);
      });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(SymmetrizedHistogram, MatchesStoutAndWagarNumericExamples) {
  // Stout & Wagar (1990), the paper's worked values, τ = 1 per item (0.25 µs per byte of a 4-byte bin): d = 3, β = 12,
  // m = 3600 gives 1086; d = 4, β = 16, m = 4800 gives 1189.
  for (auto [d, beta, bins, want] :
       {std::tuple{3, 12.0, std::size_t{3600}, 1086.0}, {4, 16.0, std::size_t{4800}, 1189.0}}) {
    auto check = histogram_check(fixed(bins), 1000, symmetrized());
    check.dims({d})
        .ports({"all"})
        .base(link_bound_machine(beta, 0.25))
        .predict([want](const MachineConfig&) -> std::optional<Time> { return from_us(want); });
    checks.add(check);
  }
}

HCEMU_KERNEL_CHECKS(SymmetrizedHistogram, OddBinCountsPadTheSubBlocks) {
  // 1001 bins on a 3-cube: blocks of ⌈1001/8⌉ = 126 bins, sub-blocks of 42: Σ_s (λ' + 4τ·42·2^(3-s)).
  auto hand = histogram_check(fixed(1001), 100, symmetrized());
  hand.dims({3}).ports({"all"}).base(circuit_machine()).predict([](const MachineConfig&) -> std::optional<Time> {
    return 3 * (from_us(10) + from_us(3) + from_us(2)) + 4 * 42 * 7 * from_us(0.01);
  });
  checks.add("by hand", hand);
  for (std::size_t bins : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{1001}}) {
    auto check = histogram_check(fixed(bins), bins == 0 ? 0 : 300, symmetrized());
    check.dims(0, 8).ports({"all"}).base(circuit_machine()).predict([bins](const MachineConfig& cfg) {
      return model::symmetrized_histogram_time(cfg, bins, bins == 0 ? 0 : 300);
    });
    checks.add("bins = " + std::to_string(bins), check);
  }
}

HCEMU_KERNEL_CHECKS(SymmetrizedHistogram, UsesEveryDirectedLinkEqually) {
  // In every stage the d groups use the d links of every node, one each.
  auto check = histogram_check(fixed(3 * 5 * 32), 100, symmetrized());
  check.dims({3, 5}).ports({"all"}).base(link_bound_machine()).check(test::every_link_equally_busy);
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(SymmetrizedHistogram, RunsOnOnePortWithoutAClosedForm) {
  auto check = histogram_check(fixed(96), 50, symmetrized());
  check.dims(0, 5).ports({"one", "half"}).base(circuit_machine()).predict([](const MachineConfig& cfg) {
    return model::symmetrized_histogram_time(cfg, 96, 50);
  });
  check.check(test::no_closed_form);
  checks.add(check);
}

// ----- Every kernel ---------------------------------------------------------------------------------------------

HCEMU_KERNEL_CHECKS(Histograms, PostEveryReceiveBeforeItsMessageArrivesUnderForced) {
  MachineConfig forced = circuit_machine();
  forced.protocol = Protocol::forced;
  for (const auto& [name, kernel] : std::vector<std::pair<std::string, Histogram>>{
           {"recursive-halving", recursive_halving()}, {"symmetrized", symmetrized()}}) {
    auto check = histogram_check(fixed(200), 100, kernel);
    check.dims(0, 6).ports({"one", "all"}).base(forced);
    checks.add(name, check);
  }
}

TEST(Histograms, OwnedSpanOfTheWrongSizeIsAUsageError) {
  MachineConfig c = circuit_machine();
  c.d = 1;
  Machine machine(c);
  EXPECT_THROW(machine.run([](Node& node) {
    std::vector<std::uint32_t> values(10, 1), owned(3);  // 8 bins on 2 nodes: 4 each
    kernels::recursive_halving_histogram(node, values, 8, owned);
  }),
               KernelError);
}

// ----- Registry ------------------------------------------------------------------------------------------------------

TEST(HistogramRegistry, EveryAlgoVerifiesAndMeetsItsPrediction) {
  const harness::KernelFamily& info = harness::find_family("histogram");
  MachineConfig config = circuit_machine();
  config.d = 5;
  config.ports = Ports::parse("all");
  config.flop = 0.001;
  for (const std::string& algo : info.algorithm_names()) {
    for (std::size_t bins : {std::size_t{960}, std::size_t{1001}}) {
      SCOPED_TRACE(algo + " bins " + std::to_string(bins));
      harness::KernelCase c;
      c.algo = algo;
      c.m = bins;
      c.seed = 11;
      const harness::KernelResult r = info.run(config, {}, c);
      EXPECT_TRUE(r.verified) << r.verify_message;
      ASSERT_TRUE(r.predicted.has_value());
      EXPECT_EQ(r.report.makespan, *r.predicted);
    }
  }
}

}  // namespace
}  // namespace hcemu
