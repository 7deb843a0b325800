// The LogGP model (docs/model.md §12; Alexandrov, Ionescu, Schauser & Scheiman 1995): the emulator under
// switching = loggp against the closed forms of hcemu/model/loggp.hpp, to the picosecond, and the closed forms
// against LogGP's formulas worked out by hand.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "hcemu/hcemu.hpp"
#include "hcemu/kernels/broadcast.hpp"
#include "hcemu/kernels/exchange.hpp"
#include "hcemu/model/loggp.hpp"
#include "kernel_machines.hpp"

namespace hcemu {
namespace {

using Data = std::vector<std::byte>;
using test::loggp_machine;

// The same parameters in picoseconds, for the forms worked out by hand.
constexpr Time L = 5'000'000, o = 1'500'000, g = 4'000'000, G = 10'000;

TEST(LogGPClosedForms, AreLogGPsFormulas) {
  const MachineConfig c = loggp_machine(4);
  const std::size_t k = 1000;
  EXPECT_EQ(model::loggp_ping_pong_time(c, k), 2 * L + 4 * o + 2 * (k - 1) * G);
  EXPECT_EQ(model::loggp_direct_exchange_time(c, k), 15 * (2 * o + L + (k - 1) * G));
  EXPECT_EQ(model::loggp_binomial_broadcast_time(c, k), 4 * (2 * o + L + (k - 1) * G));
  EXPECT_EQ(model::LogGP::from(c).hold(k), g + (k - 1) * G);
  EXPECT_EQ(model::LogGP::from(c).message(0), 2 * o + L);  // sent as one byte
}

TEST(LogGPEmulator, PingPongIsTwoMessagesBackToBack) {
  for (const std::size_t k : {std::size_t{0}, std::size_t{1}, std::size_t{1000}}) {
    const MachineConfig c = loggp_machine(1);
    const int trips = 3;
    const RunReport r = Machine(c).run([&](Node& node) {
      Data buffer(k);
      for (int i = 0; i < trips; ++i) {
        if (node.id() == 0) {
          node.send(1, buffer);
          node.recv(1, buffer);
        } else {
          node.recv(0, buffer);
          node.send(0, buffer);
        }
      }
    });
    EXPECT_EQ(r.makespan, model::loggp_ping_pong_time(c, k, trips)) << k << " bytes";
    EXPECT_TRUE(r.links.empty());  // LogGP books no link
  }
}

RunReport run_direct(const MachineConfig& c, std::size_t m) {
  return Machine(c).run([&](Node& node) {
    Data send(static_cast<std::size_t>(node.size()) * m), recv(send.size());
    for (std::size_t i = 0; i < send.size(); ++i) send[i] = static_cast<std::byte>(node.id() * 31 + i);
    kernels::direct_exchange(node, send, recv, m);
    // Block j of the result is block `id` of node j's input.
    for (int j = 0; j < node.size(); ++j)
      for (std::size_t b = 0; b < m; ++b)
        if (recv[static_cast<std::size_t>(j) * m + b] !=
            static_cast<std::byte>(j * 31 + static_cast<std::size_t>(node.id()) * m + b))
          throw Error("wrong block from node " + std::to_string(j));
  });
}

TEST(LogGPEmulator, DirectExchangeTakesPMinusOneMessageTimes) {
  for (const char* ports : {"one", "all", "k:2"})
    for (const int d : {2, 4}) {
      const MachineConfig c = loggp_machine(d, ports);
      EXPECT_EQ(run_direct(c, 300).makespan, model::loggp_direct_exchange_time(c, 300)) << ports << ", d = " << d;
    }
}

TEST(LogGPEmulator, DirectExchangeOnHalfDuplexPortsWaitsForTheOwnSend) {
  MachineConfig c = loggp_machine(3, "half");
  c.loggp_gap = 8;  // 2·hold(m) = 2(g + (m-1)G) passes T(m) = 2o + L + (m-1)G
  const std::size_t m = 300;
  ASSERT_GT(2 * model::LogGP::from(c).hold(m), model::LogGP::from(c).message(m));
  EXPECT_EQ(run_direct(c, m).makespan, model::loggp_direct_exchange_time(c, m));
  EXPECT_EQ(model::loggp_direct_exchange_time(c, m), 7 * 2 * (8'000'000 + (m - 1) * G));
}

TEST(LogGPEmulator, BinomialBroadcastTakesDMessageTimes) {
  for (const char* ports : {"one", "all"})
    for (const int root : {0, 5}) {
      const MachineConfig c = loggp_machine(4, ports);
      const std::size_t m = 700;
      const RunReport r = Machine(c).run([&](Node& node) {
        Data message(m, std::byte{0});
        if (node.id() == root) std::memset(message.data(), 7, m);
        kernels::sbt_broadcast(node, message, root);
        if (message != Data(m, std::byte{7})) throw Error("the message did not arrive whole");
      });
      EXPECT_EQ(r.makespan, model::loggp_binomial_broadcast_time(c, m)) << ports << ", root " << root;
    }
}

// What the three kernels never show: messages that reach one node together are received a gap apart, each
// holding the one-port input for g + (k-1)G, so the last of P - 1 completes at T(k) + (P - 2)(g + (k-1)G).
TEST(LogGPEmulator, ReceptionsAtOneNodeAreAGapApart) {
  const MachineConfig c = loggp_machine(3);
  const std::size_t k = 50;
  const RunReport r = Machine(c).run([&](Node& node) {
    Data buffer(k);
    if (node.id() != 0) {
      node.send(0, buffer);
      return;
    }
    for (int source = 1; source < node.size(); ++source) node.recv(source, buffer);
  });
  EXPECT_EQ(r.makespan, (2 * o + L + (k - 1) * G) + 6 * (g + (k - 1) * G));
}

TEST(LogGPConfig, RefusesAGapLongerThanTwoOverheadsAndTheLatency) {
  MachineConfig c = loggp_machine(2);
  c.loggp_gap = 8.01;  // 2o + L = 8
  try {
    c.validate();
    FAIL() << "a gap past 2o + L was accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key, "loggp_gap");
  }
  c.switching = Switching::circuit;  // the key is read only under loggp
  EXPECT_NO_THROW(c.validate());
}

}  // namespace
}  // namespace hcemu
