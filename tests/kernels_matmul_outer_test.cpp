// The pipelined outer products (Johnsson & Ho 1987 §5.2.1, Figure 16) on hcemu's MIMD nodes: the product is the
// serial one, and the makespan is the longest chain of block products W and block transfers T_C, T_D through the
// nodes' port queues (docs/model.md §4, §5), written out below per port model as docs/kernels/matmul.md derives it.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "hcemu/hcemu.hpp"
#include "hcemu/model/costs.hpp"
#include "kernel_machines.hpp"
#include "matmul_support.hpp"
#include "model/outer_product_chain.hpp"

namespace hcemu {
namespace {

using model::Grid;
using model::MatmulOptions;
using model::MatmulShape;
using A = model::MatmulAlgorithm;

MatmulOptions outer(std::size_t element_bytes = 8) {
  MatmulOptions o;
  o.algorithm = A::outer_product;
  o.element_bytes = element_bytes;
  return o;
}

// Every term of a transfer and of a product shows: start-up, δ, δ', τ, packets of 64 doubles, t_a and t_o.
MachineConfig circuit(int d, const char* ports) {
  MachineConfig c = test::matmul_machine(d, ports);
  c.compute_overhead = 0.75;
  return c;
}

struct Terms {
  Time w, tc, td;  // a block product; C's block and D's over one link
};

Terms terms(const MachineConfig& c, const MatmulShape& shape, std::size_t element_bytes) {
  const Grid g{c.d / 2, c.d / 2};
  const auto cb = model::block_shape(shape.P, shape.Q, g), db = model::block_shape(shape.Q, shape.R, g);
  return {model::compute_time(c, 2 * cb.size() * db.cols), model::message_time(c, element_bytes * cb.size(), 1),
          model::message_time(c, element_bytes * db.size(), 1)};
}

// docs/kernels/matmul.md, "The pipelined outer product": the longest chain, s = 2^(d/2).
Time chain(const MachineConfig& c, const Terms& x) {
  const Time s = Time{1} << (c.d / 2), w = x.w, t = x.tc + x.td, big = std::max(x.tc, x.td);
  const bool two_at_once = c.ports.kind == Ports::Kind::all || (c.ports.kind == Ports::Kind::k && c.ports.n >= 2);
  const bool half = c.ports.kind == Ports::Kind::half;
  if (s == 1) return w;
  if (s == 2) return two_at_once ? 4 * w + 2 * big : half ? 4 * w + 2 * t + big : std::max(3 * w + 2 * t, 4 * w + t + big);
  if (half) return 2 * s * w + (3 * s - 3) * t;
  if (!two_at_once) return (2 * s - 2) * (w + t) + w + std::max(w, t);
  Time most = 0;
  for (auto [a, b] : {std::pair{x.tc, x.td}, std::pair{x.td, x.tc}})
    most = std::max({most, (s + 3) * w + a + (2 * s - 2) * b, (2 * s - 1) * w + (s / 2 - 1) * a + (3 * s / 2) * b,
                     2 * s * w + (s / 2 - 1) * a + (3 * s / 2 - 1) * b});
  return most;
}

void expect_chain(const MachineConfig& c, const MatmulShape& shape, std::size_t element_bytes = 8) {
  const test::MatmulRun run = test::check_matmul(c, shape, outer(element_bytes));
  const Time want = chain(c, terms(c, shape, element_bytes));
  EXPECT_EQ(run.report.makespan, want) << "d = " << c.d << " ports " << c.ports.str() << " emulated "
                                       << run.report.makespan_us() << " us, the chain " << to_us(want);
}

// Blocks that divide evenly, padded ones, C's block larger than D's and smaller, single elements.
const std::vector<MatmulShape> kShapes = {{16, 16, 16}, {13, 7, 11}, {3, 20, 5}, {24, 8, 40}, {1, 1, 1}};

TEST(PipelinedOuterProduct, MeetsTheChainOnEveryPortModel) {
  for (const char* ports : {"one", "half", "k:1", "k:2", "k:3", "all"})
    for (int d : {0, 2, 4, 6})
      for (const MatmulShape& shape : kShapes) expect_chain(circuit(d, ports), shape);
  for (const char* ports : {"one", "half", "all"}) expect_chain(circuit(8, ports), {48, 32, 16});  // s = 16
}

TEST(PipelinedOuterProduct, ProductOrTransfersDominateTheChain) {
  // One-port, s = 4: (2s - 2)(W + T) + W + max(W, T). A slow product (t_a large) takes its second product at ring
  // position (2, 0), fast products take its port's second pair; both ends of the max show here.
  for (double flop : {0.0, 0.001, 0.5, 20.0})
    for (const char* ports : {"one", "half", "all"}) {
      MachineConfig c = circuit(4, ports);
      c.flop = flop;
      expect_chain(c, {16, 16, 16});
      expect_chain(c, {8, 32, 4});
    }
}

// The presets' machines, key by key (configs/*.toml).
MachineConfig ipsc_yale() {  // store-and-forward, 1 KB packets, 30 kflops, the paper's 4-byte floats
  MachineConfig c = test::link_bound_machine(1500.0, 1.0);
  c.packet = 1024;
  c.flop = 33.333;
  c.element = 4;
  c.ports = Ports::parse("one");
  return c;
}
MachineConfig ipsc860() {  // circuit switching, FORCED: every receive is posted before the first send
  MachineConfig c;
  c.lambda = 95.0;
  c.lambda0 = 85.5;
  c.tau = 0.394;
  c.delta_msg = 5.15 * 5;
  c.rho = 0.54;
  c.barrier_b = 150;
  c.protocol = Protocol::forced;
  return c;
}
MachineConfig linkbound() {  // all-port store-and-forward
  MachineConfig c = test::link_bound_machine(100.0, 1.0);
  c.ports = Ports::parse("all");
  return c;
}

TEST(PipelinedOuterProduct, MeetsTheChainOnThePresets) {
  for (MachineConfig c : {ipsc_yale(), ipsc860(), linkbound()})
    for (int d : {2, 4, 6})
      for (const MatmulShape& shape : {MatmulShape{32, 32, 32}, MatmulShape{40, 24, 8}})
        for (const char* ports : {"one", "all"}) {
          c.d = d;
          c.ports = Ports::parse(ports);
          expect_chain(c, shape, c.element);
        }
}

TEST(PipelinedOuterProduct, AHandWorkedCase) {
  // d = 4 (s = 4), P = 8, Q = 12, R = 4 doubles: blocks C 2 × 3, D 3 × 1. Store-and-forward, λ = 7 µs,
  // τ = 0.5 µs/byte, t_a = 0.25 µs: T_C = 7 + 48·0.5 = 31, T_D = 7 + 24·0.5 = 19, W = 0.25·2·2·3·1 = 3 µs.
  // One-port: 6·(3 + 50) + 3 + max(3, 50) = 371 µs. Half duplex: 8·3 + 9·50 = 474 µs. All-port: X = T_D, Y = T_C:
  // 7·3 + 19 + 6·31 = 226 µs (the other sums: 166, 150, 7·3 + 1·19 + 6·31 = 226, 8·3 + 19 + 5·31 = 198).
  MachineConfig c = test::link_bound_machine(7, 0.5);
  c.d = 4;
  c.flop = 0.25;
  for (auto [ports, us] : {std::pair{"one", 371.0}, std::pair{"half", 474.0}, std::pair{"all", 226.0}}) {
    c.ports = Ports::parse(ports);
    const test::MatmulRun run = test::check_matmul(c, {8, 12, 4}, outer());
    EXPECT_EQ(run.report.makespan, from_us(us)) << ports;
  }
}

TEST(PipelinedOuterProduct, APortOverlapTakesTheChainOverTheScheduleATorusNone) {
  // docs/kernels/matmul.md: an early-freed port lets a pair's second transfer start under the first, so on one port
  // no sum of W, T_C and T_D stays the longest chain; the model follows the schedule's chains instead
  // (model::outer_products_longest_chain). A torus's Gray-code neighbours are not one hop apart: no time at all.
  for (const char* one : {"one", "k:1"})
    for (double overlap : {0.2, 0.9})
      for (int d : {2, 4, 6}) {
        MachineConfig c = circuit(d, one);
        c.port_overlap = overlap;
        for (const MatmulShape& shape : {MatmulShape{16, 16, 16}, MatmulShape{24, 8, 40}}) {
          const auto predicted = model::matmul_time(c, shape, outer());
          ASSERT_TRUE(predicted.has_value());
          EXPECT_EQ(test::check_matmul(c, shape, outer()).report.makespan, predicted->total())
              << one << " overlap " << overlap << " d = " << d;
        }
      }
  MachineConfig c = circuit(4, "one");
  c.port_overlap = 0.2;
  for (const char* two : {"all", "k:2"})  // C and D on links of their own: the overlap changes nothing
    for (int d : {2, 4, 6}) {
      c.ports = Ports::parse(two);
      c.d = d;
      expect_chain(c, {16, 16, 16});
      expect_chain(c, {24, 8, 40});
    }
  MachineConfig torus = circuit(4, "one");
  torus.topology = Topology::parse("torus");
  EXPECT_FALSE(model::matmul_time(torus, {16, 16, 16}, outer()).has_value());
}

TEST(PipelinedOuterProduct, TheScheduleChainIsTheWrittenChainForOneMultiplication) {
  // The evaluation over the schedule, which the model uses where no sum stays the longest, agrees with the sums of
  // docs/kernels/matmul.md wherever they hold: one multiplication, no port overlap.
  for (const char* ports : {"one", "k:1", "k:2", "k:3", "all"})
    for (int d : {2, 4, 6, 8})
      for (double flop : {0.0, 0.05, 0.5, 20.0})
        for (const MatmulShape& shape : kShapes) {
          MachineConfig c = circuit(d, ports);
          c.flop = flop;
          const Terms x = terms(c, shape, 8);
          EXPECT_EQ(model::outer_products_longest_chain(c.ports, 0, std::uint32_t{1} << (d / 2), 1, x.w, x.tc, x.td),
                    std::optional<Time>(chain(c, x)))
              << ports << " d = " << d << " flop " << flop;
        }
}

TEST(PipelinedOuterProduct, ThePapersStepCountBesideTheChain) {
  // §5.2.1: 2√N + 1 steps for even √N, each two block transfers and a block product; N = 1 is one step. The MIMD
  // nodes run ahead where their blocks are in, so the chain is never longer than the steps.
  for (const char* ports : {"one", "all"})
    for (int d : {0, 2, 4, 6}) {
      const MachineConfig c = circuit(d, ports);
      const Terms x = terms(c, {16, 16, 16}, 8);
      const Time s = Time{1} << (d / 2);
      const Time steps = d == 0 ? 1 : 2 * s + 1;
      const Time step = x.w + (std::string(ports) == "one" ? x.tc + x.td : std::max(x.tc, x.td));
      const auto paper = model::outer_product_step_time(c, {16, 16, 16}, outer());
      ASSERT_TRUE(paper.has_value());
      EXPECT_EQ(*paper, steps * step);
      EXPECT_LE(model::matmul_time(c, {16, 16, 16}, outer())->total(), *paper);
    }
}


// ----- K products through the same wave fronts (§5.2.1: (K + 1)√N + 1 steps) ----------------------------------------

MatmulOptions products(int k, std::size_t element_bytes = 8) {
  MatmulOptions o = outer(element_bytes);
  o.products = k;
  return o;
}

// Runs K multiplications of small-integer matrices (exact in every order of summation) with
// kernels::pipelined_outer_products; returns the report, and whether every product is the serial one.
std::pair<RunReport, bool> run_products(const MachineConfig& config, const MatmulShape& shape, const MatmulOptions& o) {
  const auto K = static_cast<std::size_t>(o.products);
  std::mt19937_64 rng(7);
  std::vector<std::vector<double>> C, D, E;
  for (std::size_t m = 0; m < K; ++m) {
    C.push_back(test::small_integer_matrix(shape.P * shape.Q, rng));
    D.push_back(test::small_integer_matrix(shape.Q * shape.R, rng));
    E.push_back(test::small_integer_matrix(shape.P * shape.R, rng));
  }
  const Grid grid = model::matmul_grid(o, config.d);
  const auto nodes = static_cast<std::size_t>(config.nodes());
  std::vector<std::vector<std::vector<double>>> held(nodes), a(K, std::vector<std::vector<double>>(nodes));
  for (std::size_t x = 0; x < nodes; ++x)
    for (std::size_t m = 0; m < K; ++m) {
      held[x].push_back(kernels::extract_block(C[m], shape.P, shape.Q, grid, static_cast<int>(x)));
      held[x].push_back(kernels::extract_block(D[m], shape.Q, shape.R, grid, static_cast<int>(x)));
      held[x].push_back(kernels::extract_block(E[m], shape.P, shape.R, grid, static_cast<int>(x)));
      a[m][x].assign(held[x].back().size(), 0.0);
    }
  const RunReport report = Machine(config).run([&](Node& node) {
    const auto x = static_cast<std::size_t>(node.id());
    std::vector<kernels::MatmulBlocks> blocks;
    for (std::size_t m = 0; m < K; ++m) blocks.push_back({held[x][3 * m], held[x][3 * m + 1], held[x][3 * m + 2], a[m][x]});
    kernels::pipelined_outer_products(node, shape, o, blocks);
  });
  bool correct = true;
  for (std::size_t m = 0; m < K; ++m) {
    std::vector<double> whole(shape.P * shape.R, 0.0);
    for (std::size_t x = 0; x < nodes; ++x) kernels::place_block(a[m][x], whole, shape.P, shape.R, grid, static_cast<int>(x));
    correct = correct && whole == kernels::serial_matmul(shape, C[m], D[m], E[m]);
  }
  return {report, correct};
}

TEST(PipelinedOuterProducts, EveryProductIsTheSerialOne) {
  for (const char* ports : {"one", "half", "all"})
    for (int d : {0, 2, 4})
      for (int k : {1, 2, 3, 5})
        for (const MatmulShape& shape : {MatmulShape{16, 16, 16}, MatmulShape{13, 7, 11}})
          for (std::size_t element : {std::size_t{8}, std::size_t{4}}) {
            const auto [report, correct] = run_products(circuit(d, ports), shape, products(k, element));
            EXPECT_TRUE(correct) << "d = " << d << " " << ports << " K = " << k << " element " << element;
            EXPECT_EQ(report.contention_events(), 0u);
          }
}

TEST(PipelinedOuterProducts, HalfDuplexMeetsItsForm) {
  // docs/kernels/matmul.md: the one half-duplex port carries a node's 2(s - 1) transfers of every multiplication in
  // and out: (K + 1)s·W + (s - 1)(2K + 1)T for s >= 4, (K + 1)s·W + K·s·T + max(T_C, T_D) for s = 2, K·W for s = 1.
  for (int d : {0, 2, 4, 6})
    for (int k : {1, 2, 3, 5})
      for (const MatmulShape& shape : {MatmulShape{16, 16, 16}, MatmulShape{24, 8, 40}}) {
        const MachineConfig c = circuit(d, "half");
        const Terms x = terms(c, shape, 8);
        const Time s = Time{1} << (d / 2), K = k, t = x.tc + x.td;
        const Time want = s == 1   ? K * x.w
                          : s == 2 ? (K + 1) * s * x.w + K * s * t + std::max(x.tc, x.td)
                                   : (K + 1) * s * x.w + (s - 1) * (2 * K + 1) * t;
        const auto predicted = model::matmul_time(c, shape, products(k));
        ASSERT_TRUE(predicted.has_value());
        EXPECT_EQ(predicted->total(), want);
        EXPECT_EQ(run_products(c, shape, products(k)).first.makespan, want) << "d = " << d << " K = " << k;
      }
}

TEST(PipelinedOuterProducts, OnePortAndAllPortTakeTheLongestChainOfTheSchedule) {
  // One-port, k:N and all-port: the chain that is longest changes with K and with W against the transfers
  // (docs/kernels/matmul.md), so the model follows the schedule's chains (model::outer_products_longest_chain).
  for (const char* ports : {"one", "k:1", "k:2", "k:3", "all"})
    for (int d : {0, 2, 4, 6})
      for (int k : {2, 3, 5, 6})
        for (double flop : {0.0, 0.5, 20.0})
          for (const MatmulShape& shape : {MatmulShape{16, 16, 16}, MatmulShape{24, 8, 40}, MatmulShape{13, 7, 11}}) {
            MachineConfig c = circuit(d, ports);
            c.flop = flop;
            const auto predicted = model::matmul_time(c, shape, products(k));
            ASSERT_TRUE(predicted.has_value()) << ports << " d = " << d << " K = " << k;
            EXPECT_EQ(run_products(c, shape, products(k)).first.makespan, predicted->total())
                << ports << " d = " << d << " K = " << k << " flop " << flop;
          }
  const MachineConfig single = circuit(0, "one");  // one node: K products back to back
  EXPECT_EQ(model::matmul_time(single, {16, 16, 16}, products(3))->total(), 3 * terms(single, {16, 16, 16}, 8).w);
}

TEST(PipelinedOuterProducts, APortOverlapFollowsTheScheduleToo) {
  for (const char* ports : {"one", "k:2"})
    for (int d : {2, 4, 6})
      for (int k : {1, 2, 4}) {
        MachineConfig c = circuit(d, ports);
        c.port_overlap = 0.35;
        const auto predicted = model::matmul_time(c, {24, 8, 40}, products(k));
        ASSERT_TRUE(predicted.has_value());
        EXPECT_EQ(run_products(c, {24, 8, 40}, products(k)).first.makespan, predicted->total())
            << ports << " d = " << d << " K = " << k;
      }
}

TEST(PipelinedOuterProducts, ThePapersStepsAreKPlusOneTimesRootNPlusOne) {
  // §5.2.1: "a total of K matrix multiplications only require (K+1)√N + 1 steps"; each step two block transfers
  // and a block product. Given where the exact time is not.
  for (int k : {1, 2, 4}) {
    const MachineConfig c = circuit(4, "one");
    const Terms x = terms(c, {16, 16, 16}, 8);
    const auto steps = model::outer_product_step_time(c, {16, 16, 16}, products(k));
    ASSERT_TRUE(steps.has_value());
    EXPECT_EQ(*steps, (Time(k + 1) * 4 + 1) * (x.w + x.tc + x.td));
  }
}

TEST(PipelinedOuterProducts, ProductsAreTheOuterProductsAndOnePerSetOfBlocks) {
  auto message = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const UsageError& e) {
      return e.what();
    }
    return "";
  };
  MatmulOptions sbt = products(2);
  sbt.algorithm = A::a1_sbt;
  EXPECT_NE(message([&] { model::check_matmul({8, 8, 8}, sbt, 2); }).find("only for outer-product"), std::string::npos);
  EXPECT_NE(message([&] { model::check_matmul({8, 8, 8}, products(0), 2); }).find("at least 1"), std::string::npos);
  // kernels::matmul takes one set of blocks; pipelined_outer_products one per product.
  const MachineConfig c = circuit(0, "one");
  std::vector<double> block(64, 1.0), out(64);
  std::string one, count;
  Machine(c).run([&](Node& node) {
    one = message([&] { kernels::matmul(node, {8, 8, 8}, products(2), {block, block, block, out}); });
    const std::vector<kernels::MatmulBlocks> sets(3, kernels::MatmulBlocks{block, block, block, out});
    count = message([&] { kernels::pipelined_outer_products(node, {8, 8, 8}, products(2), sets); });
  });
  EXPECT_NE(one.find("pipelined_outer_products"), std::string::npos) << one;
  EXPECT_NE(count.find("3 sets of blocks"), std::string::npos) << count;
}

}  // namespace
}  // namespace hcemu
