// A user's exact predictions: node.compute, node.copy, node.permute, node.barrier, one transfer and a late UNFORCED
// receive, each predicted with the public functions of hcemu/model/costs.hpp alone (docs/model.md §2 to §6) and
// worked by hand from the rule that every parameter is rounded once to whole picoseconds, then multiplied.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "hcemu/hcemu.hpp"
#include "hcemu/model/costs.hpp"

namespace hcemu {
namespace {

// Per-unit times of 0.75 ps: each rounds to 1 ps, so that n units cost n ps where from_us(n · 0.75e-6) would say
// 0.75·n. λ = 1.0000004 µs rounds to 1 000 000 ps.
MachineConfig fractional_machine(int d) {
  MachineConfig c;
  c.d = d;
  c.lambda = 1.0000004;
  c.tau = 7.5e-7;
  c.delta_hop = 0.25;
  c.delta_msg = 0.5;
  c.rho = 7.5e-7;
  c.flop = 7.5e-7;
  c.sys_copy = 7.5e-7;
  c.barrier_a = 2;
  c.barrier_b = 0.1;
  c.protocol = Protocol::unforced;
  return c;
}

Time clock_after(const MachineConfig& config, const Kernel& kernel, int node = 0) {
  Machine machine(config);
  return machine.run(kernel).nodes[static_cast<std::size_t>(node)].final_clock;
}

TEST(UserPrediction, ComputeChargesFlopsTimesTheRoundedPerFlopTime) {
  const MachineConfig c = fractional_machine(0);
  // 128 flops of 0.75 ps: 128 · 1 ps, not from_us(128 · 0.75e-6) = 96 ps.
  EXPECT_EQ(model::compute_time(c, 128), 128);
  EXPECT_EQ(from_us(c.flop * 128), 96);
  EXPECT_EQ(clock_after(c, [](Node& node) { node.compute(128); }), model::compute_time(c, 128));
}

TEST(UserPrediction, CopyAndPermuteChargeBytesTimesTheRoundedRho) {
  const MachineConfig c = fractional_machine(0);
  EXPECT_EQ(model::copy_time(c, 256), 256);
  EXPECT_EQ(clock_after(c,
                        [](Node& node) {
                          std::vector<std::byte> from(256), to(256);
                          node.copy(from, to);
                        }),
            model::copy_time(c, 256));
  // Eight blocks of 32 bytes, reversed: all 256 bytes move.
  EXPECT_EQ(clock_after(c,
                        [](Node& node) {
                          std::vector<std::byte> from(256), to(256);
                          const std::vector<std::uint32_t> order = {7, 6, 5, 4, 3, 2, 1, 0};
                          node.permute(from, to, 32, order);
                        }),
            model::copy_time(c, 256));
}

TEST(UserPrediction, BarrierReleasesEveryNodeAtTheLatestEntryPlusQ) {
  const MachineConfig c = fractional_machine(3);
  // Q(3) = 2 µs + 3 · 0.1 µs.
  EXPECT_EQ(model::barrier_time(c), 2'000'000 + 3 * 100'000);
  Machine machine(c);
  const RunReport report = machine.run([](Node& node) {
    node.elapse(from_us(node.id()));  // the last node enters at 7 µs
    node.barrier();
  });
  for (const auto& n : report.nodes) EXPECT_EQ(n.final_clock, from_us(7) + model::barrier_time(c));
}

// Node 0 sends `bytes` to node `to`; node `to`'s receive is posted at once.
struct OneTransfer {
  Time sender = 0, receiver = 0;
};
OneTransfer one_transfer(const MachineConfig& c, int to, std::size_t bytes) {
  Machine machine(c);
  const RunReport report = machine.run([&](Node& node) {
    std::vector<std::byte> buffer(bytes);
    if (node.id() == 0) node.send(to, buffer);
    if (node.id() == to) node.recv(0, buffer);
  });
  return {report.nodes[0].final_clock, report.nodes[static_cast<std::size_t>(to)].final_clock};
}

TEST(UserPrediction, OneCircuitTransferTakesLambdaDeltasAndTauL) {
  const MachineConfig c = fractional_machine(2);
  // 100 bytes over 2 hops (node 0 to node 3): λ + δ' + 2δ + 100 · 1 ps, both ends held the whole message.
  const Time by_hand = 1'000'000 + 500'000 + 2 * 250'000 + 100;
  EXPECT_EQ(model::message_time(c, 100, 2), by_hand);
  const OneTransfer t = one_transfer(c, 3, 100);
  EXPECT_EQ(t.receiver, model::message_time(c, 100, 2));
  EXPECT_EQ(t.sender, model::sender_hold(c, 100, 2));
  EXPECT_EQ(t.sender, by_hand);
}

TEST(UserPrediction, OneStoreAndForwardTransferPipelinesItsPackets) {
  MachineConfig c = fractional_machine(2);
  c.switching = Switching::store_and_forward;
  c.packet = 64;
  // 100 bytes in packets of 64 and 36 over 2 hops: each hop of a packet is λ + L ps. Packet 0 leaves hop 1 at
  // 2(λ + 64); packet 1 takes hop 0 after packet 0 (until 2λ + 100), then hop 1 once packet 0 has left it, until
  // 2(λ + 64) + λ + 36.
  const Time lambda = 1'000'000;
  EXPECT_EQ(model::message_time(c, 100, 2), 3 * lambda + 2 * 64 + 36);
  const OneTransfer t = one_transfer(c, 3, 100);
  EXPECT_EQ(t.receiver, model::message_time(c, 100, 2));
  // The blocking send returns when its packets have left the first hop: 2λ + 100.
  EXPECT_EQ(model::sender_hold(c, 100, 2), 2 * lambda + 100);
  EXPECT_EQ(t.sender, model::sender_hold(c, 100, 2));
}

TEST(UserPrediction, ALateUnforcedReceiveAddsTheSystemBufferCopy) {
  const MachineConfig c = fractional_machine(1);
  constexpr std::size_t bytes = 128;
  const Time posted = from_us(10);  // long after the message has arrived
  const Time receiver = clock_after(
      c,
      [&](Node& node) {
        std::vector<std::byte> buffer(bytes);
        if (node.id() == 0) node.send(1, buffer);
        if (node.id() == 1) {
          node.elapse(posted);
          node.recv(0, buffer);
        }
      },
      1);
  EXPECT_EQ(model::late_receive_copy_time(c, bytes), 128);
  EXPECT_EQ(receiver, posted + model::late_receive_copy_time(c, bytes));
}

}  // namespace
}  // namespace hcemu
