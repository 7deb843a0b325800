// Bad input gets a clear error and loses nothing; never a hang.
#include <gtest/gtest.h>

#include <stdexcept>

#include "core_support.hpp"

namespace hcemu {
namespace {

using test::round_config;

MachineConfig quick(int d) { return round_config(d); }

TEST(Deadlock, MutualReceiveIsReportedWithEachBlockedOperation) {
  Machine machine(quick(1));
  try {
    machine.run([](Node& node) {
      std::vector<std::byte> buf(4);
      node.recv(node.neighbor(0), buf, 5);
    });
    FAIL() << "expected a deadlock";
  } catch (const DeadlockError& e) {
    ASSERT_EQ(e.blocked.size(), 2u);
    for (const auto& b : e.blocked) {
      EXPECT_EQ(b.operation, "recv");
      EXPECT_EQ(b.peer, b.node ^ 1);
      EXPECT_EQ(b.tag, 5);
    }
  }
}

TEST(Deadlock, BarrierMissedByOneNodeIsReported) {
  Machine machine(quick(2));
  try {
    machine.run([](Node& node) {
      if (node.id() != 2) node.barrier();
    });
    FAIL() << "expected a deadlock";
  } catch (const DeadlockError& e) {
    EXPECT_EQ(e.blocked.size(), 3u);
    for (const auto& b : e.blocked) EXPECT_EQ(b.operation, "barrier");
  }
}

TEST(Deadlock, IsDetectedOnALargeMachine) {
  Machine machine(quick(8));
  EXPECT_THROW(machine.run([](Node& node) {
                 std::vector<std::byte> buf(1);
                 if (node.id() == 0) node.recv(1, buf);
               }),
               DeadlockError);
}

TEST(Exceptions, ReachTheCallerWithTheNodeAndEveryThreadEnds) {
  Machine machine(quick(3));
  try {
    machine.run([](Node& node) {
      if (node.id() == 5) throw std::runtime_error("boom");
      node.barrier();  // the others would wait here forever
    });
    FAIL() << "expected the kernel's exception";
  } catch (const KernelError& e) {
    EXPECT_EQ(e.node, 5);
    EXPECT_NE(std::string(e.what()).find("boom"), std::string::npos);
    EXPECT_THROW(std::rethrow_exception(e.cause), std::runtime_error);
  }
}

TEST(Usage, SendToANodeThatDoesNotExistIsAnError) {
  Machine machine(quick(2));
  try {
    machine.run([](Node& node) {
      if (node.id() == 0) node.send(4, std::vector<std::byte>(1));
    });
    FAIL();
  } catch (const KernelError& e) {
    EXPECT_EQ(e.node, 0);
    EXPECT_THROW(std::rethrow_exception(e.cause), UsageError);
    EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos);
  }
}

TEST(Usage, MessageLongerThanTheReceiveBufferIsAnErrorNotAnOverwrite) {
  Machine machine(quick(1));
  std::vector<std::byte> guard(8, std::byte{0x5a});
  try {
    machine.run([&](Node& node) {
      if (node.id() == 0) node.send(1, std::vector<std::byte>(16, std::byte{1}));
      else node.recv(0, std::span<std::byte>(guard.data(), 4));
    });
    FAIL();
  } catch (const KernelError& e) {
    EXPECT_EQ(e.node, 1);
    EXPECT_NE(std::string(e.what()).find("longer than the 4-byte buffer"), std::string::npos);
  }
  for (auto b : guard) EXPECT_EQ(b, std::byte{0x5a});
}

TEST(Usage, WaitingTwiceOnARequestIsAnError) {
  Machine machine(quick(0));
  EXPECT_THROW(machine.run([](Node& node) {
                 Request r = node.isend(0, std::vector<std::byte>(1));
                 Request copy = r;
                 node.wait(r);
                 std::vector<std::byte> in(1);
                 node.recv(0, in);
                 node.wait(copy);
               }),
               KernelError);
}

TEST(Usage, NegativeElapseIsAnError) {
  Machine machine(quick(0));
  EXPECT_THROW(machine.run([](Node& node) { node.elapse(from_us(-1)); }), KernelError);
}

TEST(Arena, ExhaustionNamesTheNodeTheArenaAndTheRequest) {
  EmulatorSettings settings;
  settings.arena_bytes = 1 << 16;
  Machine machine(quick(1), settings);
  try {
    machine.run([](Node& node) {
      auto a = node.allocate<std::byte>(40000);
      if (node.id() == 1) auto b = node.allocate<std::byte>(40000);
    });
    FAIL();
  } catch (const KernelError& e) {
    EXPECT_EQ(e.node, 1);
    try {
      std::rethrow_exception(e.cause);
    } catch (const ArenaExhausted& a) {
      EXPECT_EQ(a.node, 1);
      EXPECT_EQ(a.capacity, 1u << 16);
      EXPECT_EQ(a.request, 40000u);
    }
  }
}

TEST(Arena, BuffersAreReturnedWhenTheyGoOutOfScope) {
  EmulatorSettings settings;
  settings.arena_bytes = 1 << 16;
  Machine machine(quick(0), settings);
  auto report = machine.run([](Node& node) {
    for (int i = 0; i < 10; ++i) auto a = node.allocate<double>(4096);  // 32 KiB each time
  });
  EXPECT_EQ(report.nodes[0].arena_high_water, 4096 * sizeof(double));
}

TEST(Config, OutOfRangeValuesNameTheKey) {
  auto config = round_config(17);
  try {
    Machine machine(config);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key, "d");
  }
  // One OS thread per node stops at the 13-cube.
  EmulatorSettings os_threads;
  os_threads.engine = EngineKind::os_threads;
  try {
    Machine machine(round_config(14), os_threads);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key, "d");
  }
  config = round_config(2);
  config.tau = -1;
  try {
    Machine machine(config);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key, "tau");
  }
  EXPECT_THROW(Ports::parse("k:0"), ConfigError);
  EXPECT_EQ(Ports::parse("k:3").n, 3);
}

}  // namespace
}  // namespace hcemu
