// The memory guard (runtime/memory_guard.hpp, EmulatorSettings::memory_limit): what the nodes allocate is counted
// against a limit on the process, and what would pass it is refused; a run that meets the limit fails with an error
// that names it, frees what it held, and leaves the machine able to run again; a machine too large to be made says
// so at its first run, which makes it.
#include <gtest/gtest.h>

#include <exception>
#include <new>
#include <string>

#include "hcemu/errors.hpp"
#include "hcemu/machine.hpp"
#include "runtime/arena.hpp"
#include "runtime/memory_guard.hpp"
#include "runtime/requests.hpp"

namespace hcemu::detail {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

TEST(MemoryGuard, CountsWhatIsReservedAndRefusesWhatWouldPassTheLimit) {
  // The limit is on the whole process: what it holds now (read again when the guard is made) and the reservations.
  MemoryGuard guard(MemoryGuard::resident() + 8 * kMiB);
  EXPECT_TRUE(guard.reserve(2 * kMiB));
  EXPECT_TRUE(guard.reserve(2 * kMiB));
  EXPECT_EQ(guard.held(), 4 * kMiB);
  EXPECT_FALSE(guard.refused());
  EXPECT_FALSE(guard.reserve(16 * kMiB));  // past the limit: refused, and not counted
  EXPECT_TRUE(guard.refused());
  EXPECT_EQ(guard.held(), 4 * kMiB);
  guard.release(4 * kMiB);
  EXPECT_EQ(guard.held(), 0u);
  EXPECT_TRUE(guard.reserve(6 * kMiB));  // room again once released
  EXPECT_NE(guard.explain().find("memory_limit = "), std::string::npos) << guard.explain();
}

TEST(MemoryGuard, LeftAtZeroTheLimitIsWhatTheHostHasAvailableLessAnEighth) {
  const std::size_t available = MemoryGuard::host_available();
  if (available == 0) GTEST_SKIP() << "no /proc/meminfo here: no limit";
  const MemoryGuard guard(0);
  // What the process holds and what the host has available move a little between the readings.
  const double expected = static_cast<double>(MemoryGuard::resident() + available - available / 8);
  EXPECT_NEAR(static_cast<double>(guard.limit()), expected, 0.05 * expected);
  EXPECT_NE(guard.explain().find("seven eighths of what the host had available then"), std::string::npos);
}

TEST(MemoryGuard, AnArenaThatTheGuardRefusesThrowsBadAllocAndKeepsItsAccounts) {
  MemoryGuard guard(MemoryGuard::resident() + 4 * kMiB);
  Arena arena(3, 64 * kMiB, nullptr, &guard);
  void* small = arena.allocate(kMiB, 64);
  EXPECT_THROW(arena.allocate(8 * kMiB, 64), std::bad_alloc);
  EXPECT_EQ(arena.in_use(), kMiB);  // the refused block is not charged to the node
  EXPECT_EQ(guard.held(), kMiB);
  arena.deallocate(small, kMiB);
  EXPECT_EQ(guard.held(), 0u);
}

TEST(MemoryGuard, ARequestTableWhoseChunkIsRefusedStaysAsItWas) {
  MemoryGuard guard(MemoryGuard::resident());  // no room at all
  RequestTable table(nullptr, &guard);
  EXPECT_THROW(table.add(Slot::Kind::recv), std::bad_alloc);
  EXPECT_EQ(table.size(), 0u);
  table.clear();  // must not reach for the chunk that was never made
  EXPECT_EQ(guard.held(), 0u);
}

MachineConfig cube(int d) {
  MachineConfig config;
  config.d = d;
  return config;
}

EmulatorSettings limited_to(std::size_t bytes) {
  EmulatorSettings settings;
  settings.memory_limit = bytes;
  return settings;
}

TEST(MemoryLimit, ARunThatWouldPassItFailsWithAnErrorThatNamesItAndTheMachineRunsAgain) {
  // Room for 64 MiB beside what the process holds; sixteen nodes that want 16 MiB each do not fit.
  Machine machine(cube(4), limited_to(MemoryGuard::resident() + 64 * kMiB));
  try {
    machine.run([](Node& node) {
      auto block = node.allocate<std::byte>(16 * kMiB);
      node.barrier();  // every node holds its block here
    });
    FAIL() << "expected the run to pass the memory limit";
  } catch (const KernelError& e) {
    EXPECT_NE(std::string(e.what()).find("out of host memory"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("memory_limit = "), std::string::npos) << e.what();
    EXPECT_THROW(std::rethrow_exception(e.cause), std::bad_alloc);
  }
  // What the failed run held is counted off again: a run that needs 16 x 1 MiB runs.
  const RunReport report = machine.run([](Node& node) {
    auto block = node.allocate<std::byte>(kMiB);
    node.barrier();
  });
  EXPECT_EQ(report.nodes.size(), 16u);
}

TEST(MemoryLimit, ARefusalInOneRunIsNotBlamedForAnotherRunsBadAlloc) {
  Machine machine(cube(2), limited_to(MemoryGuard::resident() + 64 * kMiB));
  EXPECT_THROW(machine.run([](Node& node) {
                 auto block = node.allocate<std::byte>(32 * kMiB);
                 node.barrier();  // four blocks held at once: 128 MiB
               }),
               KernelError);
  try {
    machine.run([](Node& node) {
      if (node.id() == 2) throw std::bad_alloc();  // the host, not the guard
    });
    FAIL() << "expected the kernel's exception";
  } catch (const KernelError& e) {
    EXPECT_NE(std::string(e.what()).find("out of host memory"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("memory_limit"), std::string::npos) << e.what();
  }
}

TEST(MemoryLimit, AMachineThatCannotBeMadeWithinItSaysSoAtItsFirstRun) {
  Machine machine(cube(6), limited_to(1));
  try {
    machine.run([](Node&) {});
    FAIL() << "expected the machine to be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("past memory_limit = "), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hcemu::detail
