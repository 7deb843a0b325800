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
#include "runtime/node_runtime.hpp"
#include "runtime/requests.hpp"
#include "runtime/stack_pool.hpp"

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

TEST(MemoryGuard, StacksAreCountedAtAPageEachThenAtThePagesARunTouched) {
  const std::size_t page = StackPool::first_touch();
  MemoryGuard guard(MemoryGuard::resident() + 64 * kMiB);
  {
    StackPool stacks(&guard);
    stacks.reserve(16, 64 * 1024);
    EXPECT_EQ(guard.held(), 16 * page);
    // Node 3 touches its whole stack, the others nothing: counted at what they hold.
    auto* bottom = static_cast<volatile std::byte*>(stacks.bottom(3));
    for (std::size_t at = 0; at < stacks.size(); at += page) bottom[at] = std::byte{1};
    stacks.count_touched();
    EXPECT_EQ(guard.held(), stacks.size());
    EXPECT_EQ(stacks.counted(), stacks.size());
    stacks.reserve(32, 64 * 1024);  // mapped anew: the old stacks are released, the new counted a page each
    EXPECT_EQ(guard.held(), 32 * page);
  }
  StackPool too_many(&guard);
  try {
    too_many.reserve(static_cast<int>(128 * kMiB / page), 64 * 1024);  // 128 MiB at a page each: past the limit
    FAIL() << "expected the stacks to be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("the nodes' stacks"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("past memory_limit = "), std::string::npos) << e.what();
  }
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

TEST(MemoryLimit, ALimitBelowWhatTheStacksAloneNeedIsRefusedWithTheGuardsMessage) {
  // 4096 nodes: their runtimes fit in the room given, their stacks, a page each (16 MiB with 4 KiB pages), do not.
  // The machine says so at its first run, before any node runs, as it would have held them all at once (a d = 16
  // broadcast under memory_limit = 300000000 held 681 MB, its stacks not counted, before it stopped).
  const std::size_t runtimes = sizeof(NodeRuntime) * 4096;
  const std::size_t stacks = StackPool::first_touch() * 4096;
  Machine machine(cube(12), limited_to(MemoryGuard::resident() + runtimes + stacks / 4));
  try {
    machine.run([](Node&) {});
    FAIL() << "expected the machine's stacks to be refused";
  } catch (const KernelError& e) {
    FAIL() << "a node ran: " << e.what();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("out of host memory: the nodes' stacks"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("past memory_limit = "), std::string::npos) << e.what();
  }
  // With room for both, it runs.
  Machine roomy(cube(12), limited_to(MemoryGuard::resident() + runtimes + 2 * stacks + 64 * kMiB));
  EXPECT_EQ(roomy.run([](Node&) {}).nodes.size(), 4096u);
  // One OS thread per node: its stack is counted the same, while the run's threads live; refused before any starts.
  EmulatorSettings threads = limited_to(MemoryGuard::resident() + runtimes + stacks / 4);
  threads.engine = EngineKind::os_threads;
  Machine threaded(cube(12), threads);
  try {
    threaded.run([](Node&) {});
    FAIL() << "expected the threads' stacks to be refused";
  } catch (const KernelError& e) {
    FAIL() << "a node ran: " << e.what();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("past memory_limit = "), std::string::npos) << e.what();
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
