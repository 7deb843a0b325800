// docs/model.md §14, the overheads Johnsson & Ho (1987) measured on the Intel iPSC: a fixed time per Node::compute
// call (compute_overhead), a per-byte copy of a message longer than a packet (split_copy), and a port's overlap of the
// node's next transfer (port_overlap). Expected times are worked by hand from the model on round parameters.
#include <gtest/gtest.h>

#include <bit>
#include <vector>

#include "core_support.hpp"
#include "hcemu/model/costs.hpp"
#include "hcemu/model/transfer.hpp"

namespace hcemu {
namespace {

using test::bytes_of;
using test::ping_pong;
using test::round_config;
using test::us;

TEST(MeasuredOverheads, TheKeysDefaultToNothing) {
  const MachineConfig c;
  EXPECT_EQ(c.compute_overhead, 0.0);
  EXPECT_EQ(c.split_copy, 0.0);
  EXPECT_EQ(c.port_overlap, 0.0);
  MachineConfig bad;
  bad.port_overlap = 1.5;
  EXPECT_THROW(bad.validate(), ConfigError);
}

// Every compute call pays t_o on top of t_a per flop, a call of no flops too: 3 calls of 1000 flops and one of none at
// t_a = 0.001 µs, t_o = 2.5 µs end at 3·(1 + 2.5) + 2.5 = 13 µs.
TEST(MeasuredOverheads, EveryComputeCallPaysItsOverhead) {
  MachineConfig config = round_config(1);
  config.compute_overhead = 2.5;
  EXPECT_EQ(model::compute_time(config, 1000), us(3.5));
  EXPECT_EQ(model::compute_time(config, 0), us(2.5));
  const RunReport report = Machine(config).run([](Node& node) {
    for (int i = 0; i < 3; ++i) node.compute(1000);
    node.compute(0);
  });
  EXPECT_EQ(report.makespan, us(13));
  for (const NodeStats& n : report.nodes) EXPECT_EQ(n.final_clock, us(13));
}

// Circuit, 16-byte packets, σ = 0.25 µs/byte: a 20-byte message is split, so its packets of 16 and 4 bytes pay
// λ + δ' + δh + (τ + σ)·L each; a 16-byte one is not and pays τ alone.
TEST(MeasuredOverheads, ASplitMessageCopiesEveryByteUnderCircuitSwitching) {
  MachineConfig config = round_config(3);
  config.packet = 16;
  config.split_copy = 0.25;
  for (int partner : {1, 3, 7}) {
    const int h = std::popcount(static_cast<unsigned>(partner));
    const double split = (10 + 2 + h + 0.75 * 16) + (10 + 2 + h + 0.75 * 4);
    EXPECT_EQ(test::ping_pong(config, partner, 20).makespan, us(2 * split)) << "partner " << partner;
    EXPECT_EQ(model::message_time(config, 20, h), us(split));
    const double whole = 10 + 2 + h + 0.5 * 16;
    EXPECT_EQ(test::ping_pong(config, partner, 16).makespan, us(2 * whole));
    EXPECT_EQ(model::message_time(config, 16, h), us(whole));
  }
}

// Store-and-forward: each hop of the 16-byte packet takes 10 + 0.75·16 = 22 µs, of the 4-byte one 10 + 0.75·4 = 13 µs;
// they pipeline, so over h hops the message ends at 22h + 13.
TEST(MeasuredOverheads, ASplitMessageCopiesEveryByteOnEveryHopUnderStoreAndForward) {
  MachineConfig config = round_config(3);
  config.switching = Switching::store_and_forward;
  config.packet = 16;
  config.split_copy = 0.25;
  for (int partner : {1, 3, 7}) {
    const int h = std::popcount(static_cast<unsigned>(partner));
    EXPECT_EQ(ping_pong(config, partner, 20).makespan, us(2 * (22.0 * h + 13))) << "partner " << partner;
    EXPECT_EQ(model::message_time(config, 20, h), us(22.0 * h + 13));
  }
  EXPECT_EQ(ping_pong(config, 7, 16).makespan, us(2 * 3 * (10 + 0.5 * 16)));  // one packet: no copy
}

// Node 0 starts one message of m bytes to each of `targets` at once and waits for them; returns when each target's
// receive completed.
std::vector<Time> fan_out(const MachineConfig& config, const std::vector<int>& targets, std::size_t m) {
  std::vector<Time> done(targets.size());
  Machine(config).run([&](Node& node) {
    std::vector<std::byte> buf(m);
    if (node.id() == 0) {
      std::vector<Request> sends;
      for (int t : targets) sends.push_back(node.isend(t, bytes_of(m)));
      node.wait_all(sends);
      return;
    }
    for (std::size_t i = 0; i < targets.size(); ++i)
      if (targets[i] == node.id()) {
        node.recv(0, buf);
        done[i] = node.clock();
      }
  });
  return done;
}

// One port, circuit, T = λ + δ' + δ + τ·m = 10 + 2 + 1 + 0.5·100 = 63 µs to a neighbour. With f = 0.2 the second
// transfer, on another link, starts ⌊0.2·63 µs⌋ before the first ends: at 50.4 µs, ending at 113.4 µs = (2 - f)·T;
// the third at 100.8 µs, ending at 163.8 µs. Without the overlap they end at 63, 126, 189 µs.
TEST(MeasuredOverheads, APortOverlapsTheNextTransferOnAnotherLink) {
  MachineConfig config = round_config(2);
  config.port_overlap = 0.2;
  EXPECT_EQ(fan_out(config, {1, 2}, 100), (std::vector<Time>{us(63), us(113.4)}));
  EXPECT_EQ(model::port_overlap_time(config, us(63)), us(12.6));
  MachineConfig three = round_config(3);
  three.port_overlap = 0.2;
  EXPECT_EQ(fan_out(three, {1, 2, 4}, 100), (std::vector<Time>{us(63), us(113.4), us(163.8)}));
  three.port_overlap = 0;
  EXPECT_EQ(fan_out(three, {1, 2, 4}, 100), (std::vector<Time>{us(63), us(126), us(189)}));
}

// The link is still held whole: two messages to the same neighbour end at T and 2T. And ports = all, which has no
// shared port, ignores the overlap: both end at T.
TEST(MeasuredOverheads, TheOverlapGainsNothingOnTheSameLinkNorUnderAllPort) {
  MachineConfig config = round_config(2);
  config.port_overlap = 0.2;
  EXPECT_EQ(fan_out(config, {1, 1}, 100)[1], us(126));
  config.ports = Ports::parse("all");
  EXPECT_EQ(fan_out(config, {1, 2}, 100), (std::vector<Time>{us(63), us(63)}));
  EXPECT_EQ(model::port_overlap_time(config, us(63)), 0);
}

// The input side: nodes 1 and 2 each send 100 bytes to node 0 at once, which takes both in one wait_all (first node
// 1's, ties by source id): the second completes at max(63, 63 - 12.6 + 63) = 113.4 µs.
TEST(MeasuredOverheads, AnInputPortOverlapsTheNextMessageToo) {
  MachineConfig config = round_config(2);
  config.port_overlap = 0.2;
  Time last = 0;
  Machine(config).run([&](Node& node) {
    if (node.id() == 1 || node.id() == 2) {
      node.send(0, bytes_of(100));
    } else if (node.id() == 0) {
      std::vector<std::byte> a(100), b(100);
      std::vector<Request> in{node.post_recv(1, a), node.post_recv(2, b)};
      node.wait_all(in);
      last = node.clock();
    }
  });
  EXPECT_EQ(last, us(113.4));
}

// Half duplex: a pairwise exchange's receive waits for the node's own send to free the port, f of its hold early:
// max(T, T - ⌊f·T⌋ + T) = 113.4 µs, which model::pairwise_exchange_time gives too.
TEST(MeasuredOverheads, AHalfDuplexExchangeOverlapsItsSendAndReceive) {
  MachineConfig config = round_config(1);
  config.ports = Ports::parse("half");
  config.port_overlap = 0.2;
  const RunReport report = Machine(config).run([](Node& node) {
    std::vector<std::byte> in(100);
    node.exchange(node.neighbor(0), std::span<const std::byte>(bytes_of(100)), std::span<std::byte>(in));
  });
  EXPECT_EQ(report.makespan, us(113.4));
  EXPECT_EQ(model::pairwise_exchange_time(config, 100, 1), us(113.4));
}

// A blocking send still returns at its transfer's end: two blocking sends on two links end at T and 2T.
TEST(MeasuredOverheads, BlockingSendsGainNothing) {
  MachineConfig config = round_config(2);
  config.port_overlap = 0.2;
  Time second = 0;
  Machine(config).run([&](Node& node) {
    std::vector<std::byte> buf(100);
    if (node.id() == 0) {
      node.send(1, bytes_of(100));
      node.send(2, bytes_of(100));
    } else if (node.id() == 2) {
      node.recv(0, buf);
      second = node.clock();
    } else if (node.id() == 1) {
      node.recv(0, buf);
    }
  });
  EXPECT_EQ(second, us(126));
}

}  // namespace
}  // namespace hcemu
