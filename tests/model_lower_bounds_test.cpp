// Lower bounds (Stout & Wagar 1990 §9; Johnsson & Ho 1987 T_lb): each is the papers' bound on its model, no
// algorithm's time (closed form or emulated) is below it, and the algorithms the papers prove optimal meet it in the
// highest-order term.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/algorithm.hpp"
#include "hcemu/hcemu.hpp"
#include "hcemu/kernels/long_send.hpp"
#include "hcemu/kernels/permutation.hpp"
#include "hcemu/kernels/scatter.hpp"
#include "hcemu/model/all_port_exchange.hpp"
#include "hcemu/model/collectives.hpp"
#include "hcemu/model/exchange.hpp"
#include "hcemu/model/long_send.hpp"
#include "hcemu/model/lower_bounds.hpp"
#include "hcemu/model/permutation.hpp"
#include "hcemu/model/scatter.hpp"
#include "hcemu/model/torus_exchange_cost.hpp"
#include "hcemu/model/transpose.hpp"
#include "kernel_machines.hpp"

namespace hcemu {
namespace {

using test::circuit_machine;
using test::link_bound_machine;

MachineConfig with(MachineConfig c, int d, const char* ports) {
  c.d = d;
  c.ports = Ports::parse(ports);
  return c;
}

// The machines every bound is checked on: the paper's link-bound cube, and circuit, one-port, half, k:2, packets.
std::vector<MachineConfig> machines(int d) {
  MachineConfig packets = link_bound_machine();
  packets.packet = 64;
  return {with(link_bound_machine(), d, "all"),
          with(circuit_machine(), d, "all"),
          with(link_bound_machine(), d, "one"),
          with(circuit_machine(), d, "one"),
          with(circuit_machine(), d, "half"),
          with(circuit_machine(), d, "k:2"),
          with(packets, d, "all"),
          with(packets, d, "one")};
}

std::string name(const MachineConfig& c) {
  return "d=" + std::to_string(c.d) + " ports=" + c.ports.str() +
         (c.switching == Switching::circuit ? " circuit" : " store-and-forward") +
         (c.packet ? " packet=" + std::to_string(c.packet) : "") + " " + c.topology.str();
}

// `time` is not below `bound`; nullopt (no closed form) passes.
void expect_above(std::optional<Time> time, Time bound, const std::string& what) {
  if (time) {
    EXPECT_GE(*time, bound) << what << ": " << to_us(*time) << " us below the lower bound " << to_us(bound);
  }
}

// ----- The papers' bounds --------------------------------------------------------------------------------------------

TEST(LowerBounds, BroadcastIsTheRootsOutLinksOrTheDiameter) {
  // Stout & Wagar §9: τm/d + β; d = 3, β = 12, τ = 1, m = 3600: 1212. The diameter, 3(β + τ) = 39, is smaller.
  EXPECT_EQ(model::broadcast_lower_bound(with(link_bound_machine(12, 1), 3, "all"), 3600), from_us(1212));
  // Johnsson & Ho Table 1, T_lb(1,1) = max(M·t_c, nτ): a one-port root sends all M itself (β = 12, τ = 1: 12 + 1024),
  // and with M = 1 the d = 5 hops dominate: 5·(10 + 0.01).
  EXPECT_EQ(model::broadcast_lower_bound(with(link_bound_machine(12, 1), 5, "one"), 1024), from_us(12 + 1024));
  EXPECT_EQ(model::broadcast_lower_bound(with(link_bound_machine(), 5, "one"), 1), 5 * from_us(10.01));
  // Circuit, one-port: informed nodes at most double per transfer, so d transfers (the nτ of T_lb(1,1)).
  EXPECT_EQ(model::broadcast_lower_bound(with(circuit_machine(), 5, "one"), 1), 5 * from_us(10 + 3 + 2 + 0.01));
  // All-port circuit: (d + 1)^r >= 2^d needs r = 2 for d = 5.
  EXPECT_EQ(model::broadcast_lower_bound(with(circuit_machine(), 5, "all"), 1), 2 * from_us(10 + 3 + 2 + 0.01));
}

TEST(LowerBounds, BroadcastFourMeetsTheFixedPacketBoundExactly) {
  // Stout & Wagar §2: with packets of s bytes, (d + m/(ds) - 1)(τs + β), which is BROADCAST 4 with g = m/(ds).
  for (int d = 1; d <= 8; ++d)
    for (int g = 1; g <= 5; ++g) {
      const MachineConfig c = with(link_bound_machine(), d, "all");
      const std::size_t s = 30, m = s * static_cast<std::size_t>(d * g);
      EXPECT_EQ(model::fixed_packet_broadcast_lower_bound(c, m, s), (d + g - 1) * from_us(10 + 0.3)) << d << " " << g;
      EXPECT_EQ(model::pipelined_broadcast_time(c, m, g), model::fixed_packet_broadcast_lower_bound(c, m, s));
    }
}

TEST(LowerBounds, ScatterIsTheRootsLinks) {
  // Stout & Wagar §9: (2^d - 1)τm/d + β; d = 3, β = 12, τ = 1, m = 840: 7·280 + 12. Johnsson & Ho Table 3 one-port:
  // (N - 1)M·t_c + τ. The d hops, 3·13, are far below.
  EXPECT_EQ(model::scatter_lower_bound(with(link_bound_machine(12, 1), 3, "all"), 840), from_us(12 + 1960));
  EXPECT_EQ(model::scatter_lower_bound(with(link_bound_machine(12, 1), 3, "one"), 840), from_us(12 + 5880));
  EXPECT_EQ(model::gather_lower_bound(with(link_bound_machine(12, 1), 3, "all"), 840), from_us(12 + 1960));
}

TEST(LowerBounds, AllgatherIsANodesInLinks) {
  // Stout & Wagar §9 complete broadcast: (2^d - 1)τm/d + β.
  EXPECT_EQ(model::allgather_lower_bound(with(link_bound_machine(12, 1), 4, "all"), 400), from_us(12 + 1500));
  // Half duplex: a node's m out and (2^d - 1)m in share one port.
  EXPECT_EQ(model::allgather_lower_bound(with(link_bound_machine(12, 1), 2, "half"), 100),
            from_us(12 + 100) + from_us(12 + 300));
}

TEST(LowerBounds, CompleteExchangeAndInversionAreTheBisection) {
  // Stout & Wagar §9: 2^(d-1)τm + β for the complete exchange, τm + β for inversion.
  // β = 12, τ = 1, d = 5, m = 100: 1600 + 12 and 100 + 12 (the d hops, 5·13, are below).
  EXPECT_EQ(model::complete_exchange_lower_bound(with(link_bound_machine(12, 1), 5, "all"), 100), from_us(12 + 1600));
  EXPECT_EQ(model::permutation_lower_bound(with(link_bound_machine(12, 1), 5, "all"), 100,
                                           model::inversion_permutation(5).image),
            from_us(12 + 100));
  // One-port: every node's port carries its (2^d - 1)m.
  EXPECT_EQ(model::complete_exchange_lower_bound(with(link_bound_machine(12, 1), 5, "one"), 100), from_us(12 + 3100));
  // Small messages: the d hops, d(β + τ).
  EXPECT_EQ(model::permutation_lower_bound(with(link_bound_machine(12, 1), 5, "all"), 1,
                                           model::inversion_permutation(5).image),
            5 * from_us(13));
  // The identity moves nothing.
  std::vector<std::uint32_t> identity(32);
  for (std::uint32_t i = 0; i < 32; ++i) identity[i] = i;
  EXPECT_EQ(model::permutation_lower_bound(with(link_bound_machine(12, 1), 5, "all"), 100, identity), 0);
}

TEST(LowerBounds, CompleteExchangeOnAGridIsItsBisection) {
  // A one-port circuit machine, λ = 50 µs, τ = 0.01 µs/byte, no set-ups, m = 8 bytes (hand-worked).
  MachineConfig c;
  c.lambda = 50.0;
  c.tau = 0.01;
  c.d = 8;
  c.topology = Topology::parse("torus");  // 16 x 16
  // Ports: 255·8 = 2040 bytes, 70.4 µs. Cut: 128·128·8 bytes over 2·16 links, 4096 each: 50 + 40.96 µs.
  EXPECT_EQ(model::complete_exchange_lower_bound(c, 8), from_us(90.96));
  c.topology = Topology::parse("mesh");  // no wrap-around: 16 links, 8192 bytes each
  EXPECT_EQ(model::complete_exchange_lower_bound(c, 8), from_us(131.92));
  c.d = 5;
  c.topology = Topology::parse("torus:4x8");
  // Ports: 31·8 = 248 bytes, 52.48 µs; cut across the 8-node rows: 16·16·8 bytes over 2·4 links, 256 each: 52.56.
  EXPECT_EQ(model::complete_exchange_lower_bound(c, 8), from_us(52.56));
  // T2 on the 16 x 16 torus (model::torus_exchange_time) is above its bound.
  c.d = 8;
  c.topology = Topology::parse("torus");
  EXPECT_GT(model::torus_exchange_time(c, 4, 0, 8), model::complete_exchange_lower_bound(c, 8));
}

TEST(LowerBounds, ReflectionNeedsWhatInversionNeeds) {
  // Stout & Wagar §9: reflection (each node swaps with its neighbour across dimension d - 1) has the smallest total
  // distance of the fixed-point-free permutations but the same τm + β across the cut (for messages long enough that
  // the cut, not the distance, decides).
  std::vector<std::uint32_t> reflection(64);
  for (std::uint32_t s = 0; s < 64; ++s) reflection[s] = s ^ 32u;
  const MachineConfig c = with(link_bound_machine(12, 1), 6, "all");
  EXPECT_EQ(model::permutation_lower_bound(c, 600, reflection),
            model::permutation_lower_bound(c, 600, model::inversion_permutation(6).image));
}

TEST(LowerBounds, BlockTransposeIsHalfABlockOnEveryLink) {
  // Stout & Wagar §9: S = all d·2^d links, a = d·N²/2: τN²/2^(d+1) + β. d = 4, N = 16·4, 4-byte elements: blocks of
  // 16·16·4 = 1024 bytes, 512 per link (β = 12, τ = 1; the longest route, 4 hops, takes 4·13).
  EXPECT_EQ(model::block_transpose_lower_bound(with(link_bound_machine(12, 1), 4, "all"), 64, 4), from_us(12 + 512));
  EXPECT_EQ(model::block_transpose_lower_bound(with(link_bound_machine(12, 1), 3, "all"), 64, 4), 0);
}

TEST(LowerBounds, HistogramIsNodeZerosOutLinks) {
  // Stout & Wagar §9: (1 - 2^-d)τm/d + β with unit items of 4 bytes; d = 3, 2400 bins: 2100·4/3 = 2800 bytes.
  EXPECT_EQ(model::histogram_lower_bound(with(link_bound_machine(12, 1), 3, "all"), 2400), from_us(12 + 2800));
}

TEST(LowerBounds, LongSendIsTheSourcesLinksOrTheDistance) {
  // Stout & Wagar §3: at least τm/d + β to get the data out of the source.
  EXPECT_EQ(model::long_send_lower_bound(with(link_bound_machine(12, 1), 4, "all"), 4000, 0, 15), from_us(12 + 1000));
  EXPECT_EQ(model::long_send_lower_bound(with(link_bound_machine(12, 1), 4, "all"), 4, 0, 15), 4 * from_us(13));
  EXPECT_EQ(model::long_send_lower_bound(with(link_bound_machine(12, 1), 4, "all"), 4000, 5, 5), 0);
}

// ----- No closed form is below its bound -----------------------------------------------------------------------------

TEST(LowerBounds, NoClosedFormIsBelowItsBound) {
  for (int d = 0; d <= 7; ++d)
    for (const MachineConfig& c : machines(d))
      for (std::size_t m : {std::size_t{1}, std::size_t{100}, std::size_t{840}, std::size_t{10007}}) {
        const std::string at = name(c) + " m=" + std::to_string(m);
        const Time bcast = model::broadcast_lower_bound(c, m);
        expect_above(model::sbt_broadcast_time(c, m), bcast, "sbt " + at);
        expect_above(model::symmetrized_broadcast_time(c, m), bcast, "bcast2 " + at);
        expect_above(model::systolic_broadcast_time(c, m), bcast, "bcast3a " + at);
        for (int g : {1, 3, model::optimal_broadcast_groups(c, m)})
          expect_above(model::pipelined_broadcast_time(c, m, g), bcast, "bcast4 " + at);
        expect_above(model::nesbt_broadcast_time(c, m, model::optimal_nesbt_chunk(c, m)), bcast, "nesbt " + at);

        for (int n = 0; n <= d; ++n) {
          const int dst = (1 << n) - 1;
          const Time send = model::long_send_lower_bound(c, m, 0, dst);
          const std::string pair = at + " n=" + std::to_string(n);
          expect_above(model::direct_send_time(c, m, n), send, "direct " + pair);
          expect_above(model::oc_send_1_time(c, m, n), send, "ocs1 " + pair);
          expect_above(model::oc_send_2_time(c, m, n), send, "ocs2 " + pair);
          expect_above(model::oc_send_3_time(c, m, n), send, "ocs3 " + pair);
          expect_above(model::oc_send_4_time(c, m, n, model::optimal_oc_send_groups(c, m, n)), send, "ocs4 " + pair);
          expect_above(model::arbitrary_send_2_time(c, m, n, model::optimal_arbitrary_send_2_groups(c, m, n)), send,
                       "as2 " + pair);
          expect_above(model::xoc_send_time(c, m, n, 2), send, "xocs " + pair);
          expect_above(model::arbitrary_send_3_time(c, m, n, 2, 1), send, "as3 " + pair);
        }

        const Time scatter = model::scatter_lower_bound(c, m), gather = model::gather_lower_bound(c, m);
        expect_above(model::distribute_1_time(c, m), scatter, "distribute1 " + at);
        expect_above(model::distribute_2_time(c, m), scatter, "distribute2 " + at);
        expect_above(model::sbt_scatter_time(c, m), scatter, "sbt scatter " + at);
        expect_above(model::sbnt_scatter_time(c, m), scatter, "sbnt scatter " + at);
        expect_above(model::collect_1_time(c, m), gather, "collect1 " + at);
        expect_above(model::collect_2_time(c, m), gather, "collect2 " + at);
        expect_above(model::sbt_gather_time(c, m), gather, "sbt gather " + at);

        const Time allgather = model::allgather_lower_bound(c, m);
        expect_above(model::recursive_doubling_allgather_time(c, m), allgather, "recursive doubling " + at);
        expect_above(model::completed_allgather_time(c, m), allgather, "complete broadcast " + at);

        const Time exchange = model::complete_exchange_lower_bound(c, m);
        expect_above(model::direct_exchange_time(c, m), exchange, "direct exchange " + at);
        if (d >= 1) expect_above(model::standard_exchange_time(c, m), exchange, "standard exchange " + at);
        expect_above(model::all_port_exchange_time(c, m), exchange, "all-port exchange " + at);

        for (const auto& perm : {model::inversion_permutation(d), model::bit_reversal_permutation(d),
                                 model::shuffle_permutation(d), model::random_permutation(d, 5)}) {
          const Time bound = model::permutation_lower_bound(c, m, perm.image);
          expect_above(model::ecube_permutation_time(c, m, perm.image), bound, "ecube " + perm.name + " " + at);
          expect_above(model::permuted_send_time(c, m), bound, "permuted send " + perm.name + " " + at);
          if (perm.name == "inversion") expect_above(model::inversion_time(c, m), bound, "inversion " + at);
        }

        const Time histogram = model::histogram_lower_bound(c, m);
        expect_above(model::recursive_halving_histogram_time(c, m, m), histogram, "recursive halving " + at);
        expect_above(model::symmetrized_histogram_time(c, m, m), histogram, "histogram " + at);
      }
}

TEST(LowerBounds, NoTransposeClosedFormIsBelowItsBound) {
  for (int d = 0; d <= 8; ++d)
    for (const MachineConfig& c : machines(d))
      for (std::size_t side : {std::size_t{1}, std::size_t{3}, std::size_t{16}}) {
        const std::string at = name(c) + " side=" + std::to_string(side);
        const std::size_t rows_n = side << d;
        const std::size_t m = model::row_transpose_block_bytes(d, rows_n, 4);
        const Time rows = model::row_transpose_lower_bound(c, rows_n, 4);
        expect_above(model::row_transpose_time(c, rows_n, 4, model::direct_exchange_time(c, m)), rows,
                     "rows-direct " + at);
        if (const auto e = model::all_port_exchange_time(c, m)) {
          expect_above(model::row_transpose_time(c, rows_n, 4, *e), rows, "rows-all-port " + at);
        }
        if (d % 2 != 0) continue;
        const std::size_t grid_n = side << (d / 2);
        const Time blocks = model::block_transpose_lower_bound(c, grid_n, 4);
        expect_above(model::johnsson_ho_transpose_time(c, grid_n, 4), blocks, "johnsson-ho " + at);
        expect_above(model::stout_wagar_transpose_time(c, grid_n, 4, model::stout_wagar_packets(c, grid_n, 4)), blocks,
                     "stout-wagar " + at);
      }
}

// ----- No emulated run is below its bound
// -----------------------------------------------------------------------------

// The bound of a harness case of the existing families.
Time registry_bound(const std::string& family, const MachineConfig& c, const harness::KernelCase& k) {
  if (family == "broadcast") return model::broadcast_lower_bound(c, k.m);
  if (family == "allgather") return model::allgather_lower_bound(c, k.m);
  if (family == "exchange") return model::complete_exchange_lower_bound(c, k.m);
  if (family == "histogram") return model::histogram_lower_bound(c, k.m);
  // transpose: sub-blocks of side s = sqrt(m/4) (run_case.m is s·s·4)
  const auto s = static_cast<std::size_t>(std::llround(std::sqrt(static_cast<double>(k.m / 4))));
  if (k.algo.starts_with("rows")) return model::row_transpose_lower_bound(c, s << c.d, 4);
  return model::block_transpose_lower_bound(c, s << (c.d / 2), 4);
}

// The machines a family's rows are checked on at dimension d: the cubes, and for the exchange also the square torus
// of 2^d nodes, where its rows t1, t1.x and t2 run (and the hypercube's own rows other than direct refuse to).
std::vector<MachineConfig> row_machines(const std::string& family, int d) {
  std::vector<MachineConfig> out = {with(link_bound_machine(), d, "all"), with(circuit_machine(), d, "one")};
  if (family == "exchange" && d > 0 && d % 2 == 0)
    for (MachineConfig c : std::vector<MachineConfig>(out)) {
      c.topology = Topology::parse("torus");
      out.push_back(c);
    }
  return out;
}

bool cannot_run(const harness::Algorithm& row, const MachineConfig& c) {
  return row.cannot_run && !row.cannot_run(c).empty();
}

TEST(LowerBounds, NoEmulatedRunOfTheExistingFamiliesIsBelowItsBound) {
  for (const std::string family : {"broadcast", "allgather", "exchange", "transpose", "histogram"}) {
    const harness::KernelFamily& info = harness::find_family(family);
    for (int d : {0, 2, 4, 6})
      for (const MachineConfig& c : row_machines(family, d))
        for (const std::string& algo : info.algorithm_names()) {
          if (algo.ends_with("multiphase")) continue;  // needs a partition; direct, standard and auto cover it
          if (cannot_run(info.algorithm(algo), c)) continue;
          harness::KernelCase k;
          k.algo = algo;
          k.m = 400;
          k.seed = 3;
          const harness::KernelResult r = info.run(c, {}, k);
          EXPECT_TRUE(r.verified) << family << " " << algo << " " << name(c);
          const Time bound = registry_bound(family, c, r.run_case);
          EXPECT_GE(r.report.makespan, bound) << family << " " << algo << " " << name(c);
        }
  }
}

TEST(LowerBounds, EveryAlgorithmsRowGivesItsFamilysBound) {
  for (const std::string family : {"broadcast", "allgather", "exchange", "transpose", "histogram"}) {
    const harness::KernelFamily& info = harness::find_family(family);
    for (int d : {0, 2, 4})
      for (const MachineConfig& c : row_machines(family, d))
        for (const harness::Algorithm& row : info.algorithms) {
          if (row.name.ends_with("multiphase")) continue;  // needs a partition
          if (cannot_run(row, c)) continue;
          harness::KernelCase k;
          k.algo = std::string(row.name);
          k.m = 400;
          const harness::KernelCase resolved = info.resolved(c, k);
          ASSERT_TRUE(row.lower_bound) << family << " " << row.name;
          EXPECT_EQ(row.lower_bound(c, resolved), registry_bound(family, c, resolved)) << family << " " << row.name;
        }
  }
}

// Runs `kernel` on every node and returns the makespan.
Time emulate(const MachineConfig& c, const std::function<void(Node&)>& kernel) {
  return Machine(c).run(kernel).makespan;
}

TEST(LowerBounds, NoEmulatedRunOfTheNewFamiliesIsBelowItsBound) {
  const std::size_t m = 210;
  for (int d : {0, 1, 3, 5, 7})
    for (const MachineConfig& c : {with(link_bound_machine(), d, "all"), with(circuit_machine(), d, "one")}) {
      const std::string at = name(c);
      const int far = (1 << d) - 1;
      const Time send = model::long_send_lower_bound(c, m, 0, far);
      using Send = std::function<void(Node&, std::span<std::byte>)>;
      for (const auto& [algo, run] : std::vector<std::pair<std::string, Send>>{
               {"direct", [](Node&n, std::span<std::byte> b) { kernels::direct_send(n, b); }},
               {"ocs1", [](Node&n, std::span<std::byte> b) { kernels::oc_send_1(n, b); }},
               {"ocs2", [](Node&n, std::span<std::byte> b) { kernels::oc_send_2(n, b); }},
               {"ocs4", [](Node&n, std::span<std::byte> b) { kernels::oc_send_4(n, b, 2); }},
               {"as2", [](Node&n, std::span<std::byte> b) { kernels::arbitrary_send_2(n, b, 2); }},
               {"as3",
                [](Node&n, std::span<std::byte> b) { kernels::arbitrary_send_3(n, b, 2, 1, 0, n.size() / 2); }}}) {
        const Time bound = algo == "as3" ? model::long_send_lower_bound(c, m, 0, (1 << d) / 2) : send;
        EXPECT_GE(emulate(c,
                          [&, run = run](Node& n) {
                            std::vector<std::byte> b(m);
                            run(n, b);
                          }),
                  bound)
            << algo << " " << at;
      }

      using Collective = std::function<void(Node&, std::span<const std::byte>, std::span<std::byte>)>;
      for (const auto& [algo, run] : std::vector<std::pair<std::string, Collective>>{
               {"distribute1", [](Node&n, auto in, auto out) { kernels::distribute_1(n, in, out); }},
               {"distribute2", [](Node&n, auto in, auto out) { kernels::distribute_2(n, in, out); }},
               {"sbt", [](Node&n, auto in, auto out) { kernels::sbt_scatter(n, in, out); }},
               {"sbnt", [](Node&n, auto in, auto out) { kernels::sbnt_scatter(n, in, out); }}}) {
        EXPECT_GE(emulate(c,
                          [&, run = run](Node& n) {
                            std::vector<std::byte> all(m << d), mine(m);
                            run(n, all, mine);
                          }),
                  model::scatter_lower_bound(c, m))
            << algo << " " << at;
      }
      for (const auto& [algo, run] : std::vector<std::pair<std::string, Collective>>{
               {"collect1", [](Node&n, auto in, auto out) { kernels::collect_1(n, in, out); }},
               {"collect2", [](Node&n, auto in, auto out) { kernels::collect_2(n, in, out); }},
               {"sbt", [](Node&n, auto in, auto out) { kernels::sbt_gather(n, in, out); }}}) {
        EXPECT_GE(emulate(c,
                          [&, run = run](Node& n) {
                            std::vector<std::byte> mine(m), all(m << d);
                            run(n, mine, all);
                          }),
                  model::gather_lower_bound(c, m))
            << algo << " " << at;
      }

      const auto perm = model::inversion_permutation(d);
      for (const auto& [algo, run] : std::vector<std::pair<std::string, Collective>>{
               {"ecube", [&perm](Node&n, auto in, auto out) { kernels::ecube_permutation(n, in, out, perm); }},
               {"inversion", [](Node&n, auto in, auto out) { kernels::inversion(n, in, out); }},
               {"permuted", [&perm](Node&n, auto in, auto out) { kernels::permuted_send(n, in, out, perm); }}}) {
        EXPECT_GE(emulate(c,
                          [&, run = run](Node& n) {
                            std::vector<std::byte> in(m), out(m);
                            run(n, in, out);
                          }),
                  model::permutation_lower_bound(c, m, perm.image))
            << algo << " " << at;
      }
    }
}

// ----- The optimal algorithms meet their bound in the highest-order term
// -----------------------------------------------

// time / bound - 1: how far above its bound an algorithm is.
double excess(std::optional<Time> time, Time bound) {
  EXPECT_TRUE(time.has_value());
  return time ? static_cast<double>(*time) / static_cast<double>(bound) - 1 : 1e9;
}

// Meets its bound in the highest-order term: the excess tends to 0 as m grows. Lower-order terms in β shrink like
// 1/m, pipelining's √m terms like 1/√m; a hundredfold m must cut the excess at least eightfold, to a few percent.
void expect_meets(const std::function<std::optional<Time>(std::size_t)>& time,
                  const std::function<Time(std::size_t)>& bound, std::size_t m, const std::string& what) {
  const double small = excess(time(m), bound(m)), large = excess(time(100 * m), bound(100 * m));
  EXPECT_LT(large, small / 8) << what;
  EXPECT_LT(large, 0.03) << what;
}

TEST(LowerBounds, ThePapersOptimalAlgorithmsMeetTheirBoundForLongMessages) {
  // Stout & Wagar §9: "the coefficients of the high-order terms are the least possible". The paper's machine,
  // β = 10 µs, τ = 0.01 µs/byte; m = 2^7·420·100 so that every piece of the exchanges divides into its units.
  const std::size_t m = std::size_t{128} * 420 * 100;
  for (int d = 2; d <= 7; ++d) {
    const MachineConfig c = with(link_bound_machine(), d, "all");
    const MachineConfig one = with(link_bound_machine(), d, "one");
    const int far = (1 << d) - 1;
    const std::string at = " d=" + std::to_string(d);
    expect_meets(
        [&](std::size_t x) { return model::pipelined_broadcast_time(c, x, model::optimal_broadcast_groups(c, x)); },
        [&](std::size_t x) { return model::broadcast_lower_bound(c, x); }, m, "bcast4" + at);
    expect_meets([&](std::size_t x) { return model::oc_send_4_time(c, x, d, model::optimal_oc_send_groups(c, x, d)); },
                 [&](std::size_t x) { return model::long_send_lower_bound(c, x, 0, far); }, m, "ocs4" + at);
    for (int n : {1, d - 1}) {
      expect_meets(
          [&](std::size_t x) {
            return model::arbitrary_send_3_time(
                c, x, n, model::optimal_oc_send_groups(c, model::arbitrary_send_3_oc_bytes(d, x, n), n),
                model::optimal_xoc_send_groups(c, model::arbitrary_send_3_xoc_bytes(d, x, n), n));
          },
          [&](std::size_t x) { return model::long_send_lower_bound(c, x, 0, (1 << n) - 1); }, m,
          "as3 n=" + std::to_string(n) + at);
    }
    const auto block = [d](std::size_t x) { return x >> d; };
    expect_meets([&](std::size_t x) { return model::distribute_1_time(c, block(x)); },
                 [&](std::size_t x) { return model::scatter_lower_bound(c, block(x)); }, m, "distribute1" + at);
    expect_meets([&](std::size_t x) { return model::distribute_2_time(c, block(x)); },
                 [&](std::size_t x) { return model::scatter_lower_bound(c, block(x)); }, m, "distribute2" + at);
    expect_meets([&](std::size_t x) { return model::collect_1_time(c, block(x)); },
                 [&](std::size_t x) { return model::gather_lower_bound(c, block(x)); }, m, "collect1" + at);
    expect_meets([&](std::size_t x) { return model::collect_2_time(c, block(x)); },
                 [&](std::size_t x) { return model::gather_lower_bound(c, block(x)); }, m, "collect2" + at);
    expect_meets([&](std::size_t x) { return model::completed_allgather_time(c, block(x)); },
                 [&](std::size_t x) { return model::allgather_lower_bound(c, block(x)); }, m,
                 "complete broadcast" + at);
    expect_meets([&](std::size_t x) { return model::all_port_exchange_time(c, block(x)); },
                 [&](std::size_t x) { return model::complete_exchange_lower_bound(c, block(x)); }, m,
                 "complete exchange" + at);
    const auto inv = model::inversion_permutation(d).image;
    expect_meets([&](std::size_t x) { return model::inversion_time(c, x); },
                 [&](std::size_t x) { return model::permutation_lower_bound(c, x, inv); }, m, "inversion" + at);
    // PERMUTED SEND is optimal in the worst case, which inversion is.
    expect_meets([&](std::size_t x) { return model::permuted_send_time(c, x); },
                 [&](std::size_t x) { return model::permutation_lower_bound(c, x, inv); }, m, "permuted send" + at);
    expect_meets([&](std::size_t x) { return model::symmetrized_histogram_time(c, x / 4, 0); },
                 [&](std::size_t x) { return model::histogram_lower_bound(c, x / 4); }, m, "histogram" + at);
    // Johnsson & Ho, one-port: SBT-p and recursive doubling move (N - 1)M through a single port.
    expect_meets([&](std::size_t x) { return std::optional<Time>(model::sbt_scatter_time(one, block(x))); },
                 [&](std::size_t x) { return model::scatter_lower_bound(one, block(x)); }, m, "sbt scatter" + at);
    expect_meets([&](std::size_t x) { return std::optional<Time>(model::sbt_gather_time(one, block(x))); },
                 [&](std::size_t x) { return model::gather_lower_bound(one, block(x)); }, m, "sbt gather" + at);
    expect_meets(
        [&](std::size_t x) { return std::optional<Time>(model::recursive_doubling_allgather_time(one, block(x))); },
        [&](std::size_t x) { return model::allgather_lower_bound(one, block(x)); }, m, "recursive doubling" + at);
  }
  for (int d : {2, 4, 6}) {  // the transposes, 4-byte elements: by rows and by blocks of side x
    const MachineConfig c = with(link_bound_machine(), d, "all");
    const std::string at = " d=" + std::to_string(d);
    expect_meets(
        [&](std::size_t x) {
          const std::size_t n = x << d;
          return std::optional<Time>(model::row_transpose_time(
              c, n, 4, *model::all_port_exchange_time(c, model::row_transpose_block_bytes(d, n, 4))));
        },
        [&](std::size_t x) { return model::row_transpose_lower_bound(c, x << d, 4); }, 420, "rows-all-port" + at);
    expect_meets(
        [&](std::size_t x) {
          // The paper's kp = sqrt(τm/(2β)) packets per link (the registry caps its choice at 64).
          const std::size_t n = x << (d / 2);
          const double block = static_cast<double>(model::grid_block_bytes(d, n, 4));
          const int kp = std::max(d, static_cast<int>(std::lround(std::sqrt(0.01 * block / (2 * 10)))));
          return model::stout_wagar_transpose_time(c, n, 4, kp);
        },
        [&](std::size_t x) { return model::block_transpose_lower_bound(c, x << (d / 2), 4); }, 420, "stout-wagar" + at);
  }
}

TEST(LowerBounds, TheUnsymmetrizedOrUnpipelinedOnesStayAFactorAway) {
  // BROADCAST 2 and O.C. SEND 2 send m through every stage (τm against τm/d); ARBITRARY SEND 1 at distance 1 uses one
  // link of d; Johnsson & Ho's SBT broadcast is n times its bound on one port.
  const std::size_t m = 84'000'000;
  for (int d = 3; d <= 7; ++d) {
    const MachineConfig c = with(link_bound_machine(), d, "all");
    SCOPED_TRACE("d = " + std::to_string(d));
    EXPECT_GT(excess(model::symmetrized_broadcast_time(c, m), model::broadcast_lower_bound(c, m)), 0.99 * d - 1);
    EXPECT_GT(excess(model::oc_send_2_time(c, m, d), model::long_send_lower_bound(c, m, 0, (1 << d) - 1)),
              0.99 * d - 1);
    EXPECT_GT(excess(model::oc_send_4_time(c, m, 1, 1), model::long_send_lower_bound(c, m, 0, 1)), 0.99 * d - 1);
    const MachineConfig one = with(link_bound_machine(), d, "one");
    EXPECT_GT(excess(model::sbt_broadcast_time(one, m), model::broadcast_lower_bound(one, m)), 0.99 * d - 1);
  }
}

}  // namespace
}  // namespace hcemu
