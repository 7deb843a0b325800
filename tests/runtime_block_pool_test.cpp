// The block pool alone (runtime/block_pool.hpp), and an arena over it: blocks are aligned, disjoint and writable;
// a freed block is handed out again for its size; once none is in use the pool starts again from its front; an arena
// still tells its own blocks from anything else, whether they came from the pool or not.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "hcemu/errors.hpp"
#include "hcemu/kernels/exchange.hpp"
#include "hcemu/machine.hpp"
#include "runtime/arena.hpp"
#include "runtime/block_pool.hpp"
#include "runtime/requests.hpp"

namespace hcemu::detail {
namespace {

std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

class BlockPoolPages : public ::testing::TestWithParam<bool> {};  // without and with huge pages

TEST_P(BlockPoolPages, BlocksAreAlignedDisjointAndKeepTheirBytes) {
  BlockPool pool(GetParam());
  std::mt19937 rng(3);
  std::map<std::uintptr_t, std::pair<std::size_t, unsigned char>> live;  // start -> (bytes, fill)
  for (int i = 0; i < 300; ++i) {
    const std::size_t bytes = BlockPool::kMinBytes + rng() % (300 * 1024);
    const std::size_t alignment = std::size_t{1} << (rng() % 13);  // 1 .. 4096
    auto* p = static_cast<unsigned char*>(pool.allocate(bytes, alignment));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(address(p) % alignment, 0u);
    const auto fill = static_cast<unsigned char>(i);
    std::memset(p, fill, bytes);
    live.emplace(address(p), std::pair{bytes, fill});
    if (rng() % 3 == 0) {  // free one at random; its size comes back later
      auto it = std::next(live.begin(), static_cast<std::ptrdiff_t>(rng() % live.size()));
      pool.free(reinterpret_cast<void*>(it->first), it->second.first);
      live.erase(it);
    }
  }
  std::uintptr_t end = 0;
  for (const auto& [start, block] : live) {
    EXPECT_GE(start, end) << "blocks overlap";
    end = start + block.first;
    const auto* p = reinterpret_cast<const unsigned char*>(start);
    EXPECT_TRUE(std::all_of(p, p + block.first, [&](unsigned char c) { return c == block.second; }))
        << "a block's bytes changed under it";
  }
}

INSTANTIATE_TEST_SUITE_P(BothPageSizes, BlockPoolPages, ::testing::Bool());

// Huge pages are the host's business: a run's clocks, counts and links are the same with them as without, and the
// data arrives (the exchange checks nothing itself: every received block is compared here), run after run of one
// machine, whose pools are handed out again from their front each time.
TEST(BlockPool, HugePagesChangeNothingARunComputes) {
  MachineConfig config;
  config.d = 6;
  const std::size_t m = 4096;  // blocks of 256 KiB per node: from the pool
  auto run = [&](bool huge_pages, int runs) {
    EmulatorSettings settings;
    settings.huge_pages = huge_pages;
    Machine machine(config, settings);
    RunReport report;
    for (int r = 0; r < runs; ++r) {
      report = machine.run([&](Node& node) {
        const std::size_t n = static_cast<std::size_t>(node.size());
        Buffer<std::byte> send = node.allocate<std::byte>(n * m), recv = node.allocate<std::byte>(n * m);
        for (std::size_t t = 0; t < n; ++t)
          std::memset(send.data() + t * m, static_cast<int>((static_cast<std::size_t>(node.id()) + t) & 255), m);
        kernels::direct_exchange(node, send.span(), recv.span(), m);
        for (std::size_t t = 0; t < n; ++t)
          for (std::size_t b = 0; b < m; b += 512)
            if (recv[t * m + b] != static_cast<std::byte>((t + static_cast<std::size_t>(node.id())) & 255))
              throw Error("node " + std::to_string(node.id()) + ": block from " + std::to_string(t) + " is wrong");
      });
    }
    return report;
  };
  const RunReport small = run(false, 1), huge = run(true, 3);
  EXPECT_EQ(huge.makespan, small.makespan);
  ASSERT_EQ(huge.nodes.size(), small.nodes.size());
  for (std::size_t i = 0; i < small.nodes.size(); ++i) {
    EXPECT_EQ(huge.nodes[i].final_clock, small.nodes[i].final_clock) << "node " << i;
    EXPECT_EQ(huge.nodes[i].messages_received, small.nodes[i].messages_received) << "node " << i;
  }
  EXPECT_EQ(huge.contention_events(), small.contention_events());
}

TEST(BlockPool, AFreedBlockServesTheNextOfItsSize) {
  BlockPool pool;
  void* keep = pool.allocate(64 * 1024, 64);  // so that the pool is never empty of live blocks
  void* a = pool.allocate(100 * 1024, 64);
  pool.free(a, 100 * 1024);
  EXPECT_EQ(pool.allocate(100 * 1024, 64), a);
  void* b = pool.allocate(200 * 1024, 64);
  EXPECT_NE(b, a);
  EXPECT_NE(b, keep);
}

TEST(BlockPool, StartsAgainFromItsFrontOnceNothingIsInUse) {
  BlockPool pool;
  void* first = pool.allocate(64 * 1024, 64);
  void* second = pool.allocate(64 * 1024, 64);
  pool.free(first, 64 * 1024);
  pool.free(second, 64 * 1024);
  // A run's blocks freed at its end: the next run's come from the same pages, whatever their sizes.
  EXPECT_EQ(pool.allocate(300 * 1024, 64), first);
}

TEST(BlockPool, ABlockLargerThanAMappingGetsOneOfItsOwn) {
  BlockPool pool;
  void* small = pool.allocate(64 * 1024, 64);
  const std::size_t huge = (std::size_t{1} << 30) + 12345;
  auto* big = static_cast<unsigned char*>(pool.allocate(huge, 4096));
  ASSERT_NE(big, nullptr);
  big[0] = 1;
  big[huge - 1] = 2;  // both ends are mapped
  EXPECT_EQ(address(big) % 4096, 0u);
  pool.free(big, huge);
  pool.free(small, 64 * 1024);
}

TEST(BlockPool, ArenaTellsItsBlocksApartWhereverTheyCameFrom) {
  BlockPool pool;
  Arena arena(5, std::size_t{1} << 30, &pool);
  void* large = arena.allocate(64 * 1024, 64);           // from the pool (but in sanitizer builds)
  void* aligned = arena.allocate(64 * 1024, 1u << 16);   // an alignment the pool does not take
  void* small = arena.allocate(100, 64);                 // from the general allocator
  EXPECT_EQ(address(aligned) % (1u << 16), 0u);
  EXPECT_EQ(arena.in_use(), 2 * 64 * 1024 + 100u);
  EXPECT_THROW(arena.deallocate(large, 100), UsageError);  // the wrong size
  arena.deallocate(large, 64 * 1024);
  EXPECT_THROW(arena.deallocate(large, 64 * 1024), UsageError);  // twice
  arena.deallocate(small, 100);
  EXPECT_EQ(arena.in_use(), 64 * 1024u);
  arena.reset();  // frees `aligned`
  EXPECT_EQ(arena.in_use(), 0u);
  void* again = arena.allocate(64 * 1024, 64);
  EXPECT_NE(again, nullptr);
}

TEST(BlockPool, RequestTableSlotsFromThePoolStayPutAsItGrows) {
  BlockPool pool;
  RequestTable table(&pool);
  std::vector<Request> requests;
  for (int i = 0; i < 1000; ++i) requests.push_back(table.add(i % 2 == 0 ? Slot::Kind::send : Slot::Kind::recv));
  Slot* first = &table.get(requests[0], 0, "test");
  for (int i = 0; i < 1000; ++i) table.add(Slot::Kind::recv);
  EXPECT_EQ(&table.get(requests[0], 0, "test"), first);
  EXPECT_EQ(address(first) % 64, 0u);
  table.release(RequestAccess::slot(requests[1]));
  EXPECT_THROW(table.get(requests[1], 0, "test"), UsageError);
}

}  // namespace
}  // namespace hcemu::detail
