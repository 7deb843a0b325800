// A machine spread over MPI ranks (hcemu/mpi.hpp) gives exactly what it gives in one process: the same clocks,
// link bookings and contention, discards, leftovers and verification, for the kernels of every family and for
// kernels written to stress the rounds (receives from any source, wait_any, test, barriers, FORCED losses). Errors
// end every rank the same way: an exception or a deadlock on one rank reaches the caller of run on every rank.
//
// ctest runs this program under `mpirun -np 2`, `-np 3` and `-np 4`; every rank runs every test, and each test
// compares the run spread over the ranks (a machine given the session's Spread) with the same run in this process
// alone (a machine without it).
#include <gtest/gtest.h>
#include <mpi.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>

#include "../core_support.hpp"
#include "harness/algorithm.hpp"
#include "hcemu/hcemu.hpp"
#include "hcemu/mpi.hpp"

namespace hcemu {
namespace {

using test::bytes_of;
using test::round_config;
using test::us;

mpi::Session* session = nullptr;

// The tests of a four-node machine (d = 2), which a run over more ranks than nodes refuses (see
// MoreRanksThanNodesIsRefused), are skipped there, as under `mpirun -np 8`.
#define SKIP_WITH_MORE_RANKS_THAN_FOUR_NODES()                            \
  if (session->ranks() > 4) GTEST_SKIP() << "a four-node machine on " << session->ranks() << " ranks"

// Everything a run decides in model time, which must not depend on where the nodes ran.
void expect_same_run(const RunReport& alone, const RunReport& spread) {
  EXPECT_EQ(spread.ranks, session->ranks());
  EXPECT_EQ(alone.ranks, 1);
  EXPECT_EQ(alone.makespan, spread.makespan);
  ASSERT_EQ(alone.nodes.size(), spread.nodes.size());
  for (std::size_t i = 0; i < alone.nodes.size(); ++i) {
    EXPECT_EQ(alone.nodes[i].final_clock, spread.nodes[i].final_clock) << "node " << i;
    EXPECT_EQ(alone.nodes[i].messages_sent, spread.nodes[i].messages_sent) << "node " << i;
    EXPECT_EQ(alone.nodes[i].bytes_received, spread.nodes[i].bytes_received) << "node " << i;
  }
  ASSERT_EQ(alone.links.size(), spread.links.size());
  for (std::size_t i = 0; i < alone.links.size(); ++i) {
    EXPECT_EQ(alone.links[i].from, spread.links[i].from);
    EXPECT_EQ(alone.links[i].dim, spread.links[i].dim);
    EXPECT_EQ(alone.links[i].busy, spread.links[i].busy);
    EXPECT_EQ(alone.links[i].contention_events, spread.links[i].contention_events);
    EXPECT_EQ(alone.links[i].contention_delay, spread.links[i].contention_delay);
  }
  ASSERT_EQ(alone.forced_discards.size(), spread.forced_discards.size());
  for (std::size_t i = 0; i < alone.forced_discards.size(); ++i) {
    EXPECT_EQ(alone.forced_discards[i].source, spread.forced_discards[i].source);
    EXPECT_EQ(alone.forced_discards[i].destination, spread.forced_discards[i].destination);
    EXPECT_EQ(alone.forced_discards[i].arrival, spread.forced_discards[i].arrival);
    EXPECT_EQ(alone.forced_discards[i].post_time, spread.forced_discards[i].post_time);
  }
  EXPECT_EQ(alone.unreceived, spread.unreceived);
}

// The settings of a machine spread over the session's ranks.
EmulatorSettings spread_over_ranks(EmulatorSettings settings = {}) {
  settings.spread = session->spread();
  return settings;
}

void expect_same(const MachineConfig& config, const Kernel& kernel, EmulatorSettings settings = {}) {
  const RunReport alone = Machine(config, settings).run(kernel);
  Machine spread = session->machine(config, settings);
  EXPECT_EQ(spread.ranks(), session->ranks());
  expect_same_run(alone, spread.run(kernel));
}

// --- every family, through the harness: random data, verified, against its closed form ---

struct FamilyCase {
  std::string family, algo, preset;
  int d;
  std::size_t m;
};

void PrintTo(const FamilyCase& c, std::ostream* os) {
  *os << c.family << " " << c.algo << " on " << c.preset << ", d = " << c.d << ", m = " << c.m;
}

MachineConfig preset(const std::string& name, int d) {
  MachineConfig c = round_config(d);
  if (name == "store-and-forward") {
    c.switching = Switching::store_and_forward;
    c.packet = 256;
  } else if (name == "all-port") {
    c.ports = Ports::parse("all");
    c.switching = Switching::store_and_forward;
  } else if (name == "forced") {
    c.protocol = Protocol::forced;
  } else if (name == "torus") {
    c.topology = Topology::parse("torus");
  } else if (name == "loggp" || name == "loggp-torus") {
    c.switching = Switching::loggp;
    c.loggp_latency = 5;
    c.loggp_overhead = 1.5;
    c.loggp_gap = 4;
    c.loggp_gap_per_byte = 0.01;
    if (name == "loggp-torus") c.topology = Topology::parse("torus");
  }
  return c;
}

class Families : public ::testing::TestWithParam<FamilyCase> {};

TEST_P(Families, SameAsOneProcessAndVerified) {
  const FamilyCase& p = GetParam();
  const MachineConfig config = preset(p.preset, p.d);
  const harness::KernelFamily& family = harness::find_family(p.family);
  harness::KernelCase c;
  c.algo = p.algo;
  c.m = p.m;
  const harness::KernelResult alone = family.run(config, {}, c);
  const harness::KernelResult spread = family.run(config, spread_over_ranks(), c);
  EXPECT_TRUE(alone.verified) << alone.verify_message;
  EXPECT_TRUE(spread.verified) << spread.verify_message;
  EXPECT_EQ(alone.predicted, spread.predicted);
  expect_same_run(alone.report, spread.report);
}

INSTANTIATE_TEST_SUITE_P(
    Mpi, Families,
    ::testing::Values(
        FamilyCase{"exchange", "direct", "round", 4, 64}, FamilyCase{"exchange", "standard", "round", 4, 64},
        FamilyCase{"exchange", "auto", "forced", 4, 48}, FamilyCase{"exchange", "all-port", "all-port", 3, 64},
        FamilyCase{"exchange", "t1", "torus", 4, 32}, FamilyCase{"exchange", "t2", "torus", 4, 32},
        FamilyCase{"transpose", "johnsson-ho", "store-and-forward", 4, 64},
        FamilyCase{"broadcast", "nesbt", "all-port", 4, 1000},
        FamilyCase{"broadcast", "bcast4", "store-and-forward", 4, 1000},
        FamilyCase{"allgather", "recursive-doubling", "round", 4, 32},
        FamilyCase{"histogram", "symmetrized", "round", 4, 16}, FamilyCase{"reduce", "sbnt", "all-port", 3, 8},
        FamilyCase{"matmul", "a1-2d", "round", 4, 16}, FamilyCase{"long-send", "ocs2", "all-port", 4, 2000},
        FamilyCase{"scatter", "sbnt", "all-port", 4, 64}, FamilyCase{"gather", "sbt", "round", 4, 64},
        FamilyCase{"permutation", "ecube", "store-and-forward", 4, 300},
        FamilyCase{"exchange", "direct", "loggp", 4, 64}, FamilyCase{"broadcast", "sbt", "loggp", 4, 500},
        FamilyCase{"allgather", "recursive-doubling", "loggp", 4, 32},
        FamilyCase{"exchange", "t2", "loggp-torus", 4, 32}),
    [](const ::testing::TestParamInfo<FamilyCase>& case_info) {
      std::string s = case_info.param.family + "_" + case_info.param.algo + "_" + case_info.param.preset;
      for (char& ch : s)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return s;
    });

// --- kernels that lean on the rounds ---

// Every node of a 5-cube sends to its bit-reversed partner at once: contention on the high dimensions, across ranks.
const Kernel bit_reversal = [](Node& node) {
  int r = 0;
  for (int k = 0; k < node.dim(); ++k) r |= ((node.id() >> k) & 1) << (node.dim() - 1 - k);
  const std::vector<std::byte> out = bytes_of(1000, static_cast<unsigned>(node.id()));
  std::vector<std::byte> in(1000);
  Request requests[] = {node.isend(r, out), node.post_recv(r, in)};
  node.wait_all(requests);
  EXPECT_EQ(in, bytes_of(1000, static_cast<unsigned>(r)));
};

TEST(Mpi, ContendedBitReversal) { expect_same(round_config(5), bit_reversal); }

// The same under store-and-forward, in packets: each hop a booking of its own.
TEST(Mpi, ContendedBitReversalStoreAndForward) {
  MachineConfig config = round_config(5);
  config.switching = Switching::store_and_forward;
  config.packet = 256;
  expect_same(config, bit_reversal);
}

// Every node sends to one of four hot spots, one per quarter of the cube, step after step, at staggered times and in
// sizes that differ: routes from every rank meet on the links of the top dimensions, which several ranks share when
// the links are partitioned among them (three ranks and more), so that a round takes several phases there. Under
// circuit switching, and under store-and-forward with messages of one to four packets, whose hops are bookings of
// their own.
class HotSpots : public ::testing::TestWithParam<Switching> {};

TEST_P(HotSpots, OnSharedLinks) {
  const int d = 6;
  MachineConfig config = round_config(d);
  config.switching = GetParam();
  if (config.switching == Switching::store_and_forward) config.packet = 64;
  const Kernel hot_spots = [](Node& node) {
    const int n = node.size();
    const auto spot = [n](int i, int step) { return ((i + step) % 4) * (n / 4) + (step * 5 + 3) % (n / 4); };
    const auto size = [](int i, int step) { return static_cast<std::size_t>(64 + 48 * ((i * 3 + step) % 5)); };
    for (int step = 0; step < 4; ++step) {
      std::vector<std::vector<std::byte>> ins;
      std::vector<int> senders;
      for (int i = 0; i < n; ++i)
        if (i != node.id() && spot(i, step) == node.id()) senders.push_back(i);
      std::vector<Request> requests;
      ins.reserve(senders.size());
      for (int i : senders) {
        ins.emplace_back(size(i, step));
        requests.push_back(node.post_recv(i, ins.back(), step));
      }
      node.elapse(us((node.id() * 13 + step * 5) % 7));
      const std::vector<std::byte> out = bytes_of(size(node.id(), step), static_cast<unsigned>(node.id() + step));
      if (spot(node.id(), step) != node.id()) requests.push_back(node.isend(spot(node.id(), step), out, step));
      node.wait_all(requests);
      for (std::size_t k = 0; k < senders.size(); ++k)
        EXPECT_EQ(ins[k], bytes_of(size(senders[k], step), static_cast<unsigned>(senders[k] + step)));
    }
  };
  expect_same(config, hot_spots);
  // Windows forced small (EmulatorSettings::placing_lookahead_limit): a round's window is at most 1 µs wide, less than
  // the nodes' stagger, and the results are still those of one process.
  EmulatorSettings narrow;
  narrow.placing_lookahead_limit = 1;
  expect_same(config, hot_spots, narrow);
  if (session->ranks() < 2) return;
  // The engine's statistics count the rounds, and the phases where ranks share links (none on 2 ranks).
  EmulatorSettings settings;
  settings.engine_stats = true;
  const RunReport report = session->machine(config, settings).run(hot_spots);
  ASSERT_TRUE(report.engine_stats);
  EXPECT_EQ(report.engine_stats->rounds, report.rounds);
  narrow.engine_stats = true;
  const RunReport narrowed = session->machine(config, narrow).run(hot_spots);
  ASSERT_TRUE(narrowed.engine_stats);
  EXPECT_GT(narrowed.rounds, report.rounds);  // the same transfers, in narrower windows
  EXPECT_EQ(narrowed.engine_stats->lookahead, from_us(1));
  if (session->ranks() == 2) {
    EXPECT_EQ(report.engine_stats->phases, 0u);
  } else {
    EXPECT_GT(report.engine_stats->phases, 0u);
  }
  EXPECT_GT(report.engine_stats->waiting_seconds, 0.0);
  EXPECT_LE(report.engine_stats->waiting_seconds, report.engine_stats->placing_seconds);
  EXPECT_FALSE(report.engine_stats->whole_queue);  // the links shared out
  EXPECT_GT(report.engine_stats->lookahead, 0);
}

// On k:2 ports: in each step every node sends twice back to back, waits for one message, then sends again, to three
// permutations that cross the machine. A send waits for the one before to be placed (a wait for a release), and a
// send waits in the queue while its sender waits for a message. With the links shared out (the cube), a transfer has
// no lead only where its sender waits for a release (docs/engine.md, "Placing in parallel"); with the whole queue on
// every rank (the torus), only such a sender's release bounds a round (docs/mpi.md).
TEST(Mpi, KPortsSendsAroundAReceive) {
  constexpr int kSends = 3;
  const Kernel kernel = [](Node& node) {
    const int n = node.size(), me = node.id();
    const auto to = [n](int k, int i, int step) { return ((2 * k + 3) * i + 5 * step + k + 1) % n; };
    const auto size = [](int k, int i, int step) {
      return static_cast<std::size_t>(32 + 40 * ((i + 2 * step + k) % 6));
    };
    const auto tag = [](int k, int step) { return kSends * step + k; };
    for (int step = 0; step < 4; ++step) {
      std::vector<std::vector<std::byte>> in(kSends), out(kSends);
      std::vector<int> from(kSends);
      std::vector<Request> requests;
      for (int k = 0; k < kSends; ++k) {
        for (int i = 0; i < n; ++i)
          if (to(k, i, step) == me) from[k] = i;
        in[k].resize(size(k, from[k], step));
        requests.push_back(node.post_recv(from[k], in[k], tag(k, step)));
        out[k] = bytes_of(size(k, me, step), static_cast<unsigned>(me + 100 * k + step));
      }
      node.elapse(us((me * 7 + step * 3) % 5));
      requests.push_back(node.isend(to(0, me, step), out[0], tag(0, step)));
      requests.push_back(node.isend(to(1, me, step), out[1], tag(1, step)));
      node.wait(requests[0]);
      requests.push_back(node.isend(to(2, me, step), out[2], tag(2, step)));
      node.wait_all(std::span(requests).subspan(1));
      for (int k = 0; k < kSends; ++k)
        EXPECT_EQ(in[k], bytes_of(size(k, from[k], step), static_cast<unsigned>(from[k] + 100 * k + step)));
    }
  };
  for (const char* topology : {"cube", "torus"}) {
    for (Switching switching : {Switching::circuit, Switching::store_and_forward}) {
      SCOPED_TRACE(std::string(topology) + (switching == Switching::circuit ? ", circuit" : ", store-and-forward"));
      MachineConfig config = round_config(6);
      config.topology = Topology::parse(topology);
      config.ports = Ports::parse("k:2");
      config.switching = switching;
      if (switching == Switching::store_and_forward) config.packet = 64;
      expect_same(config, kernel);
      EmulatorSettings narrow;
      narrow.placing_lookahead_limit = 1;
      expect_same(config, kernel, narrow);
    }
  }
}

// On the torus and the mesh every rank places the whole queue, and the statistics say so. Every node sends to a
// partner across the machine and to one in its own column, step after step, at staggered times and in sizes that
// differ, some routes the long way round (Node::route_ways): routes from several ranks' rows meet on the y links.
// Under circuit switching and store-and-forward, on the torus and the mesh; on one port, and on k:2 ports, where a
// node's second send may start before its first has left it (TimingModel::release_event).
struct GridCase {
  const char* topology;
  Switching switching;
  const char* ports = "one";
};

void PrintTo(const GridCase& c, std::ostream* os) {
  *os << c.topology << (c.switching == Switching::circuit ? ", circuit" : ", store-and-forward") << ", ports "
      << c.ports;
}

class Grids : public ::testing::TestWithParam<GridCase> {};

TEST_P(Grids, PlaceTheWholeQueueOnEveryRank) {
  MachineConfig config = round_config(6);  // 8 x 8
  config.topology = Topology::parse(GetParam().topology);
  config.switching = GetParam().switching;
  config.ports = Ports::parse(GetParam().ports);
  if (config.switching == Switching::store_and_forward) config.packet = 64;
  const bool wrap = config.topology.kind == Topology::Kind::torus;
  const Kernel kernel = [wrap](Node& node) {
    const int n = node.size(), cols = 8;
    const auto size = [](int i, int step) { return static_cast<std::size_t>(40 + 56 * ((i * 5 + step) % 4)); };
    for (int step = 1; step < 5; ++step) {
      // Across the machine (a permutation), and down the column: i receives from the nodes that send to it.
      const int across = (node.id() * 5 + step * 9) % n, down = (node.id() + step * cols) % n;
      int from_across = 0;
      while ((from_across * 5 + step * 9) % n != node.id()) ++from_across;
      const int from_down = (node.id() - step * cols % n + n) % n;
      if (wrap) node.route_ways(step % 2 == 0 ? Way::shorter : Way::minus, step == 3 ? Way::plus : Way::shorter);
      std::vector<std::byte> in_across(size(from_across, step)), in_down(size(from_down, step + 7));
      Request requests[] = {node.post_recv(from_across, in_across, step),
                            node.post_recv(from_down, in_down, step + 100)};
      node.elapse(us((node.id() * 7 + step * 3) % 5));
      const std::vector<std::byte> out_across = bytes_of(size(node.id(), step), static_cast<unsigned>(node.id()));
      const std::vector<std::byte> out_down = bytes_of(size(node.id(), step + 7), static_cast<unsigned>(-node.id()));
      Request sends[] = {node.isend(across, out_across, step), node.isend(down, out_down, step + 100)};
      node.wait_all(requests);
      node.wait_all(sends);
      EXPECT_EQ(in_across, bytes_of(size(from_across, step), static_cast<unsigned>(from_across)));
      EXPECT_EQ(in_down, bytes_of(size(from_down, step + 7), static_cast<unsigned>(-from_down)));
    }
  };
  expect_same(config, kernel);
  EmulatorSettings settings;
  settings.engine_stats = true;
  const RunReport report = session->machine(config, settings).run(kernel);
  ASSERT_TRUE(report.engine_stats);
  EXPECT_EQ(report.engine_stats->whole_queue, session->ranks() > 1);
  EXPECT_EQ(report.engine_stats->phases, 0u);
  std::uint64_t contended = 0;
  for (const LinkStats& link : report.links) contended += link.contention_events;
  EXPECT_GT(contended, 0u);
  EXPECT_FALSE(Machine(config, settings).run(kernel).engine_stats->whole_queue);  // in one process
}

INSTANTIATE_TEST_SUITE_P(Mpi, Grids,
                         ::testing::Values(GridCase{"torus", Switching::circuit},
                                           GridCase{"torus", Switching::store_and_forward},
                                           GridCase{"mesh", Switching::circuit},
                                           GridCase{"mesh", Switching::store_and_forward},
                                           GridCase{"mesh", Switching::circuit, "k:2"},
                                           GridCase{"torus", Switching::store_and_forward, "k:2"}),
                         [](const ::testing::TestParamInfo<GridCase>& grid) {
                           return std::string(grid.param.topology) +
                                  (grid.param.switching == Switching::circuit ? "_circuit" : "_store_and_forward") +
                                  (std::string(grid.param.ports) == "one" ? "" : "_k2");
                         });

// Ranks on one host that mpirun left unbound (more ranks than cores, as under ctest on a small machine, or
// --bind-to none) share the host's cores out by default, at least one worker each, rather than each starting a
// worker per core of the host; a rank bound to cores of its own runs one worker per core it may use. Never more
// workers than the rank's nodes.
TEST(Mpi, UnboundRanksShareTheHostsCores) {
  if (session->ranks() < 2) GTEST_SKIP() << "one rank";
  MPI_Comm local = MPI_COMM_NULL;
  ASSERT_EQ(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local), MPI_SUCCESS);
  int on_host = 1;
  MPI_Comm_size(local, &on_host);
  MPI_Comm_free(&local);
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  const int mine = CPU_COUNT(&set), host = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  const int unbound = on_host > 1 ? std::max(1, host / on_host) : mine;
  const MachineConfig config = round_config(5);
  const int rank = session->rank(), ranks = session->ranks();
  const int nodes_here = (rank + 1) * config.nodes() / ranks - rank * config.nodes() / ranks;  // run_state.cpp
  EmulatorSettings settings;
  settings.engine = EngineKind::tasks;
  settings.engine_stats = true;
  const Kernel kernel = [](Node& node) { node.exchange(node.id() ^ 1, bytes_of(8, 1), std::vector<std::byte>(8)); };
  const RunReport report = session->machine(config, settings).run(kernel);
  ASSERT_TRUE(report.engine_stats);
  EXPECT_EQ(report.engine_stats->workers, std::min(mine < host ? mine : unbound, nodes_here));
  settings.workers = 3;  // as asked, whatever the host
  EXPECT_EQ(session->machine(config, settings).run(kernel).engine_stats->workers, std::min(3, nodes_here));
}

// Under LogGP no transfer books a link, on the torus as on the cube: each rank places its own senders' transfers, a
// sender those to its own rank's nodes at once, and only the messages between ranks wait for a round. Every node
// sends to every other, each send after the last, and receives from any source in between, with a test that polls.
TEST(Mpi, LogGPSendersPlaceTheirOwnRanksTransfers) {
  for (const char* topology : {"cube", "torus"}) {
    SCOPED_TRACE(topology);
    MachineConfig config = preset("loggp", 4);
    config.topology = Topology::parse(topology);
    const Kernel kernel = [](Node& node) {
      std::vector<std::byte> in(48);
      for (int k = 1; k < node.size(); ++k) {
        const int to = (node.id() + k) % node.size();
        Request r = node.post_recv(kAnySource, in, k);
        node.send(to, bytes_of(48, static_cast<unsigned>(node.id() * 31 + k)), k);
        while (!node.test(r)) node.elapse(from_us(0.5));
      }
    };
    expect_same(config, kernel);
    if (session->ranks() < 2) continue;
    EmulatorSettings settings;
    settings.engine_stats = true;
    const RunReport report = session->machine(config, settings).run(kernel);
    ASSERT_TRUE(report.engine_stats);
    EXPECT_FALSE(report.engine_stats->whole_queue);
    EXPECT_GT(report.engine_stats->placed_by_senders, 0u);  // those to its own rank's nodes
    EXPECT_GT(report.engine_stats->transfers_placed, 0u);   // those to another's, in rounds
  }
}

INSTANTIATE_TEST_SUITE_P(Mpi, HotSpots, ::testing::Values(Switching::circuit, Switching::store_and_forward),
                         [](const ::testing::TestParamInfo<Switching>& param_info) {
                           return param_info.param == Switching::circuit ? "Circuit" : "StoreAndForward";
                         });

// A rank's part of a round placed by several workers at once, in levels, as one process places a batch: two workers
// on each rank, sharing every level of two transfers or more (one core per rank, so the workers take turns).
TEST(Mpi, LevelsSharedAmongTheWorkersOfARank) {
  EmulatorSettings settings;
  settings.engine = EngineKind::tasks;
  settings.workers = 2;
  settings.placing_share_from = 2;
  const int d = 5;
  const Kernel kernel = [d](Node& node) {
    for (int step = 1; step < node.size(); ++step) {  // the Direct exchange: pairs along each mask
      const int partner = node.id() ^ step;
      node.exchange(partner, bytes_of(40, static_cast<unsigned>(node.id())), std::vector<std::byte>(40), step);
    }
    int r = 0;  // then every node to its bit reversal at once: contention on the high dimensions
    for (int k = 0; k < d; ++k) r |= ((node.id() >> k) & 1) << (d - 1 - k);
    std::vector<std::byte> in(300);
    Request requests[] = {node.isend(r, bytes_of(300, static_cast<unsigned>(node.id()))), node.post_recv(r, in)};
    node.wait_all(requests);
    EXPECT_EQ(in, bytes_of(300, static_cast<unsigned>(r)));
  };
  expect_same(round_config(d), kernel, settings);
  if (session->ranks() < 2) return;
  settings.engine_stats = true;
  const RunReport report = session->machine(round_config(d), settings).run(kernel);
  ASSERT_TRUE(report.engine_stats);
  EXPECT_GT(report.engine_stats->transfers_shared, 0u);  // the levels were shared
}

// Where a transfer takes no time (every cost zero) its placing brings its events at its own ready time: the links'
// partition has no lead to go on, and each round places the least transfer of all alone.
TEST(Mpi, ZeroCostsPlaceOneTransferAtATime) {
  MachineConfig config = round_config(4);
  config.lambda = config.tau = config.delta_hop = config.delta_msg = 0;
  config.lambda0 = 0;
  expect_same(config, [](Node& node) {
    for (int k = node.dim() - 1; k >= 0; --k)
      node.exchange(node.neighbor(k), bytes_of(16, static_cast<unsigned>(node.id())), std::vector<std::byte>(16));
  });
}

// Node 0 receives from any source, and waits for the first of several, while the senders start at staggered times.
TEST(Mpi, AnySourceAndWaitAny) {
  const int d = 3;
  expect_same(round_config(d), [](Node& node) {
    if (node.id() == 0) {
      std::vector<std::byte> in(16);
      for (int i = 1; i < node.size() / 2; ++i) {
        const Status s = node.recv(kAnySource, in, 1);
        EXPECT_EQ(in, bytes_of(16, static_cast<unsigned>(s.source)));
      }
      std::vector<std::vector<std::byte>> ins(static_cast<std::size_t>(node.size() / 2), std::vector<std::byte>(16));
      std::vector<Request> r;
      for (int i = node.size() / 2; i < node.size(); ++i)
        r.push_back(node.post_recv(i, ins[static_cast<std::size_t>(i - node.size() / 2)], 2));
      for (std::size_t k = 0; k < r.size(); ++k) node.wait_any(r);
    } else {
      node.elapse(us(7.0 * ((node.id() * 5) % node.size())));
      node.send(0, bytes_of(16, static_cast<unsigned>(node.id())), node.id() < node.size() / 2 ? 1 : 2);
    }
  });
}

// test() polls until its receive completes: each call asks what has been placed by the node's clock.
TEST(Mpi, TestPolls) {
  SKIP_WITH_MORE_RANKS_THAN_FOUR_NODES();
  expect_same(round_config(2), [](Node& node) {
    std::vector<std::byte> in(8);
    const int partner = node.id() ^ 3;
    Request r = node.post_recv(partner, in);
    node.elapse(us(node.id() * 3.0));
    node.send(partner, bytes_of(8, static_cast<unsigned>(node.id())));
    while (!node.test(r)) node.elapse(us(1));
  });
}

// Barriers between phases of unequal work: the release waits for the latest node of every rank.
TEST(Mpi, Barriers) {
  expect_same(round_config(4), [](Node& node) {
    for (int phase = 0; phase < 3; ++phase) {
      node.elapse(us(((node.id() * 7 + phase * 3) % 11) * 1.0));
      node.barrier();
      node.exchange(node.neighbor(phase % node.dim()), bytes_of(32), std::vector<std::byte>(32));
    }
  });
}

// FORCED: a message that arrives before its receive is posted is lost; an UNFORCED one nobody receives is left over.
TEST(Mpi, DiscardsAndLeftovers) {
  SKIP_WITH_MORE_RANKS_THAN_FOUR_NODES();
  MachineConfig forced = round_config(2);
  forced.protocol = Protocol::forced;
  const Kernel late_receive = [](Node& node) {
    const int partner = node.id() ^ 2;
    if (node.id() < 2) {
      node.send(partner, bytes_of(8));
    } else {
      node.elapse(us(100));
      std::vector<std::byte> in(8);
      Request r = node.post_recv(partner, in);
      (void)r;  // never completed: the message was lost
    }
  };
  expect_same(forced, late_receive);
  MachineConfig unforced = round_config(2);
  expect_same(unforced, [](Node& node) {
    if (node.id() == 0) node.send(3, bytes_of(8));
  });
}

// --- errors end every rank the same way ---

TEST(Mpi, ExceptionOnTheLastRankReachesEveryRank) {
  const MachineConfig config = round_config(3);
  Machine machine = session->machine(config);
  const int last = config.nodes() - 1;
  try {
    machine.run([last](Node& node) {
      if (node.id() == last) throw std::runtime_error("boom on the last node");
      std::vector<std::byte> in(8);
      node.recv(last, in);  // never comes
    });
    ADD_FAILURE() << "no KernelError";
  } catch (const KernelError& e) {
    EXPECT_EQ(e.node, last);
    EXPECT_NE(std::string(e.what()).find("boom on the last node"), std::string::npos) << e.what();
  }
  // The machine runs again afterwards.
  const RunReport again = machine.run([](Node& node) { node.barrier(); });
  EXPECT_EQ(again.makespan, from_us(3 + 4 * 3));
}

// Runs `kernel` on a d-cube whose τ (7.63e6 µs per byte: 64 KiB take about 5e17 ps) takes its transfers past the
// model's range, and expects every rank to report the failure of `node`; then the machine runs again.
void expect_range_failure_of(int d, const EmulatorSettings& settings, const Kernel& kernel, int node) {
  MachineConfig config = round_config(d);
  config.tau = 7.63e6;
  Machine machine = session->machine(config, settings);
  try {
    machine.run(kernel);
    ADD_FAILURE() << "expected the transfers to leave the model's range";
  } catch (const KernelError& e) {
    EXPECT_EQ(e.node, node) << e.what();
    EXPECT_NE(std::string(e.what()).find("range"), std::string::npos) << e.what();
  }
  const RunReport again = machine.run([](Node& n) { n.barrier(); });
  EXPECT_EQ(again.makespan, from_us(3 + 4 * d));
}

// Transfers that leave the model's range only once contention delays them fail where they are placed: with the links
// shared out, on the rank of their sender alone. Every rank reports the failure of the first node in model-time
// order, as one process does (in each half of the 4-cube three transfers into node 7 share a link; the third, node
// 3's, ends past the range: core_errors_test has the same kernel in one process). The machine runs again afterwards.
TEST(Mpi, TransfersLeavingTheRangeFailOnEveryRankAsInOneProcess) {
  expect_range_failure_of(4, {}, [](Node& node) {
    const int low = node.id() & 7;
    if (low < 1 || low > 3) return;
    node.elapse(from_us(3e12));  // 3e18 ps of the model's 4.6e18
    node.send(node.id() | 7, std::vector<std::byte>(low == 3 ? 3 << 15 : 1 << 16));
  }, 3);
}

// Two such failures at once, the later in model time on the lower rank and placed first where a batch goes in levels
// (test::two_failures_out_of_order; core_errors_test runs it in one process): on every rank, spread however, the
// failure reported is the first in model-time order, node 19's, whichever rank meets it and when.
TEST(Mpi, TheFirstFailureInModelTimeOrderIsReportedOnEveryRank) {
  EmulatorSettings settings;
  settings.placing_share_from = 2;
  expect_range_failure_of(5, settings, test::two_failures_out_of_order(), 19);
}

// Under store-and-forward a rank goes on placing its hops on its own links after a round's window, and a hop that
// would end past the model's range there waits, with its message, for a later window, where the failure reported is
// the first in model-time order. About half the nodes (a fixed draw) send 8 to 32 KiB to node 0 from 3e18 ps on, up
// to 5e17 ps apart, so that hops queued on the links into node 0 end past the range; with this draw a hop placed after
// a window on 2 ranks does. Every rank reports the failure that one process reports, and the machine runs again.
TEST(Mpi, StoreAndForwardFailuresReportTheFirstInModelTimeOrder) {
  MachineConfig config = round_config(5);
  config.switching = Switching::store_and_forward;
  config.tau = 7.63e6;  // µs per byte: 8 KiB take 6.25e16 ps a hop
  const Kernel kernel = [](Node& node) {
    unsigned x = 21 * 2654435761u + static_cast<unsigned>(node.id()) * 40503u;
    const auto draw = [&x] {
      x = x * 1103515245u + 12345u;
      return (x >> 16) & 0x7fff;
    };
    if (draw() % 2 == 0 || node.id() == 0) return;
    node.elapse(from_us(3e12 + 1e10 * (draw() % 50)));
    node.send(0, std::vector<std::byte>(std::size_t{8192} * (1 + draw() % 4)));
  };
  int node = -1;
  std::string what;
  try {
    Machine(config).run(kernel);
    FAIL() << "expected the transfers to leave the model's range in one process";
  } catch (const KernelError& e) {
    node = e.node;
    what = e.what();
  }
  EXPECT_NE(what.find("range"), std::string::npos) << what;
  Machine spread = session->machine(config);
  try {
    spread.run(kernel);
    ADD_FAILURE() << "expected the transfers to leave the model's range";
  } catch (const KernelError& e) {
    EXPECT_EQ(e.node, node) << e.what();
    EXPECT_EQ(std::string(e.what()), what);
  }
  const RunReport again = spread.run([](Node& n) { n.barrier(); });
  EXPECT_EQ(again.makespan, from_us(3 + 4 * 5));
}

TEST(Mpi, DeadlockAcrossRanksIsReportedOnEveryRank) {
  const MachineConfig config = round_config(3);
  const int last = config.nodes() - 1;
  try {
    session->machine(config).run([last](Node& node) {
      std::vector<std::byte> in(8);
      if (node.id() == 0) node.recv(last, in, 5);  // node `last` sends with tag 6
      if (node.id() == last) node.send(0, bytes_of(8), 6);
    });
    ADD_FAILURE() << "no DeadlockError";
  } catch (const DeadlockError& e) {
    ASSERT_EQ(e.blocked.size(), 1u) << e.what();
    EXPECT_EQ(e.blocked[0].node, 0);
    EXPECT_EQ(e.blocked[0].peer, last);
    EXPECT_EQ(e.blocked[0].tag, 5);
    ASSERT_TRUE(e.report);
    EXPECT_EQ(e.report->nodes.size(), static_cast<std::size_t>(config.nodes()));
    EXPECT_EQ(e.finished.size(), static_cast<std::size_t>(config.nodes() - 1));
  }
}

TEST(Mpi, MessageLongerThanItsReceiveAcrossRanksIsAnError) {
  const MachineConfig config = round_config(3);
  const int last = config.nodes() - 1;
  try {
    session->machine(config).run([last](Node& node) {
      if (node.id() == 0) node.send(last, bytes_of(64));
      if (node.id() == last) {
        std::vector<std::byte> in(16);
        node.recv(0, in);
      }
    });
    ADD_FAILURE() << "no KernelError";
  } catch (const KernelError& e) {
    EXPECT_EQ(e.node, last);
    EXPECT_NE(std::string(e.what()).find("64"), std::string::npos) << e.what();
  }
}

// Found only after the run, when each rank looks at what its nodes left: every rank reports the same error.
TEST(Mpi, OversizeMessageLeftAfterTheEndIsAnErrorOnEveryRank) {
  const MachineConfig config = round_config(3);
  const int last = config.nodes() - 1;
  std::string alone;
  try {
    Machine(config).run([last](Node& node) {  // in this process alone
      auto in = node.allocate<std::byte>(16);
      if (node.id() == last) (void)node.post_recv(0, in.span());  // never waited for
      if (node.id() == 0) (void)node.isend(last, bytes_of(64));
    });
  } catch (const KernelError& e) {
    alone = e.what();
  }
  EXPECT_FALSE(alone.empty());
  try {
    session->machine(config).run([last](Node& node) {
      auto in = node.allocate<std::byte>(16);
      if (node.id() == last) (void)node.post_recv(0, in.span());
      if (node.id() == 0) (void)node.isend(last, bytes_of(64));
    });
    ADD_FAILURE() << "no KernelError";
  } catch (const KernelError& e) {
    EXPECT_EQ(e.node, last);
    EXPECT_EQ(std::string(e.what()), alone);
  }
}

TEST(Mpi, MoreRanksThanNodesIsRefused) {
  MachineConfig config = round_config(0);
  if (session->ranks() < 2) GTEST_SKIP();
  EXPECT_THROW(session->machine(config).run([](Node&) {}), UsageError);
}

// --- native and wall timing: real time, so not compared exactly; the data, the counts and the errors are ---

EmulatorSettings timed(Timing timing) {
  EmulatorSettings s;
  s.timing = timing;
  s.time_scale = 100;
  return s;
}

// A ping-pong between node 0 and the last node (on another rank), then a barrier.
RunReport ping_pong(Timing timing) {
  const MachineConfig config = round_config(2);
  const int last = config.nodes() - 1;
  return session->machine(config, timed(timing)).run([last](Node& node) {
    std::vector<std::byte> in(256);
    if (node.id() == 0) {
      node.send(last, bytes_of(256, 1));
      node.recv(last, in);
      EXPECT_EQ(in, bytes_of(256, 2));
    } else if (node.id() == last) {
      node.recv(0, in);
      EXPECT_EQ(in, bytes_of(256, 1));
      node.send(0, bytes_of(256, 2));
    }
    node.barrier();
  });
}

TEST(Mpi, NativeTimingMovesDataAcrossRanks) {
  SKIP_WITH_MORE_RANKS_THAN_FOUR_NODES();
  const RunReport r = ping_pong(Timing::native);
  EXPECT_EQ(r.ranks, session->ranks());
  ASSERT_EQ(r.nodes.size(), 4u);
  EXPECT_EQ(r.nodes[0].messages_received, 1u);
  EXPECT_EQ(r.nodes[3].messages_received, 1u);
  EXPECT_GT(r.nodes[0].final_clock, 0);
}

TEST(Mpi, WallTimingMovesDataAcrossRanks) {
  SKIP_WITH_MORE_RANKS_THAN_FOUR_NODES();
  const RunReport r = ping_pong(Timing::wall);
  EXPECT_EQ(r.ranks, session->ranks());
  // The round trip's model time at least: two 256-byte messages over two hops (λ + δ' + 2δ + 256τ each).
  EXPECT_GE(r.nodes[0].final_clock, 2 * us(10 + 2 + 2 + 0.5 * 256));
}

TEST(Mpi, NativeDeadlockAndExceptionAcrossRanks) {
  SKIP_WITH_MORE_RANKS_THAN_FOUR_NODES();
  const MachineConfig config = round_config(2);
  const int last = config.nodes() - 1;
  try {
    session->machine(config, timed(Timing::native)).run([last](Node& node) {
      std::vector<std::byte> in(8);
      if (node.id() == last) node.recv(0, in, 9);
    });
    ADD_FAILURE() << "no DeadlockError";
  } catch (const DeadlockError& e) {
    ASSERT_EQ(e.blocked.size(), 1u) << e.what();
    EXPECT_EQ(e.blocked[0].node, last);
    EXPECT_EQ(e.blocked[0].tag, 9);
  }
  try {
    session->machine(config, timed(Timing::native)).run([last](Node& node) {
      if (node.id() == last) throw std::runtime_error("native boom");
      node.barrier();
    });
    ADD_FAILURE() << "no KernelError";
  } catch (const KernelError& e) {
    EXPECT_EQ(e.node, last);
    EXPECT_NE(std::string(e.what()).find("native boom"), std::string::npos) << e.what();
  }
}

// Prints only rank 0's progress; other ranks print their failures, named by rank.
class RankFailures : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailures(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed())
      std::cerr << "MPI rank " << rank_ << ": " << (r.file_name() ? r.file_name() : "") << ":" << r.line_number()
                << ": " << r.summary() << std::endl;
  }

 private:
  int rank_;
};

}  // namespace
}  // namespace hcemu

int main(int argc, char** argv) {
  hcemu::mpi::Session session(argc, argv);
  hcemu::session = &session;
  ::testing::InitGoogleTest(&argc, argv);
  if (session.rank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new hcemu::RankFailures(session.rank()));
  }
  return RUN_ALL_TESTS();
}
