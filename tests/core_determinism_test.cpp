// docs/model.md §7 and §8: transfers that contend are served in model-time order, whatever the engine, the number
// of workers or the interleaving of the host's threads. Every kernel here contends; its clocks and its per-link
// contention must equal, exactly, those of a sequential reference that replays the same transfers in model-time order
// with no threads at all (reference_scheduler.hpp).
#include <gtest/gtest.h>

#include <bit>
#include <chrono>
#include <random>
#include <string>
#include <thread>

#include "core_support.hpp"
#include "hcemu/algorithm.hpp"
#include "reference_scheduler.hpp"

namespace hcemu {
namespace {

using test::Op;
using test::Program;

int bit_reverse(int x, int d) {
  int r = 0;
  for (int k = 0; k < d; ++k)
    if ((x >> k) & 1) r |= 1 << (d - 1 - k);
  return r;
}

// Every node sends `count` messages of `bytes` to perm[id] and receives as many from the node that sends to it.
Program permutation_program(const std::vector<int>& perm, std::size_t bytes, int count) {
  const int n = static_cast<int>(perm.size());
  std::vector<int> from(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) from[static_cast<std::size_t>(perm[static_cast<std::size_t>(i)])] = i;
  Program p(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    auto& ops = p[static_cast<std::size_t>(i)];
    std::vector<int> all;
    for (int c = 0; c < count; ++c) {
      ops.push_back(Op::post_recv(2 * c, from[static_cast<std::size_t>(i)], bytes, c));
      all.push_back(2 * c);
    }
    for (int c = 0; c < count; ++c) {
      ops.push_back(Op::isend(2 * c + 1, perm[static_cast<std::size_t>(i)], bytes, c));
      all.push_back(2 * c + 1);
    }
    ops.push_back(Op::wait_all(all));
  }
  return p;
}

Program bit_reversal(int d) {
  std::vector<int> perm(static_cast<std::size_t>(1 << d));
  for (int i = 0; i < (1 << d); ++i) perm[static_cast<std::size_t>(i)] = bit_reverse(i, d);
  return permutation_program(perm, 1000, 2);
}

// A matrix transposed by e-cube routing: node (row, column) sends its block to (column, row).
Program transpose(int d) {
  const int half = d / 2;
  std::vector<int> perm(static_cast<std::size_t>(1 << d));
  for (int i = 0; i < (1 << d); ++i) {
    const int row = i >> half, column = i & ((1 << half) - 1);
    perm[static_cast<std::size_t>(i)] = (column << half) | row;
  }
  return permutation_program(perm, 512, 1);
}

// Random permutations, several rounds, each node starting its round after a random local delay, so that ready
// times differ and transfers start while others hold their links.
//
// `tied`: no delays, and half the messages empty. Without start-up costs (the test sets them to zero) an empty
// message arrives at the very time it was ready, so the nodes it wakes may issue transfers that come before those
// still waiting (no lookahead), and the coordinator places a few at a time while the others queue, tied in model
// time; the rest contend for links.
Program random_rounds(int d, unsigned seed, int rounds, bool tied = false) {
  std::mt19937 rng(seed);
  const int n = 1 << d;
  Program p(static_cast<std::size_t>(n));
  int request = 0;
  for (int round = 0; round < rounds; ++round) {
    std::vector<int> perm(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) perm[static_cast<std::size_t>(i)] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    std::vector<int> from(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) from[static_cast<std::size_t>(perm[static_cast<std::size_t>(i)])] = i;
    for (int i = 0; i < n; ++i) {
      auto& ops = p[static_cast<std::size_t>(i)];
      const std::size_t bytes = tied && rng() % 2 == 0 ? 0 : 16 + rng() % 400;
      ops.push_back(Op::post_recv(request, from[static_cast<std::size_t>(i)], 1024, round));
      if (!tied) ops.push_back(Op::elapse(test::us(static_cast<double>(rng() % 50))));
      ops.push_back(Op::isend(request + 1, perm[static_cast<std::size_t>(i)], bytes, round));
      ops.push_back(Op::wait_all({request, request + 1}));
    }
    request += 2;
  }
  return p;
}

// Steps of pairs along one mask c, as in a Direct exchange, which the placer levels from the messages' ends alone
// (docs/engine.md, "Placing in parallel"): in each step both nodes of every pair send, or only the upper of each
// (whose id has c's highest bit), or only the lower, by c mod 3. Each step starts at a barrier; in every other step
// the nodes are ready at different times after it, so the batches are not such steps and are levelled along their
// routes.
Program xor_pairs(int d) {
  const int n = 1 << d;
  Program p(static_cast<std::size_t>(n));
  int request = 0;
  for (int c = 1; c < n; ++c) {
    const int high = 1 << (std::bit_width(static_cast<unsigned>(c)) - 1);
    const std::size_t bytes = 16 + 40 * static_cast<std::size_t>(c % 5);
    for (int i = 0; i < n; ++i) {
      auto& ops = p[static_cast<std::size_t>(i)];
      const bool upper = (i & high) != 0;
      const bool sends = c % 3 == 0 || (c % 3 == 1 ? upper : !upper);
      const bool receives = c % 3 == 0 || !sends;
      ops.push_back(Op::barrier());  // every node ready at once
      if (c % 2 == 0) ops.push_back(Op::elapse(test::us(i % 3)));
      if (receives) ops.push_back(Op::post_recv(request, i ^ c, bytes, c));
      if (sends) ops.push_back(Op::isend(request + 1, i ^ c, bytes, c));
      if (sends && receives)
        ops.push_back(Op::wait_all({request, request + 1}));
      else
        ops.push_back(Op::wait(sends ? request + 1 : request));
    }
    request += 2;
  }
  return p;
}

// Every node sends to node 0, which receives them all in one wait: the links into node 0 are a hot spot.
Program hot_spot(int d, std::size_t bytes) {
  const int n = 1 << d;
  Program p(static_cast<std::size_t>(n));
  std::vector<int> all;
  for (int s = 1; s < n; ++s) {
    p[0].push_back(Op::post_recv(s, s, bytes));
    all.push_back(s);
    p[static_cast<std::size_t>(s)].push_back(Op::elapse(test::us(s % 3)));
    p[static_cast<std::size_t>(s)].push_back(Op::isend(0, 0, bytes));
    p[static_cast<std::size_t>(s)].push_back(Op::wait(0));
  }
  p[0].push_back(Op::wait_all(all));
  return p;
}

// Every node from `spots` on sends to node s mod spots, each of which receives all its senders' messages in one wait:
// so many hot spots that a batch's chains run past the 255 levels the placer keeps count of, while its levels still
// hold more than two transfers each on average (docs/engine.md, "Placing in parallel").
Program hot_spots(int d, int spots, std::size_t bytes) {
  const int n = 1 << d;
  Program p(static_cast<std::size_t>(n));
  std::vector<std::vector<int>> all(static_cast<std::size_t>(spots));
  for (int s = spots; s < n; ++s) {
    const int to = s % spots;
    p[static_cast<std::size_t>(to)].push_back(Op::post_recv(s, s, bytes));
    all[static_cast<std::size_t>(to)].push_back(s);
    p[static_cast<std::size_t>(s)].push_back(Op::elapse(test::us(s % 3)));
    p[static_cast<std::size_t>(s)].push_back(Op::isend(0, to, bytes));
    p[static_cast<std::size_t>(s)].push_back(Op::wait(0));
  }
  for (int h = 0; h < spots; ++h)
    p[static_cast<std::size_t>(h)].push_back(Op::wait_all(all[static_cast<std::size_t>(h)]));
  return p;
}

// Rounds in which every node sends, waits for one message, then sends again, to two random permutations: on k:N
// ports the second send waits for the first to be placed (a wait for a release), after a wait for a message, and a
// node's first send is queued while it waits for that message. The placer counts a release as an event only where
// it can end a wait for one, and places a transfer whose sender waits for none in a batch as wide as its arrival's
// lead (docs/engine.md, "Placing transfers in model time").
Program sends_around_a_receive(int d, unsigned seed, int rounds) {
  std::mt19937 rng(seed);
  const int n = 1 << d;
  Program p(static_cast<std::size_t>(n));
  const auto permutation = [&] {
    std::vector<int> perm(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) perm[static_cast<std::size_t>(i)] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    return perm;
  };
  const auto inverse = [&](const std::vector<int>& perm) {
    std::vector<int> from(perm.size());
    for (int i = 0; i < n; ++i) from[static_cast<std::size_t>(perm[static_cast<std::size_t>(i)])] = i;
    return from;
  };
  int request = 0;
  for (int round = 0; round < rounds; ++round) {
    const std::vector<int> first = permutation(), second = permutation();
    const std::vector<int> from_first = inverse(first), from_second = inverse(second);
    for (int i = 0; i < n; ++i) {
      const auto at = static_cast<std::size_t>(i);
      auto& ops = p[at];
      ops.push_back(Op::post_recv(request, from_first[at], 1024, 2 * round));
      ops.push_back(Op::post_recv(request + 1, from_second[at], 1024, 2 * round + 1));
      ops.push_back(Op::elapse(test::us(static_cast<double>(rng() % 30))));
      ops.push_back(Op::isend(request + 2, first[at], 16 + rng() % 400, 2 * round));
      ops.push_back(Op::wait(request));
      ops.push_back(Op::isend(request + 3, second[at], 16 + rng() % 400, 2 * round + 1));
      ops.push_back(Op::wait_all({request + 1, request + 2, request + 3}));
    }
    request += 4;
  }
  return p;
}

// Every node posts its receives, then sends to several others back to back and waits for all: on k:N ports a send
// waits for the node's earlier ones to be placed (it must know which channel frees first), and may then start at
// once on another channel, before the earlier transfer has left the node (docs/model.md §4).
Program sends_back_to_back(int d, unsigned seed, int sends) {
  std::mt19937 rng(seed);
  const int n = 1 << d;
  Program p(static_cast<std::size_t>(n));
  std::vector<std::vector<std::pair<int, int>>> to(static_cast<std::size_t>(n));  // per sender: (receiver, tag)
  for (int k = 0; k < sends; ++k) {
    std::vector<int> perm(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) perm[static_cast<std::size_t>(i)] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    for (int i = 0; i < n; ++i) to[static_cast<std::size_t>(i)].push_back({perm[static_cast<std::size_t>(i)], k});
  }
  std::vector<int> request(static_cast<std::size_t>(n), 0);
  std::vector<std::vector<int>> waits(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    for (const auto& [dest, tag] : to[static_cast<std::size_t>(i)]) {
      const int r = request[static_cast<std::size_t>(dest)]++;
      p[static_cast<std::size_t>(dest)].push_back(Op::post_recv(r, i, 1024, tag));
      waits[static_cast<std::size_t>(dest)].push_back(r);
    }
  for (int i = 0; i < n; ++i) {
    auto& ops = p[static_cast<std::size_t>(i)];
    ops.push_back(Op::elapse(test::us(static_cast<double>(rng() % 20))));
    for (const auto& [dest, tag] : to[static_cast<std::size_t>(i)]) {
      const int r = request[static_cast<std::size_t>(i)]++;
      ops.push_back(Op::isend(r, dest, 16 + rng() % 400, tag));
      waits[static_cast<std::size_t>(i)].push_back(r);
    }
    ops.push_back(Op::wait_all(waits[static_cast<std::size_t>(i)]));
  }
  return p;
}

MachineConfig machine(int d, const char* ports, Switching switching, std::size_t packet = 0) {
  MachineConfig c = test::round_config(d);
  c.ports = Ports::parse(ports);
  c.switching = switching;
  c.packet = packet;
  return c;
}

struct Runner {
  std::string name;
  EmulatorSettings settings;
};

std::vector<Runner> runners() {
  std::vector<Runner> out;
  for (int workers : {1, 2}) {
    for (unsigned yields : {0u, 5u}) {
      EmulatorSettings s;
      s.engine = EngineKind::tasks;
      s.workers = workers;
      s.yield_seed = yields;
      out.push_back({workers == 1 ? (yields ? "tasks, 1 worker, yields" : "tasks, 1 worker")
                                  : (yields ? "tasks, 2 workers, yields" : "tasks, 2 workers"),
                     s});
    }
  }
  // More workers than the development machine's two cores: they take turns on the cores.
  EmulatorSettings many;
  many.engine = EngineKind::tasks;
  many.workers = 5;
  out.push_back({"tasks, 5 workers", many});
  // Every level of two transfers or more placed by all the workers at once, in tasks of one transfer each where the
  // level is small (docs/engine.md, "Placing in parallel"): the order in which the workers take them is the host's.
  for (int workers : {2, 3, 8}) {
    for (unsigned yields : {0u, 7u}) {
      EmulatorSettings shared;
      shared.engine = EngineKind::tasks;
      shared.workers = workers;
      shared.placing_share_from = 2;
      shared.yield_seed = yields;
      out.push_back({"tasks, " + std::to_string(workers) + " workers sharing every level" + (yields ? ", yields" : ""),
                     shared});
    }
  }
  EmulatorSettings alone;
  alone.engine = EngineKind::tasks;
  alone.workers = 2;
  alone.placing_share_from = 0;
  out.push_back({"tasks, 2 workers, the placer alone", alone});
  // Windows forced small (EmulatorSettings::placing_lookahead_limit): no lead counts for more than 3 µs, a fraction
  // of these machines' transfers, or than 1 ps, so that a batch holds only transfers ready at one time. The same
  // transfers go in more, narrower batches, whose levels every worker shares.
  for (const double limit : {3.0, 1e-6}) {
    EmulatorSettings narrow;
    narrow.engine = EngineKind::tasks;
    narrow.workers = 3;
    narrow.placing_share_from = 2;
    narrow.placing_lookahead_limit = limit;
    narrow.yield_seed = 7;
    out.push_back({std::string("tasks, 3 workers, windows of ") + (limit < 1 ? "1 ps" : "3 us") + ", yields", narrow});
  }
  // A worker whose nodes have all stopped places what no running node can still come before (docs/engine.md,
  // "Placing while others run"), with the levels shared or not.
  for (int workers : {2, 3, 8}) {
    for (unsigned yields : {0u, 7u}) {
      EmulatorSettings early;
      early.engine = EngineKind::tasks;
      early.workers = workers;
      early.placing_early = true;
      early.placing_share_from = workers == 3 ? 2 : 64;
      early.yield_seed = yields;
      out.push_back({"tasks, " + std::to_string(workers) + " workers placing early" + (yields ? ", yields" : ""),
                     early});
    }
  }
  EmulatorSettings os;
  os.engine = EngineKind::os_threads;
  out.push_back({"os_threads", os});
  os.yield_seed = 3;
  out.push_back({"os_threads, yields", os});
  return out;
}

// The emulator, on every engine and worker count, equals the reference exactly, and reports contention.
void expect_as_reference(const MachineConfig& config, const Program& program, bool expect_contention = true) {
  const test::ReferenceResult want = test::reference_run(config, program);
  ASSERT_FALSE(want.deadlock);
  if (expect_contention) {
    EXPECT_FALSE(want.contention.empty()) << "the kernel was meant to contend";
  }
  for (const Runner& r : runners()) {
    Machine m(config, r.settings);
    for (int repeat = 0; repeat < 2; ++repeat) {  // a second run of the same machine reuses its memory
      SCOPED_TRACE(std::string(r.name) + ", run " + std::to_string(repeat));
      const RunReport report = m.run(test::program_kernel(program));
      std::vector<Time> clocks;
      for (const auto& node : report.nodes) clocks.push_back(node.final_clock);
      EXPECT_EQ(clocks, want.clocks);
      EXPECT_EQ(test::contention_of(report), want.contention);
      EXPECT_EQ(report.forced_discards.size(), want.discards);
    }
  }
}

TEST(ModelTimeOrder, BitReversalOnAllPortCircuitMatchesTheReference) {
  expect_as_reference(machine(6, "all", Switching::circuit), bit_reversal(6));
}

TEST(ModelTimeOrder, BitReversalOnOnePortCircuitMatchesTheReference) {
  expect_as_reference(machine(6, "one", Switching::circuit), bit_reversal(6));
}

TEST(ModelTimeOrder, TransposeRoutedByECubeMatchesTheReference) {
  expect_as_reference(machine(6, "all", Switching::circuit), transpose(6));
}

TEST(ModelTimeOrder, RandomPermutationsMatchTheReference) {
  for (unsigned seed : {1u, 2u, 3u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    expect_as_reference(machine(5, "all", Switching::circuit), random_rounds(5, seed, 4));
  }
}

TEST(ModelTimeOrder, RandomPermutationsOnKPortsMatchTheReference) {
  expect_as_reference(machine(5, "k:2", Switching::circuit), random_rounds(5, 7, 4));
}

TEST(ModelTimeOrder, SendsBackToBackOnKPortsMatchTheReference) {
  for (Switching switching : {Switching::circuit, Switching::store_and_forward}) {
    SCOPED_TRACE(switching == Switching::circuit ? "circuit" : "store-and-forward");
    expect_as_reference(machine(5, "k:2", switching, 96), sends_back_to_back(5, 3, 4));
  }
}

TEST(ModelTimeOrder, SendsAroundAReceiveOnKPortsMatchTheReference) {
  for (Switching switching : {Switching::circuit, Switching::store_and_forward}) {
    for (const char* ports : {"k:2", "k:3", "one"}) {
      SCOPED_TRACE(std::string(ports) + (switching == Switching::circuit ? ", circuit" : ", store-and-forward"));
      expect_as_reference(machine(5, ports, switching, 96), sends_around_a_receive(5, 11, 4));
    }
  }
}

TEST(ModelTimeOrder, TiesWithoutLookaheadMatchTheReference) {
  for (const char* ports : {"all", "one"}) {
    SCOPED_TRACE(ports);
    MachineConfig config = machine(6, ports, Switching::circuit);
    config.lambda = config.delta_hop = config.delta_msg = 0;
    config.lambda0 = 0;
    expect_as_reference(config, random_rounds(6, 5, 6, true));
  }
}

TEST(ModelTimeOrder, HotSpotGatherMatchesTheReference) {
  expect_as_reference(machine(5, "all", Switching::circuit), hot_spot(5, 200));
}

// Levels are given up once they outnumber one per placing_share_from transfers; at 1 only the placer's count of 255
// levels gives them up, here after 255 transfers into each hot spot (docs/engine.md, "Placing in parallel").
TEST(ModelTimeOrder, HotSpotsPastTheLevelsCountMatchTheReference) {
  const MachineConfig config = machine(10, "all", Switching::circuit);
  const Program program = hot_spots(10, 3, 64);
  const test::ReferenceResult want = test::reference_run(config, program);
  ASSERT_FALSE(want.deadlock);
  EXPECT_FALSE(want.contention.empty()) << "the kernel was meant to contend";
  std::vector<Runner> all = runners();
  for (int workers : {2, 3}) {
    EmulatorSettings shared;
    shared.engine = EngineKind::tasks;
    shared.workers = workers;
    shared.placing_share_from = 1;
    all.push_back({"tasks, " + std::to_string(workers) + " workers sharing every level of one", shared});
  }
  for (const Runner& r : all) {
    SCOPED_TRACE(r.name);
    const RunReport report = Machine(config, r.settings).run(test::program_kernel(program));
    std::vector<Time> clocks;
    for (const auto& node : report.nodes) clocks.push_back(node.final_clock);
    EXPECT_EQ(clocks, want.clocks);
    EXPECT_EQ(test::contention_of(report), want.contention);
  }
}

TEST(ModelTimeOrder, StoreAndForwardWithPacketsMatchesTheReference) {
  expect_as_reference(machine(5, "all", Switching::store_and_forward, 96), random_rounds(5, 11, 3));
  expect_as_reference(machine(6, "one", Switching::store_and_forward, 300), bit_reversal(6));
}

// Store-and-forward hops go in batches too, as wide as the first packet's hop (docs/engine.md, "Placing in
// parallel"): on a larger cube the levels are wide, and steps of pairs are levelled from their ends.
TEST(ModelTimeOrder, StoreAndForwardOnAnEightCubeMatchesTheReference) {
  expect_as_reference(machine(8, "one", Switching::store_and_forward, 96), random_rounds(8, 19, 3));
  expect_as_reference(machine(8, "all", Switching::store_and_forward), bit_reversal(8));
  for (const char* ports : {"all", "one"}) {
    SCOPED_TRACE(ports);
    expect_as_reference(machine(5, ports, Switching::store_and_forward, 64), xor_pairs(5), false);
  }
}

// Without start-up costs an empty message's hop takes no time, so it has no lead and goes alone, among hops that
// have one (τ per byte).
TEST(ModelTimeOrder, StoreAndForwardTiesWithoutLookaheadMatchTheReference) {
  for (const char* ports : {"all", "one"}) {
    SCOPED_TRACE(ports);
    MachineConfig config = machine(6, ports, Switching::store_and_forward, 128);
    config.lambda = config.delta_hop = config.delta_msg = 0;
    config.lambda0 = 0;
    expect_as_reference(config, random_rounds(6, 23, 6, true));
  }
}

// docs/model.md §14: a port overlap frees a node's ports early, so a transfer's lead is its hold less that share.
TEST(ModelTimeOrder, PortOverlapMatchesTheReference) {
  for (Switching switching : {Switching::circuit, Switching::store_and_forward}) {
    for (const char* ports : {"one", "k:2", "half"}) {
      SCOPED_TRACE(std::string(ports) + (switching == Switching::circuit ? ", circuit" : ", store-and-forward"));
      MachineConfig config = machine(5, ports, switching, 96);
      config.port_overlap = 0.2;
      expect_as_reference(config, random_rounds(5, 29, 4));
    }
  }
}

TEST(ModelTimeOrder, HalfDuplexHotSpotMatchesTheReference) {
  expect_as_reference(machine(4, "half", Switching::circuit), hot_spot(4, 64));
}

TEST(ModelTimeOrder, PairsAlongOneMaskMatchTheReference) {
  for (const char* ports : {"all", "one"}) {
    SCOPED_TRACE(ports);
    expect_as_reference(machine(5, ports, Switching::circuit), xor_pairs(5), false);
  }
}

// One worker, every level placed by the placer alone: what the runners of a topology the reference does not know are
// held to.
EmulatorSettings placer_alone() {
  EmulatorSettings alone;
  alone.engine = EngineKind::tasks;
  alone.workers = 1;
  alone.placing_share_from = 0;
  return alone;
}

// Every runner gives the report `want` of the placer alone on one worker: every node's clock, and the contention.
void expect_as_placer_alone(const MachineConfig& config, const Program& program, const RunReport& want) {
  for (const Runner& r : runners()) {
    SCOPED_TRACE(r.name);
    const RunReport report = Machine(config, r.settings).run(test::program_kernel(program));
    ASSERT_EQ(report.nodes.size(), want.nodes.size());
    for (std::size_t i = 0; i < want.nodes.size(); ++i)
      EXPECT_EQ(report.nodes[i].final_clock, want.nodes[i].final_clock) << "node " << i;
    EXPECT_EQ(test::contention_of(report), test::contention_of(want));
  }
}

// The reference knows the cube only: on a torus and a mesh, whose routes wrap and share links across rows, every
// runner equals the placer placing alone on one worker.
TEST(ModelTimeOrder, TorusAndMeshRunsEqualThePlacerAlone) {
  for (const auto& [topology, switching] : {std::pair{"torus:4x8", Switching::circuit},
                                            std::pair{"mesh:8x8", Switching::circuit},
                                            std::pair{"torus:8x8", Switching::store_and_forward}}) {
    SCOPED_TRACE(topology + std::string(switching == Switching::circuit ? "" : ", store-and-forward"));
    MachineConfig config = machine(topology[0] == 't' && topology[6] == '4' ? 5 : 6, "all", switching,
                                   switching == Switching::circuit ? 0 : 96);
    config.topology = Topology::parse(topology);
    const Program program = random_rounds(config.d, 13, 4);
    const RunReport want = Machine(config, placer_alone()).run(test::program_kernel(program));
    EXPECT_GT(want.contention_events(), 0u) << "the kernel was meant to contend";
    expect_as_placer_alone(config, program, want);
  }
}

// A node woken by a message it does not wait for (it came first, later in model time) runs, and the one it waits for
// may come while it runs, earlier in model time: it then goes on from that arrival, not from the event that woke it.
// The placer counts an event that reaches a running node as one that bounds it (Parking::may_act), and placing
// early lowers its home's floor too. The Direct exchange on k:4 ports of a 4 x 8 torus, placed early on 8 workers,
// met this in about one run in twenty (the links' contention differed), so it runs a hundred times here.
TEST(ModelTimeOrder, ExchangeOnKPortsOfATorusPlacedEarlyEqualsThePlacerAlone) {
  MachineConfig config;  // the ipsc860 preset's figures
  config.d = 5;
  config.lambda = 95.0;
  config.lambda0 = 85.5;
  config.tau = 0.394;
  config.delta_msg = 5.15 * 5;
  config.rho = 0.54;
  config.protocol = Protocol::forced;
  config.ports = Ports::parse("k:4");
  config.topology = Topology::parse("torus:4x8");
  const KernelFamily& family = find_family("exchange");
  KernelCase k;
  k.m = 64;
  k.algo = "direct";
  const KernelResult want = family.run(config, placer_alone(), k);
  ASSERT_TRUE(want.verified);
  EXPECT_GT(want.report.contention_events(), 0u) << "the kernel was meant to contend";
  EmulatorSettings early;
  early.engine = EngineKind::tasks;
  early.workers = 8;
  early.placing_early = true;
  for (int run = 0; run < 100; ++run) {
    const KernelResult got = family.run(config, early, k);
    ASSERT_EQ(test::contention_of(got.report), test::contention_of(want.report)) << "run " << run;
    for (std::size_t i = 0; i < want.report.nodes.size(); ++i)
      ASSERT_EQ(got.report.nodes[i].final_clock, want.report.nodes[i].final_clock) << "run " << run << ", node " << i;
  }
}

// On k:N ports a node's next send may start on another channel before its last one has left the node: the placer
// must not place past the sender's clock when the last one's placing wakes it (TimingModel::release_event). On a
// mesh, whose links many sources share, placing early and the other runners differed there until it did.
TEST(ModelTimeOrder, SendsBackToBackOnKPortsOfAMeshEqualThePlacerAlone) {
  for (Switching switching : {Switching::circuit, Switching::store_and_forward}) {
    SCOPED_TRACE(switching == Switching::circuit ? "circuit" : "store-and-forward");
    MachineConfig config = machine(6, "k:2", switching, 96);
    config.topology = Topology::parse("mesh:8x8");
    const Program program = sends_back_to_back(6, 5, 4);
    const RunReport want = Machine(config, placer_alone()).run(test::program_kernel(program));
    EXPECT_GT(want.contention_events(), 0u) << "the kernel was meant to contend";
    expect_as_placer_alone(config, program, want);
  }
}

// A larger cube, so that the levels are wide: every runner equals the reference.
TEST(ModelTimeOrder, RandomPermutationsOnAnEightCubeMatchTheReference) {
  expect_as_reference(machine(8, "all", Switching::circuit), random_rounds(8, 17, 3));
  expect_as_reference(machine(8, "one", Switching::circuit), bit_reversal(8));
}

// Node 1 is ready first in model time but books last in real time: it sleeps 50 ms of real time before it sends,
// while node 3 sends at once, 5 µs later in model time, over a route that shares node 1's link 1 -> 3. The link goes
// to node 1 all the same, and node 3 waits for it.
TEST(ModelTimeOrder, TheEarlierReadyTransferWinsEvenWhenItsThreadBooksLast) {
  MachineConfig config = machine(2, "all", Switching::circuit);
  const Time transfer_1_to_3 = test::us(10 + 2 + 1 + 0.5 * 100);          // one hop, 1 -> 3
  const Time transfer_0_to_3 = test::us(10 + 2 + 2 * 1 + 0.5 * 100);      // two hops, 0 -> 1 -> 3
  for (const Runner& r : runners()) {
    SCOPED_TRACE(r.name);
    Machine m(config, r.settings);
    const RunReport report = m.run([](Node& node) {
      std::vector<std::byte> buf(100);
      if (node.id() == 1) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        node.send(3, buf);
      } else if (node.id() == 0) {
        node.elapse(from_us(5));
        node.send(3, buf);
      } else if (node.id() == 3) {
        node.recv(1, buf);
        node.recv(0, buf);
      }
    });
    // 0 -> 3 is ready at 5 µs but link 1 -> 3 is held by 1 -> 3 from 0 µs: it starts when that ends.
    EXPECT_EQ(report.nodes[0].final_clock, transfer_1_to_3 + transfer_0_to_3);
    EXPECT_EQ(report.nodes[1].final_clock, transfer_1_to_3);
    EXPECT_EQ(report.contention_events(), 1u);
  }
}

}  // namespace
}  // namespace hcemu
