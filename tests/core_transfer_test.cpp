// docs/model.md §3 and §4 on hand-worked cases.
#include <gtest/gtest.h>

#include <atomic>
#include <bit>

#include "core_support.hpp"

namespace hcemu {
namespace {

using test::bytes_of;
using test::ping_pong;
using test::round_config;
using test::us;

// circuit, h hops, L bytes: λ + δ' + δh + τL (λ0 for L = 0) with the round parameters.
Time circuit(int hops, std::size_t bytes) { return us((bytes == 0 ? 7 : 10) + 2 + 1.0 * hops + 0.5 * double(bytes)); }

TEST(Transfers, PingPongAtEveryDistanceTakesTwoTransfers) {
  constexpr int d = 4;
  constexpr std::size_t m = 100;
  for (int partner = 1; partner < (1 << d); ++partner) {
    const RunReport report = ping_pong(round_config(d), partner, m);
    const int h = std::popcount(static_cast<unsigned>(partner));
    EXPECT_EQ(report.nodes[0].final_clock, 2 * circuit(h, m)) << "partner " << partner;
    EXPECT_EQ(report.makespan, 2 * circuit(h, m));
    EXPECT_EQ(report.contention_events(), 0u);
  }
}

TEST(Transfers, ZeroByteMessageUsesLambda0) {
  Machine machine(round_config(1));
  auto report = machine.run([](Node& node) {
    if (node.id() == 0) node.send(1, std::span<const std::byte>{});
    else node.recv(0, std::span<std::byte>{});
  });
  EXPECT_EQ(report.makespan, us(7 + 2 + 1));
}

// Node 0 sends m bytes to each of its d neighbours with isend, then waits for them all.
Time fan_out(Ports ports) {
  constexpr int d = 3;
  auto config = round_config(d);
  config.ports = ports;
  Machine machine(config);
  auto report = machine.run([](Node& node) {
    std::vector<std::byte> buf(64);
    if (node.id() == 0) {
      std::vector<Request> sends;
      for (int k = 0; k < node.dim(); ++k) sends.push_back(node.isend(node.neighbor(k), buf));
      node.wait_all(sends);
    } else if (std::popcount(static_cast<unsigned>(node.id())) == 1) {
      node.recv(0, buf);
    }
  });
  return report.makespan;
}

TEST(Ports, OnePortSendsOneAtATime) { EXPECT_EQ(fan_out(Ports{Ports::Kind::one, 1}), 3 * circuit(1, 64)); }
TEST(Ports, AllPortSendsOnEveryLinkAtOnce) { EXPECT_EQ(fan_out(Ports{Ports::Kind::all, 0}), circuit(1, 64)); }
TEST(Ports, KPortsSendNAtATime) { EXPECT_EQ(fan_out(Ports{Ports::Kind::k, 2}), 2 * circuit(1, 64)); }

Time pairwise_exchange(Ports ports) {
  auto config = round_config(1);
  config.ports = ports;
  Machine machine(config);
  auto report = machine.run([](Node& node) {
    std::vector<std::byte> in(40);
    node.exchange(node.neighbor(0), bytes_of(40, static_cast<unsigned>(node.id())), in);
    EXPECT_EQ(in, bytes_of(40, static_cast<unsigned>(node.neighbor(0))));
  });
  return report.makespan;
}

TEST(Ports, FullDuplexExchangeCostsOneTransfer) { EXPECT_EQ(pairwise_exchange({Ports::Kind::one, 1}), circuit(1, 40)); }
TEST(Ports, HalfDuplexExchangeCostsTwoTransfers) {
  EXPECT_EQ(pairwise_exchange({Ports::Kind::half, 1}), 2 * circuit(1, 40));
}

TEST(Ports, OnePortReceiverTakesArrivalsOneAtATime) {
  // Nodes 1 and 2 both send to node 0 at time 0 over different links; node 0's one input port takes them in
  // turn: the second completes at max(arrival, first completion + its duration) = 2 transfers.
  Machine machine(round_config(2));
  auto report = machine.run([](Node& node) {
    std::vector<std::byte> buf(16);
    if (node.id() == 1 || node.id() == 2) node.send(0, buf);
    if (node.id() == 0) {
      std::array<std::vector<std::byte>, 2> in{std::vector<std::byte>(16), std::vector<std::byte>(16)};
      std::array<Request, 2> r{node.post_recv(1, in[0]), node.post_recv(2, in[1])};
      node.wait_all(r);
    }
  });
  EXPECT_EQ(report.nodes[0].final_clock, 2 * circuit(1, 16));
  EXPECT_EQ(report.nodes[1].final_clock, circuit(1, 16));  // the sender is not held back by the receiver
}

TEST(Ports, WaitAllOnOneReceiveIsNotEndedByMessagesForOthers) {
  // Node 0 posts a receive from each other node and waits for node 7's alone, which is sent last: the six messages
  // matched meanwhile are for receives outside the wait, and must neither end it early nor leave it waiting for a
  // seventh delivery that never comes.
  constexpr int d = 3;
  constexpr std::size_t m = 16;
  Machine machine(round_config(d));
  Time after_first = -1;
  machine.run([&](Node& node) {
    if (node.id() == 7) node.elapse(us(1000));
    if (node.id() != 0) {
      node.send(0, bytes_of(m, static_cast<unsigned>(node.id())));
      return;
    }
    std::vector<std::vector<std::byte>> in(1 << d, std::vector<std::byte>(m));
    std::vector<Request> others;
    for (int s = 1; s < 7; ++s) others.push_back(node.post_recv(s, in[static_cast<std::size_t>(s)]));
    std::array<Request, 1> last{node.post_recv(7, in[7])};
    node.wait_all(last);
    after_first = node.clock();
    node.wait_all(others);
    for (int s = 1; s < (1 << d); ++s) EXPECT_EQ(in[static_cast<std::size_t>(s)], bytes_of(m, static_cast<unsigned>(s)));
  });
  EXPECT_EQ(after_first, us(1000) + circuit(d, m));
}

TEST(Switching, StoreAndForwardTakesEachHopInTurn) {
  auto config = round_config(3);
  config.switching = Switching::store_and_forward;
  Machine machine(config);
  auto report = machine.run([](Node& node) {
    std::vector<std::byte> buf(20);
    if (node.id() == 0) node.send(7, buf);
    if (node.id() == 7) node.recv(0, buf);
  });
  const Time hop = us(10 + 0.5 * 20);  // λ + τL, no δ under store-and-forward
  EXPECT_EQ(report.nodes[0].final_clock, hop);  // a blocking send returns at the end of its first hop
  EXPECT_EQ(report.nodes[7].final_clock, 3 * hop);
  EXPECT_EQ(report.links.size(), 3u);
}

TEST(Switching, StoreAndForwardPipelinesPackets) {
  auto config = round_config(2);
  config.switching = Switching::store_and_forward;
  config.packet = 8;
  Machine machine(config);
  auto report = machine.run([](Node& node) {
    std::vector<std::byte> buf(20);  // packets of 8, 8 and 4 bytes
    if (node.id() == 0) node.send(3, buf);
    if (node.id() == 3) node.recv(0, buf);
  });
  const Time full = us(10 + 0.5 * 8), last = us(10 + 0.5 * 4);
  // Packet p leaves hop 1 at (p+1)·full; the last hop finishes one packet time later for each packet.
  EXPECT_EQ(report.nodes[0].final_clock, 2 * full + last);
  EXPECT_EQ(report.nodes[3].final_clock, 3 * full + last);
}

TEST(Switching, CircuitPacketsEachPayTheirStartUp) {
  auto config = round_config(2);
  config.packet = 8;
  Machine machine(config);
  auto report = machine.run([](Node& node) {
    std::vector<std::byte> buf(20);
    if (node.id() == 0) node.send(3, buf);
    if (node.id() == 3) node.recv(0, buf);
  });
  EXPECT_EQ(report.makespan, circuit(2, 8) + circuit(2, 8) + circuit(2, 4));
}

TEST(Barrier, EveryNodeLeavesAtTheLatestEntryPlusQ) {
  Machine machine(round_config(3));
  auto report = machine.run([](Node& node) {
    node.elapse(from_us(node.id() * 5.0));
    node.barrier();
    EXPECT_EQ(node.clock(), us(7 * 5.0 + 3 + 4 * 3));
  });
  for (const auto& n : report.nodes) EXPECT_EQ(n.final_clock, us(35 + 15));
}

TEST(LocalWork, CopyPermuteAndComputeChargeTheirRates) {
  Machine machine(round_config(0));
  auto report = machine.run([](Node& node) {
    auto from = node.allocate<std::byte>(64);
    auto to = node.allocate<std::byte>(64);
    for (std::size_t i = 0; i < 64; ++i) from[i] = std::byte(i);
    node.copy(from, to);
    EXPECT_EQ(node.clock(), us(0.25 * 64));
    std::vector<std::uint32_t> order{3, 2, 1, 0};
    node.permute(from, to, 16, order);
    EXPECT_EQ(to[0], std::byte(48));
    EXPECT_EQ(to[63], std::byte(15));
    node.compute(1000);
    EXPECT_EQ(node.clock(), us(0.25 * 128 + 1));
  });
  EXPECT_EQ(report.makespan, us(33));
}

TEST(Contention, CrossingCircuitWaitsForTheLinkAndIsCounted) {
  // all-port. Node 1 sends L bytes to 3 over link 1->3, then tells node 0 (a zero-byte message on link 1->0).
  // Node 0 then sends to 3 by e-cube, 0->1->3: link 1->3 is still held, so it waits until node 1's transfer ends.
  constexpr std::size_t L = 200;
  auto config = round_config(2);
  config.ports = {Ports::Kind::all, 0};
  Machine machine(config);
  auto report = machine.run([](Node& node) {
    std::vector<std::byte> buf(L);
    if (node.id() == 1) {
      Request r = node.isend(3, buf);
      node.send(0, std::span<const std::byte>{});
      node.wait(r);
    } else if (node.id() == 0) {
      node.recv(1, std::span<std::byte>{});
      node.send(3, buf);
    } else if (node.id() == 3) {
      node.recv(1, buf);
      node.recv(0, buf);
    }
  });
  const Time first = circuit(1, L);  // 1 -> 3
  const Time told = circuit(1, 0);   // 1 -> 0, zero bytes
  EXPECT_EQ(report.nodes[0].final_clock, first + circuit(2, L));
  EXPECT_EQ(report.contention_events(), 1u);
  EXPECT_EQ(report.contention_delay(), first - told);
  bool found = false;
  for (const auto& l : report.links)
    if (l.from == 1 && l.to() == 3) found = l.contention_events == 1;
  EXPECT_TRUE(found);
}

TEST(Contention, DirectExchangeXorScheduleIsContentionFree) {
  constexpr int d = 4;
  Machine machine(round_config(d));
  auto report = machine.run([](Node& node) {
    std::vector<std::byte> out(32), in(32);
    for (int k = 1; k < node.size(); ++k) node.exchange(node.id() ^ k, out, in, k);
  });
  Time expected = 0;
  for (int k = 1; k < (1 << d); ++k) expected += circuit(std::popcount(static_cast<unsigned>(k)), 32);
  EXPECT_EQ(report.makespan, expected);
  EXPECT_EQ(report.contention_events(), 0u);
}

}  // namespace
}  // namespace hcemu
