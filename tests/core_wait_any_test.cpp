// wait_any, receives from any source and test(): their outcome is decided in model time (the earliest completion,
// ties by lower source id), never by which host thread happened to run first. Each case makes the earliest sender's
// thread the last to run in real time, and runs on every engine.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "core_support.hpp"

namespace hcemu {
namespace {

using test::bytes_of;
using test::round_config;
using test::us;

// λ = 10, δ' = 2, δ = 1, τ = 0.5 (core_support.hpp): 8 bytes over h hops take 16 + h µs.
Time eight_bytes(int hops) { return us(10 + 2 + hops + 0.5 * 8); }

void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

std::vector<EmulatorSettings> engines() {
  EmulatorSettings tasks1, tasks2, os;
  tasks1.engine = tasks2.engine = EngineKind::tasks;
  tasks1.workers = 1;
  tasks2.workers = 2;
  os.engine = EngineKind::os_threads;
  return {tasks1, tasks2, os};
}

std::string name(const EmulatorSettings& s) {
  return std::string(to_string(s.engine)) + ", " + std::to_string(s.workers) + " workers";
}

// Nodes 1, 2 and 4 (one hop from node 0) send 8 bytes at model times 0, 10 and 20; node 1's thread sleeps first.
Kernel three_senders(std::vector<int>& order, std::vector<Time>& completions) {
  return [&order, &completions](Node& node) {
    std::vector<std::byte> out = bytes_of(8, static_cast<unsigned>(node.id()));
    if (node.id() == 1) {
      sleep_ms(30);
      node.send(0, out);
    } else if (node.id() == 2) {
      node.elapse(from_us(10));
      node.send(0, out);
    } else if (node.id() == 4) {
      node.elapse(from_us(20));
      node.send(0, out);
    } else if (node.id() == 0) {
      std::vector<std::vector<std::byte>> in(3, std::vector<std::byte>(8));
      std::vector<Request> r = {node.post_recv(4, in[0]), node.post_recv(2, in[1]), node.post_recv(1, in[2])};
      for (int i = 0; i < 3; ++i) {
        Status s;
        const std::size_t k = node.wait_any(r, &s);
        EXPECT_FALSE(r[k].valid());
        EXPECT_EQ(in[k], bytes_of(8, static_cast<unsigned>(s.source)));
        order.push_back(s.source);
        completions.push_back(node.clock());
      }
    }
  };
}

TEST(WaitAny, ReturnsTheEarliestCompletionInModelTimeWhateverTheThreadOrder) {
  auto config = round_config(3);
  config.ports = Ports::parse("all");  // one input per link: each message completes when it arrives
  for (const auto& settings : engines()) {
    SCOPED_TRACE(name(settings));
    std::vector<int> order;
    std::vector<Time> completions;
    Machine(config, settings).run(three_senders(order, completions));
    EXPECT_EQ(order, (std::vector<int>{1, 2, 4}));
    EXPECT_EQ(completions, (std::vector<Time>{eight_bytes(1), us(10) + eight_bytes(1), us(20) + eight_bytes(1)}));
  }
}

TEST(WaitAny, BreaksTiesByTheLowerSource) {
  for (const auto& settings : engines()) {
    SCOPED_TRACE(name(settings));
    std::vector<int> order;
    Machine(round_config(2), settings).run([&order](Node& node) {
      std::vector<std::byte> buf(8);
      if (node.id() == 1) {
        sleep_ms(30);  // the lower source runs last in real time
        node.send(0, buf);
      } else if (node.id() == 2) {
        node.send(0, buf);
      } else if (node.id() == 0) {
        std::vector<std::byte> a(8), b(8);
        std::vector<Request> r = {node.post_recv(2, a), node.post_recv(1, b)};
        for (int i = 0; i < 2; ++i) {
          Status s;
          node.wait_any(r, &s);
          order.push_back(s.source);
        }
      }
    });
    // Both arrive at 16 µs on the one-port input, 1 first: 2 completes one transfer later.
    EXPECT_EQ(order, (std::vector<int>{1, 2}));
  }
}

TEST(WaitAny, ASendThatEndsFirstIsReturnedBeforeAReceive) {
  for (const auto& settings : engines()) {
    SCOPED_TRACE(name(settings));
    Machine(round_config(1), settings).run([](Node& node) {
      std::vector<std::byte> buf(8);
      if (node.id() == 1) {
        node.elapse(from_us(100));
        node.send(0, buf);
      } else {
        std::vector<std::byte> in(8);
        std::vector<Request> r = {node.post_recv(1, in), node.isend(1, buf)};
        EXPECT_EQ(node.wait_any(r), 1u);  // the send ends at 17 µs, the message from 1 arrives at 117 µs
        EXPECT_EQ(node.clock(), eight_bytes(1));
        EXPECT_EQ(node.wait_any(r), 0u);
        EXPECT_EQ(node.clock(), us(100) + eight_bytes(1));
      }
    });
  }
}

TEST(WaitAny, WithoutAPendingRequestIsAUsageError) {
  Machine machine(round_config(0));
  EXPECT_THROW(machine.run([](Node& node) {
                 std::vector<Request> none(3);
                 node.wait_any(none);
               }),
               KernelError);
}

TEST(RecvAnySource, TakesMessagesInOrderOfCompletionAndSaysWhoSentThem) {
  for (const auto& settings : engines()) {
    SCOPED_TRACE(name(settings));
    std::vector<int> sources;
    Machine(round_config(3), settings).run([&sources](Node& node) {
      std::vector<std::byte> out = bytes_of(8, static_cast<unsigned>(node.id()));
      if (node.id() == 4) {
        sleep_ms(30);
        node.send(0, out);  // first in model time, last in real time
      } else if (node.id() == 1 || node.id() == 2) {
        node.elapse(from_us(node.id() * 10.0));
        node.send(0, out);
      } else if (node.id() == 0) {
        for (int i = 0; i < 3; ++i) {
          std::vector<std::byte> in(8);
          const Status s = node.recv(kAnySource, in);
          EXPECT_EQ(in, bytes_of(8, static_cast<unsigned>(s.source)));
          sources.push_back(s.source);
        }
      }
    });
    EXPECT_EQ(sources, (std::vector<int>{4, 1, 2}));
  }
}

TEST(RecvAnySource, UnderForcedAMessageThatCameBeforeThePostIsLost) {
  auto config = round_config(1);
  config.protocol = Protocol::forced;
  for (const auto& settings : engines()) {
    SCOPED_TRACE(name(settings));
    const auto report = Machine(config, settings).run([](Node& node) {
      std::vector<std::byte> buf(8);
      if (node.id() == 1) {
        node.send(0, bytes_of(8, 1), 1);  // arrives at 17 µs, before the receive
        node.elapse(from_us(100));
        node.send(0, bytes_of(8, 2), 1);  // arrives at 117 + 17 µs
      } else {
        node.elapse(from_us(50));
        const Status s = node.recv(kAnySource, buf, 1);
        EXPECT_EQ(buf, bytes_of(8, 2));
        EXPECT_EQ(s.completed, us(117) + eight_bytes(1));
      }
    });
    ASSERT_EQ(report.forced_discards.size(), 1u);
  }
}

// test() answers for the node's clock in model time: it is true only if the request completes by then, however far
// the sender's thread has got in real time.
TEST(Test, AnswersForTheNodesClockWhateverTheSendersThreadDid) {
  for (const auto& settings : engines()) {
    SCOPED_TRACE(name(settings));
    Machine(round_config(1), settings).run([](Node& node) {
      std::vector<std::byte> buf(8);
      if (node.id() == 1) {
        sleep_ms(30);
        node.send(0, buf);  // arrives at 17 µs
      } else {
        Request r = node.post_recv(1, buf);
        node.elapse(from_us(10));
        EXPECT_FALSE(node.test(r));  // at 10 µs it has not arrived
        node.elapse(from_us(10));
        EXPECT_TRUE(node.test(r));  // at 20 µs it has
        EXPECT_EQ(node.clock(), us(20));
      }
    });
  }
}

}  // namespace
}  // namespace hcemu
