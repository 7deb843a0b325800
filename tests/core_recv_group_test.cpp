// Receives posted in a group (Node::post_recvs) and sends without a handle (Node::post_send, wait_sends): the same
// model as one request each, so every node's clock, every status and every link's contention must equal those of the
// same kernel written with requests, whatever the switching, the ports, the protocol or the engine. Then what a
// group refuses, and what a run that misuses one reports.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "core_support.hpp"

namespace hcemu {
namespace {

using test::round_config;
using test::us;

constexpr std::size_t kBlock = 32;
constexpr int kTag = 3;

// Messages of different lengths, each at most a block, so that a status's bytes say which one came.
std::size_t length(int source, int dest) { return 8 + static_cast<std::size_t>(source * 7 + dest * 3) % 24; }
std::byte pattern(int source, int dest, std::size_t i) {
  return static_cast<std::byte>((source * 31 + dest * 17 + static_cast<int>(i)) & 0xff);
}

struct Outcome {
  std::vector<Time> clocks;
  std::vector<std::vector<Status>> statuses;  // per node, in the order it waited
  std::uint64_t contention = 0;
  std::vector<LinkStats> links;
  std::size_t discards = 0;
};

// Every node sends to every other in the shift schedule (id + j: links are contended), receives from each, waits for
// some receives one at a time in an order of its own and the rest together. With `late`, some nodes post their
// receives after others have sent (UNFORCED: those messages come from the system buffer); otherwise a barrier
// follows the posts (FORCED needs it).
Outcome all_to_all(const MachineConfig& config, const EmulatorSettings& settings, bool grouped, bool posted_sends,
                   bool late) {
  Outcome outcome;
  outcome.statuses.resize(static_cast<std::size_t>(config.nodes()));
  Machine machine(config, settings);
  const RunReport report = machine.run([&](Node& node) {
    const int n = node.size(), id = node.id();
    std::vector<std::byte> out(static_cast<std::size_t>(n) * kBlock), in(out.size());
    for (int dest = 0; dest < n; ++dest)
      for (std::size_t i = 0; i < kBlock; ++i) out[static_cast<std::size_t>(dest) * kBlock + i] = pattern(id, dest, i);
    if (late && id % 3 == 1) node.elapse(us(5.0 + id));

    std::vector<int> sources(static_cast<std::size_t>(n));
    for (int r = 0; r < n; ++r) sources[static_cast<std::size_t>(r)] = r == id ? kNoSource : r;
    RecvGroup group;
    std::vector<Request> receives(static_cast<std::size_t>(n));
    if (grouped) {
      group = node.post_recvs(sources, in, kBlock, kTag);
    } else {
      for (int r = 0; r < n; ++r)
        if (r != id)
          receives[static_cast<std::size_t>(r)] =
              node.post_recv(r, std::span(in).subspan(static_cast<std::size_t>(r) * kBlock, kBlock), kTag);
    }
    if (!late) node.barrier();

    std::vector<Request> sends;
    std::vector<Status>& statuses = outcome.statuses[static_cast<std::size_t>(id)];
    for (int j = 1; j < n; ++j) {
      const int dest = (id + j) % n;
      const auto data = std::span(out).subspan(static_cast<std::size_t>(dest) * kBlock, length(id, dest));
      if (posted_sends)
        node.post_send(dest, data, kTag);
      else
        sends.push_back(node.isend(dest, data, kTag));
      if (j % 2 == 0) {  // one receive, from the partner of a step long gone
        const int source = (id - j / 2 + n) % n;
        statuses.push_back(grouped ? node.wait(group, static_cast<std::size_t>(source))
                                   : node.wait(receives[static_cast<std::size_t>(source)]));
      }
    }
    if (grouped) {
      node.wait_all(group);
      EXPECT_FALSE(group.valid());
    } else {
      node.wait_all(receives);  // the ones waited for already are invalid, and skipped
    }
    if (posted_sends)
      node.wait_sends();
    else
      node.wait_all(sends);
    for (int source = 0; source < n; ++source) {
      if (source == id) continue;
      for (std::size_t i = 0; i < length(source, id); ++i)
        ASSERT_EQ(in[static_cast<std::size_t>(source) * kBlock + i], pattern(source, id, i))
            << "node " << id << " from " << source;
    }
  });
  for (const NodeStats& s : report.nodes) outcome.clocks.push_back(s.final_clock);
  outcome.contention = report.contention_events();
  outcome.links = report.links;
  outcome.discards = report.forced_discards.size();
  return outcome;
}

void expect_same(const Outcome& a, const Outcome& b) {
  EXPECT_EQ(a.clocks, b.clocks);
  EXPECT_EQ(a.contention, b.contention);
  ASSERT_EQ(a.links.size(), b.links.size());
  for (std::size_t i = 0; i < a.links.size(); ++i) {
    EXPECT_EQ(a.links[i].from, b.links[i].from);
    EXPECT_EQ(a.links[i].dim, b.links[i].dim);
    EXPECT_EQ(a.links[i].contention_events, b.links[i].contention_events);
  }
  EXPECT_EQ(a.discards, b.discards);
  ASSERT_EQ(a.statuses.size(), b.statuses.size());
  for (std::size_t n = 0; n < a.statuses.size(); ++n) {
    ASSERT_EQ(a.statuses[n].size(), b.statuses[n].size());
    for (std::size_t i = 0; i < a.statuses[n].size(); ++i) {
      EXPECT_EQ(a.statuses[n][i].source, b.statuses[n][i].source);
      EXPECT_EQ(a.statuses[n][i].bytes, b.statuses[n][i].bytes);
      EXPECT_EQ(a.statuses[n][i].completed, b.statuses[n][i].completed);
    }
  }
}

using Case = std::tuple<Switching, std::string, Protocol>;

class GroupsEqualRequests : public ::testing::TestWithParam<Case> {};

TEST_P(GroupsEqualRequests, InEveryClockStatusAndContentionCount) {
  const auto [switching, ports, protocol] = GetParam();
  MachineConfig config = round_config(4);
  config.switching = switching;
  if (switching == Switching::store_and_forward) config.packet = 16;
  config.ports = Ports::parse(ports);
  config.protocol = protocol;
  const bool late = protocol == Protocol::unforced;  // FORCED would lose the early messages: a barrier instead
  for (unsigned yield_seed : {0u, 7u}) {
    EmulatorSettings settings;
    settings.yield_seed = yield_seed;
    const Outcome requests = all_to_all(config, settings, false, false, late);
    EXPECT_GT(requests.contention, 0u) << "the schedule must contend for links";
    SCOPED_TRACE("yield seed " + std::to_string(yield_seed));
    {
      SCOPED_TRACE("grouped receives");
      expect_same(all_to_all(config, settings, true, false, late), requests);
    }
    {
      SCOPED_TRACE("posted sends");
      expect_same(all_to_all(config, settings, false, true, late), requests);
    }
    {
      SCOPED_TRACE("both");
      expect_same(all_to_all(config, settings, true, true, late), requests);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Machines, GroupsEqualRequests,
    ::testing::Combine(::testing::Values(Switching::circuit, Switching::store_and_forward),
                       ::testing::Values("one", "half", "k:2", "all"),
                       ::testing::Values(Protocol::unforced, Protocol::forced)),
    [](const ::testing::TestParamInfo<Case>& param) {
      std::string ports = std::get<1>(param.param);
      std::replace(ports.begin(), ports.end(), ':', '_');
      return std::string(std::get<0>(param.param) == Switching::circuit ? "circuit" : "saf") + "_" + ports + "_" +
             (std::get<2>(param.param) == Protocol::forced ? "forced" : "unforced");
    });

// A group on a machine many times its size looks its sources up in a sorted list instead of a table over every node.
TEST(RecvGroup, ASmallGroupOnALargeMachineFindsItsSources) {
  Machine machine(round_config(6));
  machine.run([](Node& node) {
    const int id = node.id();
    std::vector<std::byte> out(8, static_cast<std::byte>(id)), in(16);
    const std::vector<int> sources = {id ^ 5, id ^ 48};  // 2 of 64: far below a quarter of the machine
    RecvGroup group = node.post_recvs(sources, in, 8);
    node.post_send(id ^ 48, out);
    node.post_send(id ^ 5, out);
    const Status first = node.wait(group, 1);
    EXPECT_EQ(first.source, id ^ 48);
    EXPECT_EQ(in[8], static_cast<std::byte>(id ^ 48));
    node.wait_all(group);
    EXPECT_EQ(in[0], static_cast<std::byte>(id ^ 5));
    node.wait_sends();
  });
}

// Messages that came before the group was posted: UNFORCED, they come from the system buffer (charged ρ_s per byte,
// as a late receive on its own request); FORCED, they are lost, and the deadlock report says so.
TEST(RecvGroup, TakesTheMessagesThatCameBeforeItUnderUnforced) {
  MachineConfig config = round_config(1);
  config.protocol = Protocol::unforced;
  std::vector<Time> grouped(2), single(2);
  for (bool group : {true, false}) {
    Machine machine(config);
    const RunReport report = machine.run([group](Node& node) {
      std::vector<std::byte> buf(8);
      if (node.id() == 1) {
        node.send(0, std::vector<std::byte>(8, std::byte{9}));
        return;
      }
      node.elapse(us(100));  // long after the message arrived
      if (group) {
        const std::vector<int> sources = {1};
        RecvGroup g = node.post_recvs(sources, buf, 8);
        EXPECT_EQ(node.wait(g, 0).bytes, 8u);
      } else {
        node.recv(1, buf);
      }
      EXPECT_EQ(buf[7], std::byte{9});
    });
    for (int i = 0; i < 2; ++i) (group ? grouped : single)[static_cast<std::size_t>(i)] = report.nodes[i].final_clock;
  }
  EXPECT_EQ(grouped, single);
  // docs/model.md §5: it arrived at 17 µs; the late receive completes at max(call, completion) + sys_copy·L.
  EXPECT_EQ(grouped[0], us(100 + 0.125 * 8));
}

TEST(RecvGroup, LosesTheMessagesThatCameBeforeItUnderForced) {
  MachineConfig config = round_config(1);
  config.protocol = Protocol::forced;
  Machine machine(config);
  try {
    machine.run([](Node& node) {
      std::vector<std::byte> buf(8);
      if (node.id() == 1) {
        node.send(0, std::vector<std::byte>(8), 4);
        return;
      }
      node.elapse(us(100));
      const std::vector<int> sources = {1};
      RecvGroup g = node.post_recvs(sources, buf, 8, 4);
      node.wait(g, 0);
    });
    FAIL() << "expected a deadlock";
  } catch (const DeadlockError& e) {
    ASSERT_EQ(e.blocked.size(), 1u);
    EXPECT_EQ(e.blocked[0].node, 0);
    EXPECT_EQ(e.blocked[0].peer, 1);
    EXPECT_EQ(e.blocked[0].tag, 4);
    EXPECT_EQ(e.blocked[0].detail, "its message was discarded under FORCED");
  }
}

// Posting order holds between a group and receives posted after it for the same source and tag.
TEST(RecvGroup, MeetsItsMessageBeforeAReceivePostedAfterIt) {
  Machine machine(round_config(1));
  machine.run([](Node& node) {
    if (node.id() == 1) {
      node.send(0, std::vector<std::byte>(4, std::byte{1}));
      node.send(0, std::vector<std::byte>(4, std::byte{2}));
      return;
    }
    std::vector<std::byte> first(4), second(4);
    const std::vector<int> sources = {1};
    RecvGroup g = node.post_recvs(sources, first, 4);
    Request r = node.post_recv(1, second);
    node.wait(r);
    node.wait(g, 0);
    EXPECT_EQ(first[0], std::byte{1});
    EXPECT_EQ(second[0], std::byte{2});
  });
}

// What a group refuses, each a UsageError that names the node and the call.
void expect_usage_error(int d, const std::function<void(Node&)>& kernel, const std::string& words) {
  Machine machine(round_config(d));
  try {
    machine.run(kernel);
    FAIL() << "expected a UsageError saying: " << words;
  } catch (const KernelError& e) {
    EXPECT_THROW(std::rethrow_exception(e.cause), UsageError);
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(RecvGroup, RefusesWhatItCannotDo) {
  const auto on_node_0 = [](std::function<void(Node&, std::vector<std::byte>&)> f) {
    return [f](Node& node) {
      std::vector<std::byte> buf(64);
      if (node.id() == 0) f(node, buf);
    };
  };
  expect_usage_error(2, on_node_0([](Node& node, std::vector<std::byte>& buf) {
                       const std::vector<int> sources = {1, 2, 1};
                       node.post_recvs(sources, buf, 8);
                     }),
                     "node 0: post_recvs: node 1 is named twice");
  expect_usage_error(2, on_node_0([](Node& node, std::vector<std::byte>& buf) {
                       const std::vector<int> sources = {1, kAnySource};
                       node.post_recvs(sources, buf, 8);
                     }),
                     "cannot receive from any source");
  expect_usage_error(2, on_node_0([](Node& node, std::vector<std::byte>& buf) {
                       const std::vector<int> sources = {1, 4};
                       node.post_recvs(sources, buf, 8);
                     }),
                     "node 0: post_recvs: node 4 does not exist");
  expect_usage_error(2, on_node_0([](Node& node, std::vector<std::byte>& buf) {
                       const std::vector<int> sources = {1, 2, 3};
                       node.post_recvs(sources, buf, 32);
                     }),
                     "a buffer of 64 bytes for 3 blocks of 32 bytes");
  expect_usage_error(2, on_node_0([](Node& node, std::vector<std::byte>& buf) {
                       std::vector<std::byte> other(8);
                       node.post_recv(2, other, 5);
                       const std::vector<int> sources = {1, 2};
                       node.post_recvs(sources, buf, 8, 5);
                     }),
                     "a receive from node 2 with tag 5 posted earlier is still waiting");
  expect_usage_error(2, on_node_0([](Node& node, std::vector<std::byte>& buf) {
                       const std::vector<int> sources = {1, kNoSource};
                       RecvGroup g = node.post_recvs(sources, buf, 8);
                       node.wait(g, 1);
                     }),
                     "element 1 of the group receives nothing");
  expect_usage_error(2, on_node_0([](Node& node, std::vector<std::byte>& buf) {
                       const std::vector<int> sources = {1};
                       RecvGroup g = node.post_recvs(sources, buf, 8);
                       node.wait(g, 1);
                     }),
                     "element 1 of a group of 1 receives");
  expect_usage_error(2, on_node_0([](Node& node, std::vector<std::byte>&) {
                       RecvGroup never;
                       node.wait(never, 0);
                     }),
                     "node 0: wait: the group of receives is not pending");
}

TEST(RecvGroup, AnElementWaitedForTwiceOrAGroupCompletedIsAnError) {
  expect_usage_error(1, [](Node& node) {
    std::vector<std::byte> buf(8);
    const std::vector<int> sources = {1 - node.id(), kNoSource};
    RecvGroup g = node.post_recvs(sources, buf, 4);
    RecvGroup copy = g;
    node.post_send(1 - node.id(), std::vector<std::byte>(4));
    node.wait(g, 0);  // the only element that receives: the group is over
    EXPECT_FALSE(g.valid());
    node.wait(copy, 0);
  }, "the group of receives is not pending");
  expect_usage_error(1, [](Node& node) {
    std::vector<std::byte> buf(8);
    const std::vector<int> sources = {1 - node.id(), node.id()};
    RecvGroup g = node.post_recvs(sources, buf, 4);
    node.post_send(1 - node.id(), std::vector<std::byte>(4));
    node.wait(g, 0);
    node.wait(g, 0);
  }, "element 0 of the group has completed already");
}

// A message longer than its element's block is an error, as for a request, never an overwrite of the next block.
TEST(RecvGroup, AMessageLongerThanItsBlockIsAnError) {
  expect_usage_error(1, [](Node& node) {
    std::vector<std::byte> buf(16, std::byte{7});
    const std::vector<int> sources = {1 - node.id()};
    RecvGroup g = node.post_recvs(sources, std::span(buf).first(8), 8);
    node.post_send(1 - node.id(), std::vector<std::byte>(12));
    node.wait(g, 0);
  }, "message of 12 bytes from node");
}

// Also when the message comes after its receiver has finished, its element never waited for: the run ends with the
// error, however the threads ran.
TEST(RecvGroup, AMessageLongerThanABlockNeverWaitedForIsAnErrorHoweverTheRunEnds) {
  for (bool after_the_end : {false, true}) {
    expect_usage_error(1, [after_the_end](Node& node) {
      static std::vector<std::byte> small(10);
      if (node.id() == 0) {
        if (after_the_end) std::this_thread::sleep_for(std::chrono::milliseconds(20));
        node.send(1, std::vector<std::byte>(100));
      } else {
        const std::vector<int> sources = {0};
        node.post_recvs(sources, std::span(small), 10);  // never waited for; the node finishes
      }
    }, "longer than the 10-byte buffer posted for it");
  }
}

// A group never completed blocks nothing, and each run starts with none: the same machine runs again.
TEST(RecvGroup, AMachineRunsAgainAfterAGroupLeftPendingOrAFailure) {
  Machine machine(round_config(3));
  const auto kernel = [](Node& node) {
    std::vector<std::byte> buf(8 * 8);
    std::vector<int> sources(8);
    for (int r = 0; r < 8; ++r) sources[static_cast<std::size_t>(r)] = r == node.id() ? kNoSource : r;
    node.post_recvs(sources, buf, 8);  // never waited for
    for (int r = 0; r < 8; ++r)
      if (r != node.id()) node.post_send(r, std::vector<std::byte>(8));
    node.wait_sends();
  };
  const RunReport first = machine.run(kernel);
  EXPECT_THROW(machine.run([](Node& node) {
    std::vector<std::byte> buf(8);
    const std::vector<int> sources = {node.id() ^ 1};
    RecvGroup g = node.post_recvs(sources, buf, 8);
    node.wait(g, 0);  // nobody sends
  }),
               DeadlockError);
  const RunReport again = machine.run(kernel);
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(again.nodes[i].final_clock, first.nodes[i].final_clock);
}

// A send whose transfer cannot be placed is named by wait_sends in the deadlock report.
TEST(PostSend, WaitSendsIsNamedInADeadlockReport) {
  Machine machine(round_config(1));
  try {
    machine.run([](Node& node) {
      if (node.id() == 0) {
        std::vector<std::byte> buf(4);
        node.recv(1, buf, 9);  // never sent
      }
      node.wait_sends();  // nothing to wait for: returns at once
    });
    FAIL() << "expected a deadlock";
  } catch (const DeadlockError& e) {
    ASSERT_EQ(e.blocked.size(), 1u);
    EXPECT_EQ(e.blocked[0].operation, "recv");
  }
}

}  // namespace
}  // namespace hcemu
