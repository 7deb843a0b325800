// The coordinator's queue alone (runtime/commit_queue.hpp): whatever mix of large batches (merged into its sorted
// run), small ones (into its heap) and single pushes comes in, and however pops interleave with them, it hands out
// the smallest key it holds each time.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>
#include <set>
#include <vector>

#include "runtime/commit_queue.hpp"
#include "runtime/pending.hpp"

namespace hcemu::detail {
namespace {

using timing::OrderKey;

class Keys {
 public:
  // A new pending item with a key of its own: few ready times and sources, so that ties decide most comparisons.
  Pending* make(std::mt19937& rng) {
    Pending& p = store_.emplace_back();
    const auto ready = static_cast<Time>(rng() % 8);
    const auto source = static_cast<int>(rng() % 16);
    p.key = OrderKey{ready, source, next_seq_++, static_cast<std::uint32_t>(rng() % 3)};
    return &p;
  }

 private:
  std::deque<Pending> store_;  // stable addresses
  std::uint64_t next_seq_ = 0;
};

std::vector<CommitQueue::Item> items_of(const std::vector<Pending*>& ps) {
  std::vector<CommitQueue::Item> items;
  for (Pending* p : ps) items.push_back({p->key, p, 0});
  return items;
}

TEST(CommitQueue, PopsTheSmallestKeyWhateverWayItCameIn) {
  std::mt19937 rng(7);
  Keys keys;
  CommitQueue queue;
  std::multiset<OrderKey> held;
  int small_batches = 0, large_batches = 0;
  for (int round = 0; round < 2000; ++round) {
    // Batch sizes from one to a few hundred: against a run of hundreds, most are far smaller than it.
    const std::size_t n = (rng() % 4 == 0) ? 100 + rng() % 400 : 1 + rng() % 6;
    std::vector<Pending*> batch;
    for (std::size_t i = 0; i < n; ++i) batch.push_back(keys.make(rng));
    std::shuffle(batch.begin(), batch.end(), rng);
    (n > 50 ? large_batches : small_batches) += 1;
    std::vector<CommitQueue::Item> items = items_of(batch);
    queue.push_batch(items);
    EXPECT_TRUE(items.empty());
    for (Pending* p : batch) held.insert(p->key);
    if (rng() % 3 == 0) {  // a store-and-forward hop pushed during a pass
      Pending* p = keys.make(rng);
      queue.push(p);
      held.insert(p->key);
    }
    // Pop a few, or most of what is held.
    const std::size_t pops = rng() % 5 == 0 ? held.size() - held.size() / 8 : rng() % (n + 2);
    for (std::size_t i = 0; i < pops && !held.empty(); ++i) {
      ASSERT_FALSE(queue.empty());
      const OrderKey expected = *held.begin();
      ASSERT_EQ(queue.top_key(), expected);
      EXPECT_EQ(queue.pop()->key, expected);
      held.erase(held.begin());
    }
  }
  EXPECT_GT(small_batches, 1000);
  EXPECT_GT(large_batches, 300);
  while (!held.empty()) {
    ASSERT_FALSE(queue.empty());
    EXPECT_EQ(queue.pop()->key, *held.begin());
    held.erase(held.begin());
  }
  EXPECT_TRUE(queue.empty());
}

// A lockstep step: every key of a batch ready at the same time, one or a few per source (sorted by counting the
// sources), or many (a node that posts every send at once), among batches that are not (sorted by comparison).
TEST(CommitQueue, BatchesReadyTogetherComeOutInKeyOrder) {
  std::mt19937 rng(5);
  std::deque<Pending> store;
  std::uint64_t seq = 0;
  CommitQueue queue;
  std::multiset<OrderKey> held;
  for (int round = 0; round < 300; ++round) {
    const std::size_t n = 1 + rng() % 200;
    const auto ready = static_cast<Time>(round / 3 + rng() % 2);
    const int kind = static_cast<int>(rng() % 4);
    const bool spread = kind == 0;  // sources up to 8n: too far apart to count
    const bool few_sources = kind == 1;  // four sources: runs of n / 4 keys
    std::vector<CommitQueue::Item> items;
    for (std::size_t i = 0; i < n; ++i) {
      Pending& p = store.emplace_back();
      const auto source = static_cast<int>(spread ? rng() % (8 * n) : few_sources ? rng() % 4 : rng() % (n / 2 + 1));
      p.key = OrderKey{ready, source, seq++, static_cast<std::uint32_t>(rng() % 2)};
      items.push_back({p.key, &p, 0});
      held.insert(p.key);
    }
    std::shuffle(items.begin(), items.end(), rng);
    queue.push_batch(items);
    for (std::size_t pops = rng() % (n + 1); pops > 0; --pops) {
      ASSERT_EQ(queue.pop()->key, *held.begin());
      held.erase(held.begin());
    }
  }
  for (; !held.empty(); held.erase(held.begin())) ASSERT_EQ(queue.pop()->key, *held.begin());
  EXPECT_TRUE(queue.empty());
}

TEST(CommitQueue, ForEachVisitsEverythingHeldAndClearEmptiesIt) {
  std::mt19937 rng(11);
  Keys keys;
  CommitQueue queue;
  std::set<Pending*> pushed;
  for (const std::size_t n : {400, 3, 2, 1, 500, 5}) {  // large, then small ones into the heap, then both again
    std::vector<Pending*> batch;
    for (std::size_t i = 0; i < n; ++i) batch.push_back(keys.make(rng));
    pushed.insert(batch.begin(), batch.end());
    std::vector<CommitQueue::Item> items = items_of(batch);
    queue.push_batch(items);
  }
  std::set<Pending*> seen;
  queue.for_each([&](Pending* p) { EXPECT_TRUE(seen.insert(p).second); });
  EXPECT_EQ(seen, pushed);
  queue.clear();
  EXPECT_TRUE(queue.empty());
}

}  // namespace
}  // namespace hcemu::detail
