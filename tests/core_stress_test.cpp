// Long randomised runs of the shapes that make the runtime's threads meet: barriers released while other nodes
// exchange through the coordinator's queue, ping-pongs across several hops, receives posted in groups. A correct
// emulator may be slow under them; it may never report a deadlock that the program does not have, and every clock it
// reports equals the model's closed form (docs/model.md §3, §4 and §7).
//
// In ctest each case runs a bounded number of rounds (a few seconds on each engine). HCEMU_STRESS_SECONDS=N runs
// each case for N seconds instead, as a nightly job would.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "core_support.hpp"
#include "hcemu/model/transfer.hpp"

namespace hcemu {
namespace {

using Clock = std::chrono::steady_clock;

// How long a case goes on: `rounds` runs of the machine, or HCEMU_STRESS_SECONDS of them.
struct Budget {
  explicit Budget(int rounds) : rounds_(rounds) {
    if (const char* s = std::getenv("HCEMU_STRESS_SECONDS")) seconds_ = std::atof(s);
  }
  bool more(int done) const {
    if (seconds_ > 0) return Clock::now() - start_ < std::chrono::duration<double>(seconds_);
    return done < rounds_;
  }

 private:
  int rounds_;
  double seconds_ = 0;
  Clock::time_point start_ = Clock::now();
};

// Two workers, placing once every node has stopped, or also while the other worker runs (`placing_early`).
EmulatorSettings two_workers(bool early) {
  EmulatorSettings s;
  s.workers = 2;
  s.placing_early = early;
  return s;
}

// The shape of `hcemu fit`'s ping-pong: both ends post their receives, every node enters a barrier, then node 0 and
// node 2^h - 1 play ping-pong across h hops (a transfer that goes through the coordinator's queue when h > 1) while
// the other nodes go straight on to the next round's barrier. Node 0's round trip is twice the time of one message
// on free resources, every round.
TEST(Stress, PingPongBesideABarrierNeverDeadlocksAndKeepsTheModelsTime) {
  for (const bool early : {false, true})
    for (int d : {2, 3}) {
      SCOPED_TRACE(early ? "placing early" : "placing once all stop");
      const MachineConfig config = test::round_config(d);
      Machine machine(config, two_workers(early));
      constexpr int kRoundsPerRun = 2000;
      const std::size_t bytes = 16;
      Budget budget(60);
      for (int run = 0; budget.more(run); ++run) {
        std::vector<Time> round_trips;
        machine.run([&](Node& node) {
          const int id = node.id();
          auto in = node.allocate<std::byte>(bytes);
          auto out = node.allocate<std::byte>(bytes);
          for (int r = 0; r < kRoundsPerRun; ++r) {
            const int h = 1 + (r % d);
            const int partner = (1 << h) - 1;
            Request request;
            if (id == 0) request = node.post_recv(partner, in.span(), r);
            if (id == partner) request = node.post_recv(0, in.span(), r);
            node.barrier();
            if (id == 0) {
              const Time start = node.clock();
              node.send(partner, out.span(), r);
              node.wait(request);
              if (h == d) round_trips.push_back(node.clock() - start);
            } else if (id == partner) {
              node.wait(request);
              node.send(0, out.span(), r);
            }
          }
        });
        const Time expected = 2 * model::message_time(config, bytes, d);
        ASSERT_EQ(round_trips.size(), static_cast<std::size_t>(kRoundsPerRun / d)) << "d = " << d;
        for (Time t : round_trips) ASSERT_EQ(t, expected) << "d = " << d << ", run " << run;
      }
    }
}

// Rounds of a random mix: every node draws the same plan from a shared seed. Each round is a barrier, then either
// random disjoint pairs that play ping-pong across the cube (some one hop apart, most several), or a complete
// exchange with receives posted in a group and sends without handles, or nothing (a barrier straight after a
// barrier). The run must end, and the same plan must give the same clocks on every run, placing early or not.
TEST(Stress, RandomBarriersPingPongsAndGroupsAlwaysFinishWithTheSameClocks) {
  const int d = 3;
  const int n = 1 << d;
  const MachineConfig config = test::round_config(d);
  std::vector<Time> first;  // the first four runs' clocks, placing once all stop: every later run gives the same
  for (const bool early : {false, true}) {
    SCOPED_TRACE(early ? "placing early" : "placing once all stop");
    Machine machine(config, two_workers(early));
    Budget budget(12);
    for (int run = 0; budget.more(run); ++run) {
      const unsigned seed = 1234u + static_cast<unsigned>(run % 4);
      std::vector<Time> finals(static_cast<std::size_t>(n));
      machine.run([&](Node& node) {
        const int id = node.id();
        std::mt19937 plan(seed);  // the same draws on every node
        const std::size_t block = 8;
        auto in = node.allocate<std::byte>(block * static_cast<std::size_t>(n));
        auto out = node.allocate<std::byte>(block * static_cast<std::size_t>(n));
        std::vector<int> sources(static_cast<std::size_t>(n));
        for (int round = 0; round < 400; ++round) {
          const int kind = static_cast<int>(plan() % 3);
          std::vector<int> order(static_cast<std::size_t>(n));
          for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
          std::shuffle(order.begin(), order.end(), plan);
          const int tag = round;
          if (kind == 0) {
            // Pairs (order[0], order[1]), (order[2], order[3])...: the first of each pair serves.
            int partner = -1;
            bool serves = false;
            for (int i = 0; i < n; i += 2) {
              if (order[static_cast<std::size_t>(i)] == id)
                partner = order[static_cast<std::size_t>(i + 1)], serves = true;
              if (order[static_cast<std::size_t>(i + 1)] == id) partner = order[static_cast<std::size_t>(i)];
            }
            Request r = node.post_recv(partner, in.span().first(block), tag);
            node.barrier();
            if (serves) {
              node.send(partner, out.span().first(block), tag);
              node.wait(r);
            } else {
              node.wait(r);
              node.send(partner, out.span().first(block), tag);
            }
          } else if (kind == 1) {
            for (int i = 0; i < n; ++i) sources[static_cast<std::size_t>(i)] = i == id ? kNoSource : i;
            RecvGroup group = node.post_recvs(sources, in.span(), block, tag);
            node.barrier();
            for (int j = 1; j < n; ++j)
              node.post_send(id ^ j, out.span().subspan(block * static_cast<std::size_t>(j), block), tag);
            node.wait_all(group);
            node.wait_sends();
          } else {
            node.barrier();
          }
        }
        finals[static_cast<std::size_t>(id)] = node.clock();
      });
      if (first.size() < static_cast<std::size_t>(4 * n))
        first.insert(first.end(), finals.begin(), finals.end());
      else
        for (int i = 0; i < n; ++i)
          ASSERT_EQ(finals[static_cast<std::size_t>(i)], first[static_cast<std::size_t>((run % 4) * n + i)])
              << "node " << i << ", run " << run;
    }
  }
}

}  // namespace
}  // namespace hcemu
