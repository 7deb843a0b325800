// The matcher alone, without threads (runtime/matcher.hpp): receives and messages of many keys, posted and arriving
// in random order, meet as docs/model.md §5 says (by source, context and tag, in posting order on both sides)
// however the table grows, keeps tombstones and clears them. The reference is a pair of queues per key.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "hcemu/errors.hpp"
#include "runtime/arena.hpp"
#include "runtime/block_pool.hpp"
#include "runtime/matcher.hpp"
#include "runtime/message.hpp"
#include "runtime/requests.hpp"
#include "timing/timing_model.hpp"

namespace hcemu::detail {
namespace {

class MatcherTest : public ::testing::Test {
 protected:
  MatcherTest() : timing_(config(), Timing::virtual_time), arena_(0, std::size_t{1} << 30) {}

  static MachineConfig config() {
    MachineConfig c;
    c.d = 4;
    return c;
  }

  using Key = std::tuple<int, std::uint32_t, int>;  // source, context, tag

  // A receive posted at time 0: every message arrives after it in model time and is delivered.
  std::uint32_t post(Matcher& matcher, const Key& key, std::vector<std::byte>& buffer) {
    const Request r = requests_.add(Slot::Kind::recv);
    const std::uint32_t index = RequestAccess::slot(r);
    Slot& s = requests_.at(index);
    std::tie(s.peer, s.context, s.tag) = key;
    s.bytes = buffer.size();
    s.recv.data = buffer.data();
    matcher.post(index);
    return index;
  }

  // A message numbered `seq` whose payload is that number.
  static Message* message(const Key& key, std::uint64_t seq) {
    const auto [source, context, tag] = key;
    Message* m = Message::make(source, 0, tag, context, reinterpret_cast<const std::byte*>(&seq), sizeof seq);
    m->transfer.key.seq = seq;
    m->transfer.times.first_byte = m->transfer.times.arrival = 1;
    return m;
  }

  timing::TimingModel timing_;
  RequestTable requests_;
  Arena arena_;
};

TEST_F(MatcherTest, RandomPostsAndArrivalsMeetInOrderPerKey) {
  // With its larger tables from a block pool too, as a machine's nodes have them (runtime/block_pool.hpp).
  for (int variant = 0; variant < 4; ++variant) {
    const bool forced = (variant & 1) != 0, pooled = (variant & 2) != 0;
    BlockPool pool;
    Matcher matcher(0, timing_, requests_, arena_, forced, pooled ? &pool : nullptr);
    std::mt19937 rng(forced ? 7 : 11);
    // Many keys at once (the table grows), a few live per key, and phases where most go away (tombstones).
    std::map<Key, std::deque<std::uint32_t>> waiting_receives;
    std::map<Key, std::deque<std::uint64_t>> waiting_messages;
    std::map<std::uint32_t, std::pair<std::uint64_t, int>> expected;  // receive slot -> the message it must meet, its source
    std::map<std::uint32_t, std::vector<std::byte>> buffers;
    std::uint64_t seq = 0;
    std::uint64_t met = 0;
    for (int round = 0; round < 6; ++round) {
      const int keys = round % 2 == 0 ? 2000 : 40;
      for (int op = 0; op < 20000; ++op) {
        const Key key{static_cast<int>(rng() % static_cast<unsigned>(keys)), rng() % 2, static_cast<int>(rng() % 3)};
        if (rng() % 2 == 0) {
          std::vector<std::byte> buffer(sizeof(std::uint64_t));
          const std::uint32_t index = post(matcher, key, buffer);
          buffers[index] = std::move(buffer);
          // Every arrival is later in model time than every post, so even FORCED delivers what waits.
          if (auto& q = waiting_messages[key]; !q.empty()) {
            expected[index] = {q.front(), std::get<0>(key)};
            q.pop_front();
          } else {
            waiting_receives[key].push_back(index);
          }
        } else {
          const std::uint64_t number = ++seq;
          matcher.arrive(message(key, number));
          if (auto& q = waiting_receives[key]; !q.empty()) {
            expected[q.front()] = {number, std::get<0>(key)};
            q.pop_front();
          } else {
            waiting_messages[key].push_back(number);
          }
        }
        // Every receive the reference has matched has met exactly its message; then its slot is reused.
        for (auto it = expected.begin(); it != expected.end();) {
          Slot& s = requests_.at(it->first);
          ASSERT_TRUE(s.matched) << "round " << round << " op " << op;
          std::uint64_t payload = 0;
          std::memcpy(&payload, buffers[it->first].data(), sizeof payload);
          ASSERT_EQ(payload, it->second.first);
          ASSERT_EQ(s.peer, it->second.second);
          ASSERT_EQ(s.recv.message, (static_cast<std::uint64_t>(it->second.second) << 40) + it->second.first + 1);
          requests_.release(it->first);
          buffers.erase(it->first);
          it = expected.erase(it);
          ++met;
        }
      }
      // Meet what is left of the small phases' keys, so that the next phase starts from a table of tombstones.
      for (auto& [key, q] : waiting_receives) {
        while (!q.empty()) {
          const std::uint64_t number = ++seq;
          matcher.arrive(message(key, number));
          EXPECT_TRUE(requests_.at(q.front()).matched);
          requests_.release(q.front());
          buffers.erase(q.front());
          q.pop_front();
          ++met;
        }
      }
    }
    EXPECT_GT(met, 50000u);
    EXPECT_EQ(matcher.messages_received(), met);
    // Whatever still waits is reported once each, as UNFORCED leftovers or FORCED discards.
    std::size_t left = 0;
    for (const auto& [key, q] : waiting_messages) left += q.size();
    std::vector<ForcedDiscard> discards;
    std::vector<std::string> unreceived;
    matcher.collect_leftovers(discards, unreceived);
    EXPECT_EQ((forced ? discards.size() : unreceived.size()), left);
    matcher.clear();
    requests_.clear();
  }
}

// After the node finished, a message meets nothing but is checked against the receive it would have met: the second
// of three messages is longer than the second receive posted for its key, which is an error however the run ended.
TEST_F(MatcherTest, AMessageAfterTheEndIsCheckedAgainstTheReceiveItWouldHaveMet) {
  Matcher matcher(0, timing_, requests_, arena_, /*forced=*/false);
  const Key key{3, 0, 5};
  std::vector<std::byte> first(8), second(4);
  post(matcher, key, first);
  post(matcher, key, second);
  matcher.arrive_after_end(message(key, 1));  // 8 bytes: fits the first
  matcher.arrive_after_end(message(key, 2));  // 8 bytes: longer than the second
  matcher.arrive_after_end(message(key, 3));
  std::vector<ForcedDiscard> discards;
  std::vector<std::string> unreceived;
  try {
    matcher.collect_leftovers(discards, unreceived);
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("longer than the 4-byte buffer"), std::string::npos) << e.what();
  }
  matcher.clear();
  requests_.clear();
}

// Under FORCED a receive from any source loses what arrived before it was posted (discard_lost), and sees the first
// waiting message of every source that is left; whatever still waits at the end is a discard, reported once each.
TEST_F(MatcherTest, ForcedAnySourceSeesOnlyWhatArrivedAfterItsPost) {
  MachineConfig c = config();
  c.protocol = Protocol::forced;
  const timing::TimingModel forced(c, Timing::virtual_time);
  Matcher matcher(0, forced, requests_, arena_, /*forced=*/true);
  auto at = [](Message* m, Time t) {
    m->transfer.times.first_byte = m->transfer.times.arrival = t;
    return m;
  };
  for (int source = 0; source < 40; ++source) {
    matcher.arrive(at(message(Key{source, 0, 1}, 2 * source), 100));  // before the post at 500
    matcher.arrive(at(message(Key{source, 0, 1}, 2 * source + 1), source < 20 ? 100 : 900));
    matcher.arrive(at(message(Key{source, 0, 2}, 1000 + source), 100));  // another tag
  }
  matcher.discard_lost(0, 1, 500);
  EXPECT_EQ(matcher.discards().size(), 60u);  // every early message of tag 1: both of sources 0-19, one of 20-39
  std::vector<int> seen;
  matcher.for_each_first_waiting(0, 1, [&](Message& m) {
    EXPECT_EQ(m.transfer.key.seq, static_cast<std::uint64_t>(2 * m.source + 1));
    seen.push_back(m.source);
  });
  std::sort(seen.begin(), seen.end());
  std::vector<int> expected(20);
  std::iota(expected.begin(), expected.end(), 20);
  EXPECT_EQ(seen, expected);
  // A receive from source 25 posted now meets its waiting message, which arrived after it.
  std::vector<std::byte> buffer(8);
  const std::uint32_t index = post(matcher, Key{25, 0, 1}, buffer);
  requests_.at(index).recv.posted = 500;
  EXPECT_TRUE(requests_.at(index).matched);
  std::vector<ForcedDiscard> discards;
  std::vector<std::string> unreceived;
  matcher.collect_leftovers(discards, unreceived);
  EXPECT_EQ(discards.size(), 19u + 40u);  // the rest of tag 1, and all of tag 2
  EXPECT_TRUE(std::is_sorted(discards.begin(), discards.end(), [](const ForcedDiscard& a, const ForcedDiscard& b) {
    return std::tie(a.source, a.tag) < std::tie(b.source, b.tag);
  }));
  matcher.clear();
  requests_.clear();
}

}  // namespace
}  // namespace hcemu::detail
