// Bad input gets a clear error and loses nothing; never a hang.
#include <gtest/gtest.h>

#include <chrono>
#include <new>
#include <stdexcept>
#include <thread>

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

// Workers that outnumber the cores take turns on them; when every node waits, the run still ends, reported.
TEST(Deadlock, WithMoreWorkersThanCoresIsReported) {
  EmulatorSettings s;
  s.engine = EngineKind::tasks;
  s.workers = 5;
  Machine machine(quick(6), s);
  try {
    machine.run([](Node& node) {
      std::vector<std::byte> buf(4);
      if (node.id() % 3 == 0) node.compute(1000);
      node.recv(node.neighbor(0), buf, 5);
    });
    FAIL() << "expected a deadlock";
  } catch (const DeadlockError& e) {
    EXPECT_EQ(e.blocked.size(), 64u);
  }
  EXPECT_THROW(machine.run([](Node& node) {
    if (node.id() == 5) throw std::runtime_error("boom");
    std::vector<std::byte> buf(4);
    node.recv(node.neighbor(0), buf, 5);
  }),
               KernelError);
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

TEST(Deadlock, AtScaleTheMessageSummarisesAndNamesTheNodesThatFinished) {
  Machine machine(quick(10));
  try {
    machine.run([](Node& node) {
      if (node.id() != 0 && node.id() != 5) node.barrier();
      if (node.id() == 5) {
        std::vector<std::byte> buf(1);
        node.recv(6, buf, 3);
      }
    });
    FAIL() << "expected a deadlock";
  } catch (const DeadlockError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.blocked.size(), 1023u);  // every one is kept
    EXPECT_NE(what.find("(1022 in barrier, 1 in recv)"), std::string::npos) << what;
    EXPECT_NE(what.find("and 1015 more"), std::string::npos) << what;
    EXPECT_NE(what.find("finished, so never to come: node 0"), std::string::npos) << what;
    EXPECT_LT(what.size(), 1000u);
    EXPECT_EQ(e.finished, std::vector<int>{0});
    ASSERT_NE(e.report, nullptr);
    EXPECT_EQ(e.report->blocked.size(), 1023u);
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

// The host running out of memory inside a node (a machine too big for it) is an error that says so, not a crash.
TEST(Exceptions, RunningOutOfHostMemoryIsAnErrorThatSaysSo) {
  Machine machine(quick(2));
  try {
    machine.run([](Node& node) {
      if (node.id() == 1) throw std::bad_alloc();
    });
    FAIL() << "expected the kernel's exception";
  } catch (const KernelError& e) {
    EXPECT_EQ(e.node, 1);
    EXPECT_NE(std::string(e.what()).find("out of host memory"), std::string::npos) << e.what();
    EXPECT_THROW(std::rethrow_exception(e.cause), std::bad_alloc);
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

// The error a run ends with: the KernelError's cause, rethrown, so that a test can name its type.
template <class E>
std::string cause_of(const Kernel& kernel, MachineConfig config = quick(1), EmulatorSettings settings = {}) {
  try {
    Machine(config, settings).run(kernel);
  } catch (const KernelError& e) {
    try {
      std::rethrow_exception(e.cause);
    } catch (const E& cause) {
      return cause.what();
    } catch (...) {
      return "another error: " + std::string(e.what());
    }
  }
  return "no error";
}

TEST(Arena, AnElementCountWhoseBytesOverflowIsAnError) {
  const std::string what = cause_of<UsageError>([](Node& node) { node.allocate<std::uint64_t>((1ull << 61) + 1); });
  EXPECT_NE(what.find("more bytes than memory can have"), std::string::npos) << what;
}

TEST(Arena, FreeingAPointerThatIsNotTheArenasIsAnError) {
  std::string what = cause_of<UsageError>([](Node& node) {
    std::vector<std::uint64_t> elsewhere(16);
    node.deallocate_bytes(elsewhere.data() + 8, 64);
  });
  EXPECT_NE(what.find("not an allocation of this node's arena"), std::string::npos) << what;
  what = cause_of<UsageError>([](Node& node) {
    void* p = node.allocate_bytes(100);
    node.deallocate_bytes(p, 100);
    node.deallocate_bytes(p, 100);
  });
  EXPECT_NE(what.find("freed already"), std::string::npos) << what;
  what = cause_of<UsageError>([](Node& node) { node.deallocate_bytes(node.allocate_bytes(100), 99); });
  EXPECT_NE(what.find("has 100 bytes, not 99"), std::string::npos) << what;
}

TEST(Arena, AnAlignmentThatIsNotAPowerOfTwoIsAnError) {
  const std::string what = cause_of<UsageError>([](Node& node) { node.allocate_bytes(100, 48); });
  EXPECT_NE(what.find("power of two"), std::string::npos) << what;
}

TEST(Arena, AFloodOfUnreceivedMessagesExhaustsTheReceiversArena) {
  EmulatorSettings settings;
  settings.arena_bytes = 1 << 16;
  try {
    Machine(quick(1), settings).run([](Node& node) {
      std::vector<std::byte> buf(1000);
      if (node.id() == 0)
        for (int i = 0; i < 1000; ++i) node.send(1, buf, i);  // UNFORCED: they wait in node 1's system buffer
      else
        node.recv(0, buf, 999);
    });
    FAIL() << "expected the flood to exhaust node 1's arena";
  } catch (const KernelError& e) {
    EXPECT_EQ(e.node, 1);
    EXPECT_THROW(std::rethrow_exception(e.cause), ArenaExhausted);
  }
}

TEST(TimeRange, ElapsingPastTheModelsRangeIsAnError) {
  const std::string what = cause_of<TimeOverflow>([](Node& node) {
    node.elapse(from_us(4e12));  // 4e18 ps
    node.elapse(from_us(4e12));
  });
  EXPECT_NE(what.find("elapse would pass the model's range"), std::string::npos) << what;
}

TEST(TimeRange, ATransferTooLongForTheRangeIsAnError) {
  MachineConfig config = quick(1);
  config.tau = 1e9;  // µs per byte
  const std::string what = cause_of<TimeOverflow>(
      [](Node& node) {
        std::vector<std::byte> buf(1 << 20);
        if (node.id() == 0) node.send(1, buf);
        else node.recv(0, buf);
      },
      config);
  EXPECT_NE(what.find("a transfer of 1048576 bytes from node 0 to node 1"), std::string::npos) << what;
}

// Runs `kernel` on 1, 2, 3 and 8 workers that share every level of two transfers or more, and expects its transfers
// to leave the model's range, the failure named after `node` on every count.
void expect_range_failure_of(const MachineConfig& config, const Kernel& kernel, int node) {
  for (int workers : {1, 2, 3, 8}) {
    SCOPED_TRACE(std::to_string(workers) + " workers");
    EmulatorSettings settings;
    settings.engine = EngineKind::tasks;
    settings.workers = workers;
    settings.placing_share_from = 2;
    try {
      Machine(config, settings).run(kernel);
      ADD_FAILURE() << "expected the transfers to leave the model's range";
    } catch (const KernelError& e) {
      EXPECT_EQ(e.node, node) << e.what();
      EXPECT_THROW(std::rethrow_exception(e.cause), TimeOverflow);
    }
  }
}

// In each half of a 4-cube, three transfers ready at once share the link into the half's node 7 (under e-cube
// routing): 1 -> 7 (by 3) and 2 -> 7 (by 3), 64 KiB each, and 3 -> 7, 96 KiB (9, 10 and 11 -> 15 likewise). Each fits
// the model's range alone, as the sender checks it when it issues; served in model-time order the third ends past
// the range. The workers place them level by level, two transfers a level (placing_share_from = 2), and both of the
// third level fail. The failure reported is the serial placer's, the first in model-time order (node 3's, the lower
// source), whichever worker placed which and on any worker count.
TEST(TimeRange, TransfersLeavingTheRangeInASharedLevelFailAsTheSerialPlacerWould) {
  MachineConfig config = quick(4);
  config.tau = 7.63e6;  // µs per byte: 64 KiB take about 5e17 ps
  const Kernel kernel = [](Node& node) {
    const int low = node.id() & 7;
    if (low < 1 || low > 3) return;  // 7 and 15 receive nothing: the run fails before anything could arrive
    node.elapse(from_us(3e12));  // 3e18 ps of the model's 4.6e18
    node.send(node.id() | 7, std::vector<std::byte>(low == 3 ? 3 << 15 : 1 << 16));
  };
  expect_range_failure_of(config, kernel, 3);
}

// test::two_failures_out_of_order: the failure reported is the first in model-time order, node 19's, although node
// 3's fails a level earlier where the workers share levels.
TEST(TimeRange, TheFirstFailureInModelTimeOrderIsReportedWhenALaterOneFailsInAnEarlierLevel) {
  MachineConfig config = quick(5);
  config.tau = 7.63e6;
  expect_range_failure_of(config, test::two_failures_out_of_order(), 19);
}

// A step of pairs along mask 16 in a 6-cube: s <-> s ^ 16 for s in 0..7, 157 000 bytes each (about 1.2e18 ps of the
// model's 4.6e18), all ready at 2e18 ps (each node first exchanges a byte with its partner, then elapses to that
// time). Each fits the range alone, as its sender checks it when it issues. Six transfers of 78 000 bytes (about
// 6e17 ps each), ready at 0 and placed before the step, go one after another through one link of the step:
// - chain 3: from nodes 8 to 13 to node 51, through link (3, 4), until about 3.6e18 ps: node 3's message to 19
//   waits for them and leaves the range. 3 has no bit 4, so it is placed in the step's first level;
// - chain 17: from nodes 24 to 29 to node 33, through link (17, 4): node 17's message to 1, of the second level.
// The failure reported is the first in model-time order, as the serial placer meets it: with the first level's, the
// second places only what comes before it (nothing here).
Kernel step_of_pairs_past_the_range(bool chain3, bool chain17) {
  return [=](Node& node) {
    const int id = node.id();
    constexpr std::size_t kChain = 78000, kPair = 157000;
    const int chain = id >= 8 && id <= 13 ? 3 : id >= 24 && id <= 29 ? 17 : -1;
    if (chain >= 0) {
      if ((chain == 3 && chain3) || (chain == 17 && chain17))
        node.send(chain == 3 ? 51 : 33, std::vector<std::byte>(kChain));
      return;
    }
    if ((id == 51 && chain3) || (id == 33 && chain17)) {
      std::vector<std::byte> in(kChain);
      for (int from = id == 51 ? 8 : 24, k = 0; k < 6; ++k) node.recv(from + k, in);
      return;
    }
    if (id > 23 || (id > 7 && id < 16)) return;  // no part in the step
    const auto exchange = [&](std::size_t bytes) {
      std::vector<std::byte> out(bytes), in(bytes);
      Request r = node.isend(id ^ 16, out);
      node.recv(id ^ 16, in);
      node.wait(r);
    };
    exchange(1);
    node.elapse(from_us(2e12) - node.clock());
    exchange(kPair);
  };
}

TEST(TimeRange, AStepOfPairsThatLeavesTheRangeFailsAsTheSerialPlacerWould) {
  MachineConfig config = quick(6);
  config.tau = 7.63e6;  // µs per byte
  {
    SCOPED_TRACE("in the first level");
    expect_range_failure_of(config, step_of_pairs_past_the_range(true, false), 3);
  }
  {
    SCOPED_TRACE("in the second level");
    expect_range_failure_of(config, step_of_pairs_past_the_range(false, true), 17);
  }
  {
    SCOPED_TRACE("in both");
    expect_range_failure_of(config, step_of_pairs_past_the_range(true, true), 3);
  }
}

TEST(Usage, AMessageLongerThanAReceiveNeverWaitedForIsAnErrorHoweverTheRunEnds) {
  const std::string what = cause_of<UsageError>([](Node& node) {
    static std::vector<std::byte> small(10);
    if (node.id() == 0) node.send(1, std::vector<std::byte>(100));
    else node.post_recv(0, std::span(small));  // never waited for; the node finishes first
  });
  EXPECT_NE(what.find("longer than the 10-byte buffer"), std::string::npos) << what;
}

TEST(Usage, WaitingForTheSameRequestTwiceInOneWaitAllIsAnError) {
  const std::string what = cause_of<UsageError>([](Node& node) {
    std::vector<std::byte> buf(8);
    Request r = node.isend(node.neighbor(0), buf);
    std::vector<Request> twice = {r, r};
    node.wait_all(twice);
  });
  EXPECT_NE(what.find("given twice"), std::string::npos) << what;
}

// An exception ends the run at once, even while other nodes sleep through a long injected wait in real time.
TEST(Exceptions, EndTheRunAtOnceUnderWallTiming) {
  EmulatorSettings wall;
  wall.timing = Timing::wall;
  wall.time_scale = 1000;  // 40 ms of model time take 40 s of real time
  for (EngineKind engine : {EngineKind::tasks, EngineKind::os_threads}) {
    wall.engine = engine;
    const auto start = std::chrono::steady_clock::now();
    EXPECT_THROW(Machine(quick(1), wall).run([](Node& node) {
                 if (node.id() == 0) {
                   node.elapse(from_us(40e3));
                 } else {
                   std::this_thread::sleep_for(std::chrono::milliseconds(100));
                   throw std::runtime_error("boom");
                 }
               }),
               KernelError);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
  }
}

}  // namespace
}  // namespace hcemu

namespace hcemu {
namespace {

// A kernel that hands its Node& to a thread of its own: that thread's calls are refused, and the node goes on.
TEST(Misuse, TheNodeApiFromAThreadTheKernelStartedIsAUsageError) {
  Machine machine(quick(2));
  std::vector<std::string> refusals(4);
  machine.run([&](Node& node) {
    std::thread helper([&] {
      std::vector<std::byte> data(4);
      try {
        node.isend(node.neighbor(0), data, 1);
      } catch (const UsageError& e) {
        refusals[static_cast<std::size_t>(node.id())] = e.what();
      }
    });
    helper.join();
    node.barrier();
  });
  for (const std::string& r : refusals) EXPECT_NE(r.find("not the node's own"), std::string::npos) << r;
}

TEST(Misuse, ANodeKeptAfterRunReturnedIsAUsageError) {
  Machine machine(quick(1));
  Node* kept = nullptr;
  machine.run([&](Node& node) {
    if (node.id() == 0) kept = &node;
  });
  ASSERT_NE(kept, nullptr);
  std::vector<std::byte> data(4);
  try {
    kept->barrier();
    FAIL() << "expected a UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("after the node's kernel returned"), std::string::npos) << e.what();
  }
  EXPECT_THROW(kept->isend(1, data, 0), UsageError);
  // The machine is as good as before.
  EXPECT_NO_THROW(machine.run([](Node& node) { node.barrier(); }));
}

// test() never advances the clock: polling it for a message due later in model time can never succeed.
TEST(Misuse, PollingTestWithoutAdvancingTheClockIsReportedNotSpun) {
  Machine machine(quick(1));
  try {
    machine.run([](Node& node) {
      std::vector<std::byte> data(4);
      if (node.id() == 0) {
        Request r = node.post_recv(1, data, 3);
        while (!node.test(r)) {
        }
      } else {
        node.elapse(from_us(100));
        node.send(0, data, 3);
      }
    });
    FAIL() << "expected the poll to be reported";
  } catch (const KernelError& e) {
    EXPECT_EQ(e.node, 0);
    EXPECT_NE(std::string(e.what()).find("livelock"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("receive from 1, tag 3"), std::string::npos) << e.what();
  }
}

TEST(Misuse, PollingTestWhileElapsingTimeCompletes) {
  Machine machine(quick(1));
  const RunReport report = machine.run([](Node& node) {
    std::vector<std::byte> data(4);
    if (node.id() == 0) {
      Request r = node.post_recv(1, data, 3);
      while (!node.test(r)) node.elapse(from_us(1));
    } else {
      node.elapse(from_us(100));
      node.send(0, data, 3);
    }
  });
  EXPECT_GT(report.makespan, from_us(100));
}

TEST(Deadlock, AReceiveUnderTheWrongTagNamesTheMessageThatWaits) {
  Machine machine(quick(1));
  try {
    machine.run([](Node& node) {
      std::vector<std::byte> data(4);
      if (node.id() == 0) node.send(1, data, 7);
      else node.recv(0, data, 8);
    });
    FAIL() << "expected a deadlock";
  } catch (const DeadlockError& e) {
    EXPECT_NE(std::string(e.what()).find("node 1: recv from 0 tag 8 (a message from 0 waits unreceived under tag 7)"),
              std::string::npos)
        << e.what();
  }
}

TEST(Deadlock, ABlockedSendNamesWhereItGoes) {
  const DeadlockError e({BlockedOperation{3, "send", 0, 9, "its transfer is not placed", true},
                         BlockedOperation{0, "recv", 3, 9, {}}});
  EXPECT_NE(std::string(e.what()).find("node 3: send to 0 tag 9"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("node 0: recv from 3 tag 9"), std::string::npos) << e.what();
}

}  // namespace
}  // namespace hcemu

namespace hcemu {
namespace {

// Deep enough to overflow any stack: each frame keeps 4 KiB the compiler cannot drop.
[[gnu::noinline]] int recurse(int depth) {
  volatile char frame[4096];
  frame[depth % 4096] = static_cast<char>(depth);
  return depth > 1'000'000 ? frame[0] : recurse(depth + 1) + frame[depth % 4096];
}

// A kernel that overflows its stack ends the process, as any overflow does, but first says which node, how large its
// stack was, and the key to raise.
TEST(Misuse, AKernelThatOverflowsItsStackIsNamedWithTheKeyToRaise) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "the sanitizer reports stack overflows itself";
#else
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        EmulatorSettings s;
        s.stack_bytes = 64 << 10;
        Machine machine(quick(2), s);
        machine.run([](Node& node) {
          if (node.id() == 2) recurse(0);
        });
      },
      "node 2 overflowed its stack of [0-9]+ bytes \\(the key stack_bytes\\).*stack_bytes=");
#endif
}

}  // namespace
}  // namespace hcemu
