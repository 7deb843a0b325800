// Johnsson & Ho's (1987) generic primitives (§4, Tables 1, 2 and 4): every node ends with the right data, and the
// virtual-time makespan equals the closed form of hcemu/model/primitives.hpp; where the paper's table is exact, the
// expected time is its "element transfers · t_c + start-ups · τ", counted here by hand (t_c = e·τ for e-byte
// elements, the paper's start-up τ = hcemu's λ, store-and-forward, B_m = the machine's packet).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "hcemu/hcemu.hpp"
#include "hcemu/kernels/exchange.hpp"
#include "hcemu/kernels/primitives.hpp"
#include "hcemu/model/primitives.hpp"
#include "hcemu/model/spanning_trees.hpp"
#include "hcemu/testing/gtest.hpp"
#include "kernel_machines.hpp"

namespace hcemu {
namespace {

using testing::Case;
using testing::CaseResult;
using testing::KernelCheck;
using Data = std::vector<std::byte>;

using test::circuit_machine;
using test::link_bound_machine;

// The paper's elements are 4-byte floats; these tests count in them.
constexpr std::size_t kElement = 4;

// λ = 10 µs, τ = 0.5 µs per byte (t_c = 2 µs per element), store-and-forward, packets of `packet_elements`.
MachineConfig paper_machine(std::size_t packet_elements = 0) {
  MachineConfig c = link_bound_machine(10, 0.5);
  c.packet = packet_elements * kElement;
  return c;
}
// E element transfers and S start-ups on paper_machine().
Time paper_time(double element_transfers, long startups) {
  return from_us(element_transfers * kElement * 0.5) + startups * from_us(10);
}

int root_of(int nodes) { return nodes * 2 / 3; }

// ----- Broadcast checks -------------------------------------------------------------------------------------------

using Broadcast = std::function<void(Node&, std::span<std::byte>, int root)>;

KernelCheck<> broadcast_check(std::size_t m, Broadcast broadcast) {
  KernelCheck check;
  check
      .input([m](const Case& c, int node, std::mt19937_64& rng) {
        Data data = testing::random_bytes(m, rng);
        return node == root_of(c.nodes()) ? data : Data(m);
      })
      .kernel([broadcast](Node& node, std::span<const std::byte> in, Data& out) {
        out.assign(in.begin(), in.end());
        broadcast(node, out, root_of(node.size()));
      })
      .reference([](const Case& c, const std::vector<Data>& in) {
        return std::vector<Data>(static_cast<std::size_t>(c.nodes()), in[static_cast<std::size_t>(root_of(c.nodes()))]);
      })
      .tolerance(testing::Tolerance::exact())
      .no_contention()
      .no_forced_discards();
  return check;
}

Broadcast gray_code(std::size_t chunk) {
  return [chunk](Node& node, std::span<std::byte> data, int root) {
    kernels::gray_code_broadcast(node, data, root, chunk);
  };
}
Broadcast rotated_gray_code() {
  return [](Node& node, std::span<std::byte> data, int root) { kernels::rotated_gray_code_broadcast(node, data, root); };
}
Broadcast pipelined_sbt(std::size_t chunk) {
  return [chunk](Node& node, std::span<std::byte> data, int root) {
    kernels::pipelined_sbt_broadcast(node, data, root, chunk);
  };
}
Broadcast sbnt(std::size_t chunk) {
  return [chunk](Node& node, std::span<std::byte> data, int root) { kernels::sbnt_broadcast(node, data, root, chunk); };
}

Broadcast two_rooted(std::size_t chunk) {
  return [chunk](Node& node, std::span<std::byte> data, int root) {
    kernels::two_rooted_tree_broadcast(node, data, root, chunk);
  };
}

// ----- Spanning trees --------------------------------------------------------------------------------------------

TEST(GrayCode, DimensionSequenceOfAThreeCubeIsZeroOneZeroTwoZeroOneZero) {
  // Johnsson & Ho §4.2.1: "For a 3-cube, the sequence of dimensions is (0,1,0,2,0,1,0)".
  std::vector<int> dims;
  for (std::uint32_t i = 0; i < 7; ++i) dims.push_back(model::gray_transition(i, 3));
  EXPECT_EQ(dims, (std::vector<int>{0, 1, 0, 2, 0, 1, 0}));
  EXPECT_EQ(model::gray_transition(7, 3), 2);  // the wrap-around G(7) = 100 -> G(0) = 000
  for (std::uint32_t i = 0; i < 256; ++i) EXPECT_EQ(model::inverse_gray(model::gray(i)), i);
}

TEST(SpanningBalancedTree, FiveCubeHasTheChildrenOfFigureFour) {
  // Johnsson & Ho §4.1.5, Figure 4 (the SBnT of a 5-cube), by its definition: a few nodes and their children.
  using V = std::vector<std::uint32_t>;
  EXPECT_EQ(model::sbnt_children(0b00000, 5), (V{0b00001, 0b00010, 0b00100, 0b01000, 0b10000}));
  EXPECT_EQ(model::sbnt_children(0b00001, 5), (V{0b00101, 0b00011}));
  EXPECT_EQ(model::sbnt_children(0b01100, 5), (V{0b01101, 0b11100}));
  EXPECT_EQ(model::sbnt_children(0b11000, 5), (V{0b11010, 0b11001}));
  EXPECT_TRUE(model::sbnt_children(0b11111, 5).empty());
  EXPECT_EQ(model::sbnt_parent(0b11111, 5), 0b01111u);
}

TEST(SpanningBalancedTree, SplitsTheNodesIntoNearlyEqualSubtreesAtShortestDepth) {
  // "The node set of the cube is divided into n approximately equal sets, with each such set forming a subtree of
  // the source node". The sizes of the root's subtrees for this definition's tie-breaking:
  const std::vector<std::vector<std::size_t>> want = {
      {3, 2, 2}, {5, 4, 3, 3}, {7, 6, 6, 6, 6}, {13, 12, 11, 9, 9, 9}, {19, 18, 18, 18, 18, 18, 18},
      {35, 34, 33, 33, 30, 30, 30, 30}};
  for (int n = 3; n <= 8; ++n) {
    const auto sizes = model::sbnt_subtree_sizes(n);
    std::vector<std::size_t> root_children;
    for (int m = 0; m < n; ++m) root_children.push_back(sizes[std::size_t{1} << m]);
    EXPECT_EQ(root_children, want[static_cast<std::size_t>(n - 3)]) << "n = " << n;
    for (std::uint32_t r = 1; r < (1u << n); ++r) {
      const std::uint32_t p = model::sbnt_parent(r, n);
      EXPECT_EQ(std::popcount(r), std::popcount(p) + 1) << "n = " << n << " r = " << r;
      const auto kids = model::sbnt_children(p, n);
      EXPECT_NE(std::find(kids.begin(), kids.end(), r), kids.end()) << "n = " << n << " r = " << r;
    }
  }
}

TEST(SpanningBalancedTree, BusiestPortCarriesTheLargestSubtreeInAll) {
  // All-to-all broadcast along N translated SBnTs: the busiest port's blocks per step; they add up to the largest
  // subtree, where the paper's perfectly balanced count would be C(n,s)/n per step and (N - 1)/n in all.
  const std::vector<std::vector<std::size_t>> want = {
      {1, 1, 1}, {1, 2, 1, 1}, {1, 2, 2, 1, 1}, {1, 3, 4, 3, 1, 1}, {1, 3, 5, 5, 3, 1, 1}, {1, 4, 7, 10, 7, 4, 1, 1}};
  for (int n = 3; n <= 8; ++n) {
    std::vector<std::size_t> busiest;
    for (const auto& step : model::sbnt_broadcast_loads(n)) busiest.push_back(*std::max_element(step.begin(), step.end()));
    EXPECT_EQ(busiest, want[static_cast<std::size_t>(n - 3)]) << "n = " << n;
  }
  // Personalized: the subtree sizes below each port; n = 5 carries 7 + 6 + 4 + 2 + 1 = 20 blocks (the paper: NM/2 = 16).
  std::vector<std::size_t> busiest;
  for (const auto& step : model::sbnt_personalized_loads(5)) busiest.push_back(*std::max_element(step.begin(), step.end()));
  EXPECT_EQ(busiest, (std::vector<std::size_t>{7, 6, 4, 2, 1}));
}

TEST(TwoRootedTree, IsTwoCompleteBinaryTreesUnderAdjacentRootsSpanningTheCube) {
  // Johnsson & Ho §4.1.6: roots u = 0 and v adjacent, each above a complete binary tree of 2^(n-1) - 1 nodes, every
  // tree edge a cube edge. Hung from u: u's children are v (first) and u's own child, v has one child, every other
  // inner node two, and the leaves lie n - 1 links below u on u's side and n on v's.
  for (int n = 1; n <= 12; ++n) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const std::uint32_t nodes = std::uint32_t{1} << n, v = model::two_rooted_other_root(n);
    EXPECT_EQ(std::popcount(v), 1);
    std::vector<int> depth(nodes, 0);
    std::vector<std::uint32_t> side(nodes, 0);  // the root's child whose subtree holds the node
    std::vector<std::vector<std::uint32_t>> children(nodes);
    for (std::uint32_t r = 0; r < nodes; ++r) children[r] = model::two_rooted_children(r, n);
    std::vector<std::uint32_t> order{0};  // breadth first from u: every node reached once
    for (std::size_t next = 0; next < order.size(); ++next)
      for (std::uint32_t c : children[order[next]]) {
        ASSERT_EQ(std::popcount(c ^ order[next]), 1) << c << " is not a neighbour of " << order[next];
        ASSERT_EQ(model::two_rooted_parent(c, n), order[next]);
        depth[c] = depth[order[next]] + 1;
        side[c] = order[next] == 0 ? c : side[order[next]];
        order.push_back(c);
      }
    ASSERT_EQ(order.size(), nodes);
    ASSERT_EQ(children[0].size(), n == 1 ? 1u : 2u);
    EXPECT_EQ(children[0].front(), v);
    for (std::uint32_t r = 1; r < nodes; ++r) {
      const std::size_t want = r == v ? (n == 1 ? 0u : 1u) : children[r].empty() ? 0u : 2u;
      EXPECT_EQ(children[r].size(), want) << "node " << r;
      if (children[r].empty()) {
        EXPECT_EQ(depth[r], side[r] == v ? n : n - 1) << "leaf " << r;
      }
    }
  }
}

// ----- One-to-all broadcast (Table 1) ------------------------------------------------------------------------------

HCEMU_KERNEL_CHECKS(GrayCodeBroadcast, MatchesTableOneForThreeAndFiveCubes) {
  // GC(1,1): (M + (N - 2)B) t_c + (⌈M/B⌉ + N - 2) τ. n = 3, M = 24, B = 8: 72 and 9; n = 5, M = 1024, B = 64:
  // 2944 and 46.
  for (auto [d, elements, b, transfers, startups] :
       {std::tuple{3, std::size_t{24}, std::size_t{8}, 72.0, 9L}, {5, std::size_t{1024}, std::size_t{64}, 2944.0, 46L}}) {
    auto check = broadcast_check(elements * kElement, gray_code(b * kElement));
    check.dims({d}).ports({"one", "all"}).base(paper_machine()).predict([=](const MachineConfig&) -> std::optional<Time> {
      return paper_time(transfers, startups);
    });
    checks.add(check);
  }
}

HCEMU_KERNEL_CHECKS(GrayCodeBroadcast, ShorterLastChunkAndMachinePacketsFollowTheClosedForm) {
  for (auto [m, chunk] : {std::pair{std::size_t{1001}, std::size_t{64}},
                          {std::size_t{0}, std::size_t{16}},
                          {std::size_t{300}, std::size_t{0}},
                          {std::size_t{7}, std::size_t{1}}}) {
    MachineConfig c = circuit_machine();
    c.packet = 48;
    auto check = broadcast_check(m, gray_code(chunk));
    check.dims({0, 1, 3, 6}).ports({"one", "k:2", "all"}).base(c).predict([m, chunk](const MachineConfig& cfg) {
      return model::gray_code_broadcast_time(cfg, m, chunk);
    });
    checks.add("m = " + std::to_string(m) + ", chunk = " + std::to_string(chunk), check);
  }
}

HCEMU_KERNEL_CHECKS(TwoRootedTreeBroadcast, SendsEveryChunkTwicePerLevelOnOnePortAndOncePerLevelOnAll) {
  // With B | M, counted by hand. One port: 2(M + (n - 2)B) t_c + 2(⌈M/B⌉ + n - 2) τ: n = 3, M = 24, B = 8: 64 and 8;
  // n = 5, M = 1024, B = 64: 2432 and 38. All ports, as SBT-b(n,1): (M + (n - 1)B) t_c + (⌈M/B⌉ + n - 1) τ: 40 and
  // 5; 1280 and 20.
  for (auto [d, elements, b, one_transfers, one_startups, all_transfers, all_startups] :
       {std::tuple{3, std::size_t{24}, std::size_t{8}, 64.0, 8L, 40.0, 5L},
        {5, std::size_t{1024}, std::size_t{64}, 2432.0, 38L, 1280.0, 20L}}) {
    auto check = broadcast_check(elements * kElement, two_rooted(b * kElement));
    check.dims({d}).ports({"one", "all"}).base(paper_machine()).predict([=](const MachineConfig& cfg) -> std::optional<Time> {
      return cfg.ports.kind == Ports::Kind::one ? paper_time(one_transfers, one_startups)
                                                : paper_time(all_transfers, all_startups);
    });
    checks.add("n = " + std::to_string(d), check);
  }
}

HCEMU_KERNEL_CHECKS(TwoRootedTreeBroadcast, ShorterLastChunkAndMachinePacketsFollowTheClosedForm) {
  for (auto [m, chunk] : {std::pair{std::size_t{1001}, std::size_t{64}},
                          {std::size_t{0}, std::size_t{16}},
                          {std::size_t{300}, std::size_t{0}},
                          {std::size_t{7}, std::size_t{1}},
                          {std::size_t{130}, std::size_t{64}}}) {
    MachineConfig c = circuit_machine();
    c.packet = 48;
    auto check = broadcast_check(m, two_rooted(chunk));
    check.dims(0, 7).ports({"one", "k:1", "k:2", "all"}).base(c).predict([m, chunk](const MachineConfig& cfg) {
      return model::two_rooted_tree_broadcast_time(cfg, m, chunk);
    });
    checks.add("m = " + std::to_string(m) + ", chunk = " + std::to_string(chunk), check);
  }
}

HCEMU_KERNEL_CHECKS(TwoRootedTreeBroadcast, RunsWithoutAClosedFormUnderHalfDuplexOrAPortOverlap) {
  MachineConfig overlapping = circuit_machine();
  overlapping.port_overlap = 0.2;
  auto check = broadcast_check(200, two_rooted(30));
  check.dims({2, 4}).ports({"one"}).base(overlapping);
  checks.add("port overlap", check);
  auto half = broadcast_check(200, two_rooted(30));
  half.dims({0, 2, 4}).ports({"half"}).base(circuit_machine());
  checks.add("half duplex", half);
}

TEST(TwoRootedTreeBroadcast, HasNoClosedFormUnderHalfDuplexOrAOnePortOverlap) {
  MachineConfig c = circuit_machine();
  c.d = 4;
  c.ports = Ports::parse("half");
  EXPECT_FALSE(model::two_rooted_tree_broadcast_time(c, 200, 30).has_value());
  c.ports = Ports::parse("one");
  c.port_overlap = 0.2;
  EXPECT_FALSE(model::two_rooted_tree_broadcast_time(c, 200, 30).has_value());
  c.ports = Ports::parse("all");
  EXPECT_TRUE(model::two_rooted_tree_broadcast_time(c, 200, 30).has_value());
}

HCEMU_KERNEL_CHECKS(RotatedGrayCodeBroadcast, TakesNMinusOnePartTimes) {
  // GC(n,1): (M/n)(N - 1) t_c + ⌈M/(n B_m)⌉(N - 1) τ. n = 3, M = 24, B_m = 8: 56 and 7.
  auto hand = broadcast_check(24 * kElement, rotated_gray_code());
  hand.dims({3}).ports({"all"}).base(paper_machine(8)).predict([](const MachineConfig&) -> std::optional<Time> {
    return paper_time(56, 7);
  });
  checks.add("by hand", hand);
  for (std::size_t m : {std::size_t{0}, std::size_t{1}, std::size_t{1001}}) {
    auto check = broadcast_check(m, rotated_gray_code());
    check.dims(0, 6).ports({"all"}).base(circuit_machine()).predict([m](const MachineConfig& cfg) {
      return model::rotated_gray_code_broadcast_time(cfg, m);
    });
    checks.add("m = " + std::to_string(m), check);
  }
}

HCEMU_KERNEL_CHECKS(NrsbtOnePortBroadcast, MatchesTableOneForThreeAndFiveCubes) {
  // nRSBT-b(1,1): Mn t_c + (2Σ_{i<n} ⌈Mi/(nB_m)⌉ + ⌈M/B_m⌉) τ. n = 3, M = 24, B_m = 8: 72 and 9; n = 5, M = 1024,
  // B_m = 64: 5120 and 84.
  for (auto [d, elements, packet, transfers, startups] :
       {std::tuple{3, std::size_t{24}, std::size_t{8}, 72.0, 9L}, {5, std::size_t{1024}, std::size_t{64}, 5120.0, 84L}}) {
    auto check = broadcast_check(elements * kElement, [](Node& node, std::span<std::byte> data, int root) {
      kernels::nrsbt_one_port_broadcast(node, data, root);
    });
    check.dims({d}).ports({"one"}).base(paper_machine(packet)).predict([=](const MachineConfig&) -> std::optional<Time> {
      return paper_time(transfers, startups);
    });
    checks.add(check);
  }
}

HCEMU_KERNEL_CHECKS(NrsbtOnePortBroadcast, EveryPortModelTakesTheRootsSendsBackToBack) {
  for (std::size_t m : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{1001}}) {
    MachineConfig c = circuit_machine();
    c.packet = 48;
    auto check = broadcast_check(m, [](Node& node, std::span<std::byte> data, int root) {
      kernels::nrsbt_one_port_broadcast(node, data, root);
    });
    check.dims(0, 7).ports({"one", "half", "k:2", "all"}).base(c).predict([m](const MachineConfig& cfg) {
      return model::nrsbt_one_port_broadcast_time(cfg, m);
    });
    checks.add("m = " + std::to_string(m), check);
  }
}

HCEMU_KERNEL_CHECKS(PipelinedSbtBroadcast, MatchesTableOneOnAllPort) {
  // SBT-b(n,1): (M + (n - 1)B) t_c + (⌈M/B⌉ + n - 1) τ. n = 3, M = 24, B = 8: 40 and 5; n = 5, M = 1024, B = 64:
  // 1280 and 20.
  for (auto [d, elements, b, transfers, startups] :
       {std::tuple{3, std::size_t{24}, std::size_t{8}, 40.0, 5L}, {5, std::size_t{1024}, std::size_t{64}, 1280.0, 20L}}) {
    auto check = broadcast_check(elements * kElement, pipelined_sbt(b * kElement));
    check.dims({d}).ports({"all"}).base(paper_machine()).predict([=](const MachineConfig&) -> std::optional<Time> {
      return paper_time(transfers, startups);
    });
    checks.add(check);
  }
}

HCEMU_KERNEL_CHECKS(PipelinedSbtBroadcast, EveryDimensionAndChunk) {
  for (auto [m, chunk] : {std::pair{std::size_t{1001}, std::size_t{100}}, {std::size_t{0}, std::size_t{4}},
                          {std::size_t{64}, std::size_t{0}}}) {
    auto check = broadcast_check(m, pipelined_sbt(chunk));
    check.dims(0, 7).ports({"all"}).base(circuit_machine()).predict([m, chunk](const MachineConfig& cfg) {
      return model::pipelined_sbt_broadcast_time(cfg, m, chunk);
    });
    checks.add("m = " + std::to_string(m) + ", chunk = " + std::to_string(chunk), check);
  }
}

HCEMU_KERNEL_CHECKS(SbntBroadcast, TakesThePipelineTimeOfAnNLevelTree) {
  // Its paths are shortest paths, n levels: the same closed form as SBT-b(n,1); n = 3, M = 24, B = 8: 40 and 5.
  auto hand = broadcast_check(24 * kElement, sbnt(8 * kElement));
  hand.dims({3}).ports({"all"}).base(paper_machine()).predict([](const MachineConfig&) -> std::optional<Time> {
    return paper_time(40, 5);
  });
  checks.add("table one", hand);
  auto check = broadcast_check(777, sbnt(50));
  check.dims(0, 7).ports({"all"}).base(circuit_machine()).predict([](const MachineConfig& cfg) {
    return model::sbnt_broadcast_time(cfg, 777, 50);
  });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(NrsbtBroadcast, IsBroadcastTwoAndMatchesTableOne) {
  // nRSBT-b(n,1): M t_c + ⌈M/(n B_m)⌉ n τ. n = 3, M = 24, B_m = 8: 24 and 3.
  auto check = broadcast_check(24 * kElement, [](Node& node, std::span<std::byte> data, int root) {
    kernels::nrsbt_broadcast(node, data, root);
  });
  check.dims({3}).ports({"all"}).base(paper_machine(8)).predict([](const MachineConfig&) -> std::optional<Time> {
    return paper_time(24, 3);
  });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(PipelinedBroadcasts, OnePortRunsWithoutAClosedForm) {
  for (const auto& [name, b] : std::vector<std::pair<std::string, Broadcast>>{
           {"rotated gray code", rotated_gray_code()}, {"pipelined sbt", pipelined_sbt(30)}, {"sbnt", sbnt(30)}}) {
    auto check = broadcast_check(200, b);
    check.dims({0, 2, 4}).ports({"one", "half"}).base(circuit_machine());
    checks.add(name, check);
  }
}

TEST(PipelinedBroadcasts, OnePortHasNoClosedForm) {
  EXPECT_FALSE(model::pipelined_sbt_broadcast_time(circuit_machine(), 200, 30).has_value());
}

// ----- All-to-all broadcast (Table 2) ------------------------------------------------------------------------------

using Allgather = std::function<void(Node&, std::span<std::byte>, std::size_t m)>;

KernelCheck<> allgather_check(std::size_t m, Allgather allgather) {
  KernelCheck check;
  check.input([m](const Case&, int, std::mt19937_64& rng) { return testing::random_bytes(m, rng); })
      .kernel([m, allgather](Node& node, std::span<const std::byte> in, Data& out) {
        out.assign(static_cast<std::size_t>(node.size()) * m, std::byte{0});
        if (m > 0) std::memcpy(out.data() + static_cast<std::size_t>(node.id()) * m, in.data(), m);
        allgather(node, out, m);
      })
      .reference([](const Case& c, const std::vector<Data>& in) {
        Data all;
        for (const Data& block : in) all.insert(all.end(), block.begin(), block.end());
        return std::vector<Data>(static_cast<std::size_t>(c.nodes()), all);
      })
      .tolerance(testing::Tolerance::exact())
      .no_contention()
      .no_forced_discards();
  return check;
}

Allgather cra() { return [](Node& n, std::span<std::byte> all, std::size_t m) { kernels::cra_allgather(n, all, m); }; }
Allgather gcea() { return [](Node& n, std::span<std::byte> all, std::size_t m) { kernels::gcea_allgather(n, all, m); }; }
Allgather rotated_gcea() {
  return [](Node& n, std::span<std::byte> all, std::size_t m) { kernels::rotated_gcea_allgather(n, all, m); };
}
Allgather sbnt_all() {
  return [](Node& n, std::span<std::byte> all, std::size_t m) { kernels::sbnt_allgather(n, all, m); };
}

HCEMU_KERNEL_CHECKS(CyclicRotationAllgather, MatchesTableTwo) {
  // CRA(1,N) = GCEA(1,N): (N - 1)M t_c + ⌈M/B_m⌉(N - 1) τ. n = 5, M = 32: 992 and 31 with B_m >= M, 992 and 62
  // with B_m = 16.
  for (const auto& [name, a] : std::vector<std::pair<std::string, Allgather>>{{"cra", cra()}, {"gcea", gcea()}}) {
    for (auto [packet, startups] : {std::pair{std::size_t{0}, 31L}, {std::size_t{16}, 62L}}) {
      auto check = allgather_check(32 * kElement, a);
      check.dims({5}).ports({"one", "all"}).base(paper_machine(packet)).predict([startups](const MachineConfig&) -> std::optional<Time> {
        return paper_time(992, startups);
      });
      checks.add(name + " packet = " + std::to_string(packet), check);
    }
  }
}

HCEMU_KERNEL_CHECKS(CyclicRotationAllgather, EveryPortModelTakesNMinusOnePairwiseSteps) {
  for (const auto& [name, a] : std::vector<std::pair<std::string, Allgather>>{{"cra", cra()}, {"gcea", gcea()}}) {
    for (std::size_t m : {std::size_t{0}, std::size_t{1}, std::size_t{333}}) {
      auto check = allgather_check(m, a);
      check.dims({0, 1, 3, 6}).ports({"one", "half", "all"}).base(circuit_machine()).predict([m](const MachineConfig& cfg) -> std::optional<Time> {
        return model::cra_allgather_time(cfg, m);
      });
      checks.add(name + " m = " + std::to_string(m), check);
    }
  }
}

HCEMU_KERNEL_CHECKS(CyclicRotationAllgather, UsesOnlyTheLinksOfOneGrayCodeCircuit) {
  // A node always sends to the same neighbour: N directed links in all, one out of and one into every node.
  auto check = allgather_check(64, cra());
  check.dims({2, 3, 5}).ports({"one"}).base(circuit_machine()).check([](const CaseResult& r) -> std::string {
    const Case& c = r.run_case;
    if (r.report.links.size() != static_cast<std::size_t>(c.nodes()))
      return std::to_string(r.report.links.size()) + " links used, not N";
    std::vector<int> into(static_cast<std::size_t>(c.nodes()), 0);
    for (const LinkStats& l : r.report.links) ++into[static_cast<std::size_t>(l.to())];
    for (std::size_t v = 0; v < into.size(); ++v)
      if (into[v] != 1) return "node " + std::to_string(v) + " has " + std::to_string(into[v]) + " links into it";
    return "";
  });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(RotatedGceaAllgather, MatchesTableTwoOnAllPort) {
  // GCEA(n,N): (1/n)(N - 1)M t_c + ⌈M/(n B_m)⌉(N - 1) τ. n = 5, M = 40: 248, and 31 start-ups with B_m = 64,
  // 62 with B_m = 4 (M/n = 8 elements in 2 packets).
  for (auto [packet, startups] : {std::pair{std::size_t{64}, 31L}, {std::size_t{4}, 62L}}) {
    auto check = allgather_check(40 * kElement, rotated_gcea());
    check.dims({5}).ports({"all"}).base(paper_machine(packet)).predict([startups](const MachineConfig&) -> std::optional<Time> {
      return paper_time(248, startups);
    });
    checks.add("packet = " + std::to_string(packet), check);
  }
  for (std::size_t m : {std::size_t{0}, std::size_t{7}, std::size_t{1001}}) {
    auto check = allgather_check(m, rotated_gcea());
    check.dims({0, 1, 3, 7}).ports({"all"}).base(circuit_machine()).predict([m](const MachineConfig& cfg) {
      return model::rotated_gcea_allgather_time(cfg, m);
    });
    checks.add("m = " + std::to_string(m), check);
  }
}

HCEMU_KERNEL_CHECKS(RotatedCraAllgather, IsCorrectButSlowerThanRotatedGcea) {
  // The paper: the n rotated circuits "are not edge-disjoint, and the load non-uniform" (some links carry n - 1
  // parts a step), where GCEA(n,N)'s load "is even, and minimal". No closed form; the data must still arrive.
  auto check = allgather_check(600, [](Node& n, std::span<std::byte> all, std::size_t m) {
    kernels::rotated_cra_allgather(n, all, m);
  });
  check.dims(0, 6).ports({"all", "one"}).base(circuit_machine());
  check.check([](const CaseResult& r) -> std::string {
    const Case& c = r.run_case;
    if (c.ports != "all" || c.d < 3 || r.report.makespan > *model::rotated_gcea_allgather_time(c.config, 600))
      return "";
    return "not slower than GCEA(n,N)'s " + std::to_string(*model::rotated_gcea_allgather_time(c.config, 600)) + " ps";
  });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(SbntAllgather, TakesTheBusiestPortOfEveryStep) {
  // n = 5, M = 32, B_m >= the largest message: the busiest ports carry 1, 2, 2, 1, 1 blocks: 7·32 = 224 element
  // transfers and 5 start-ups (the paper's perfectly balanced count: 198.4 and 5). With B_m = 32: messages of 2
  // blocks take 2 packets, 7 start-ups.
  for (auto [packet, startups] : {std::pair{std::size_t{0}, 5L}, {std::size_t{32}, 7L}}) {
    auto check = allgather_check(32 * kElement, sbnt_all());
    check.dims({5}).ports({"all"}).base(paper_machine(packet)).predict([startups](const MachineConfig&) -> std::optional<Time> {
      return paper_time(224, startups);
    });
    checks.add("packet = " + std::to_string(packet), check);
  }
  for (std::size_t m : {std::size_t{0}, std::size_t{5}, std::size_t{256}}) {
    MachineConfig c = circuit_machine();
    c.rho = 0.002;
    auto check = allgather_check(m, sbnt_all());
    check.dims(0, 7).ports({"all"}).base(c).predict([m](const MachineConfig& cfg) {
      return model::sbnt_allgather_time(cfg, m, cfg.d);
    });
    checks.add("m = " + std::to_string(m), check);
  }
}

HCEMU_KERNEL_CHECKS(PipelinedSbtAllgather, MatchesTableTwoOnAllPort) {
  // SBT-b(n,N): (1/2)NM element transfers, Σ_i ⌈C(n-1,i)M/B_m⌉ start-ups. n = 3, M = 4, B_m >= every message: 16 and
  // 3; n = 5, M = 32: 512 and 5, with B_m = 64: 1 + 2 + 3 + 2 + 1 = 9, with B_m = 16: 2 + 8 + 12 + 8 + 2 = 32.
  for (auto [d, elements, packet, transfers, startups] :
       {std::tuple{3, std::size_t{4}, std::size_t{0}, 16.0, 3L}, {5, std::size_t{32}, std::size_t{0}, 512.0, 5L},
        {5, std::size_t{32}, std::size_t{64}, 512.0, 9L}, {5, std::size_t{32}, std::size_t{16}, 512.0, 32L}}) {
    auto check = allgather_check(elements * kElement, [](Node& n, std::span<std::byte> all, std::size_t m) {
      kernels::pipelined_sbt_allgather(n, all, m);
    });
    check.dims({d}).ports({"all"}).base(paper_machine(packet)).predict([=](const MachineConfig&) -> std::optional<Time> {
      return paper_time(transfers, startups);
    });
    checks.add("M = " + std::to_string(elements) + ", packet = " + std::to_string(packet), check);
  }
  for (std::size_t m : {std::size_t{0}, std::size_t{5}, std::size_t{256}}) {
    MachineConfig c = circuit_machine();
    c.rho = 0.002;
    auto check = allgather_check(m, [](Node& n, std::span<std::byte> all, std::size_t bytes) {
      kernels::pipelined_sbt_allgather(n, all, bytes);
    });
    check.dims(0, 7).ports({"all"}).base(c).predict([m](const MachineConfig& cfg) {
      return model::pipelined_sbt_allgather_time(cfg, m);
    });
    checks.add("m = " + std::to_string(m), check);
  }
}

HCEMU_KERNEL_CHECKS(OnePortTreeAllgathers, MatchTableTwosMinimumWhereEveryStepFitsAPacket) {
  // nRSBT-b(1,N): (N - 1)M element transfers and 2n - 1 start-ups; n = 4, M = 32: 480 and 7. SBnT-b(1,N) by the exact
  // tree: the same (N - 1)M, n = 5, M = 32: 992, but 2n - 2 = 8 start-ups, since no SBnT edge falls in the last step
  // (the paper counts 2n - 1).
  auto nrsbt = allgather_check(32 * kElement, [](Node& n, std::span<std::byte> all, std::size_t m) {
    kernels::nrsbt_one_port_allgather(n, all, m);
  });
  nrsbt.dims({4}).ports({"one"}).base(paper_machine()).predict([](const MachineConfig&) -> std::optional<Time> {
    return paper_time(480, 7);
  });
  checks.add("nRSBT", nrsbt);
  auto sbnt = allgather_check(32 * kElement, [](Node& n, std::span<std::byte> all, std::size_t m) {
    kernels::sbnt_one_port_allgather(n, all, m);
  });
  sbnt.dims({5}).ports({"one"}).base(paper_machine()).predict([](const MachineConfig&) -> std::optional<Time> {
    return paper_time(992, 8);
  });
  checks.add("SBnT", sbnt);
}

HCEMU_KERNEL_CHECKS(OnePortTreeAllgathers, EveryPortModelTakesOneExchangeAStep) {
  using Time_of = Time (*)(const MachineConfig&, std::size_t);
  for (auto [name, kernel, time] :
       {std::tuple{"sbnt", &kernels::sbnt_one_port_allgather, Time_of{&model::sbnt_one_port_allgather_time}},
        {"nrsbt", &kernels::nrsbt_one_port_allgather, Time_of{&model::nrsbt_one_port_allgather_time}}})
    for (std::size_t m : {std::size_t{0}, std::size_t{5}, std::size_t{101}}) {
      MachineConfig c = circuit_machine();
      c.rho = 0.002;
      c.packet = 48;
      auto check = allgather_check(m, [kernel](Node& n, std::span<std::byte> all, std::size_t bytes) {
        kernel(n, all, bytes);
      });
      check.dims(0, 7).ports({"one", "half", "k:2", "all"}).base(c).predict([m, time](const MachineConfig& cfg) {
        return time(cfg, m);
      });
      checks.add(std::string(name) + ", m = " + std::to_string(m), check);
    }
}

HCEMU_KERNEL_CHECKS(SbntAllgather, RunsOnOtherPortModelsWithoutAClosedForm) {
  auto check = allgather_check(40, sbnt_all());
  check.dims(0, 5).ports({"one", "half"}).base(circuit_machine());
  checks.add(check);
}

TEST(SbntAllgather, OtherPortModelsHaveNoClosedForm) {
  EXPECT_FALSE(model::sbnt_allgather_time(circuit_machine(), 40, 3).has_value());
}

HCEMU_KERNEL_CHECKS(NrsbtAllgather, IsTheCompleteBroadcastAndMatchesTableTwo) {
  // nRSBT-b(n,N): (1/n)(N - 1)M t_c + Σ_{t<n} ⌈2^t M/(n B_m)⌉ τ (the paper's table repeats the SBnT row here; this
  // is the count of the pseudo-code completed). n = 3, M = 24, B_m = 16: 56 element transfers, 1 + 1 + 2 start-ups.
  auto check = allgather_check(24 * kElement, [](Node& n, std::span<std::byte> all, std::size_t m) {
    kernels::nrsbt_allgather(n, all, m);
  });
  check.dims({3}).ports({"all"}).base(paper_machine(16)).predict([](const MachineConfig&) -> std::optional<Time> {
    return paper_time(56, 4);
  });
  checks.add(check);
}

HCEMU_KERNEL_CHECKS(SubcubeAllgathers, GatherWithinEverySubcubeAtOnce) {
  // Inside the subcube of dimensions [2, 5) of a 6-cube: 8 nodes per subcube, blocks indexed by the coordinate.
  const std::size_t m = 96;
  const kernels::Subcube cube{2, 3};
  using Fn = std::function<void(Node&, std::span<std::byte>, std::size_t)>;
  for (auto [name, fn, time] :
       std::vector<std::tuple<std::string, Fn, std::function<std::optional<Time>(const MachineConfig&)>>>{
           {"gcea", [cube](Node&n, std::span<std::byte> a, std::size_t mm) { kernels::gcea_allgather(n, a, mm, cube); },
            [m](const MachineConfig&c) -> std::optional<Time> { return model::gcea_allgather_time(c, m, 3); }},
           {"sbt", [cube](Node&n, std::span<std::byte> a, std::size_t mm) { kernels::sbt_allgather(n, a, mm, cube); },
            [m](const MachineConfig&c) -> std::optional<Time> { return model::sbt_allgather_time(c, m, 3); }},
           {"sbnt", [cube](Node&n, std::span<std::byte> a, std::size_t mm) { kernels::sbnt_allgather(n, a, mm, cube); },
            [m](const MachineConfig&c) { return model::sbnt_allgather_time(c, m, 3); }}}) {
    KernelCheck check;
    check.input([](const Case&, int, std::mt19937_64& rng) { return testing::random_bytes(m, rng); })
        .kernel([fn = fn, m](Node& node, std::span<const std::byte> in, Data& out) {
          out.assign(8 * m, std::byte{0});
          const auto coordinate = static_cast<std::size_t>((node.id() >> 2) & 7);
          std::memcpy(out.data() + coordinate * m, in.data(), m);
          fn(node, out, m);
        })
        .reference([m](const Case& c, const std::vector<Data>& in) {
          std::vector<Data> out;
          for (int x = 0; x < c.nodes(); ++x) {
            Data all;
            for (int k = 0; k < 8; ++k) {
              const Data& b = in[static_cast<std::size_t>((x & ~(7 << 2)) | (k << 2))];
              all.insert(all.end(), b.begin(), b.end());
            }
            out.push_back(all);
          }
          return out;
        })
        .predict(time)
        .tolerance(testing::Tolerance::exact())
        .no_contention()
        .dims({6})
        .ports({"all"})
        .base(circuit_machine());
    checks.add(name, check);
  }
}

// ----- All-to-all personalized (Table 4) ---------------------------------------------------------------------------

KernelCheck<> exchange_check(std::size_t m) {
  KernelCheck check;
  check
      .input([m](const Case& c, int, std::mt19937_64& rng) {
        return testing::random_bytes(m * static_cast<std::size_t>(c.nodes()), rng);
      })
      .kernel([m](Node& node, std::span<const std::byte> in, Data& out) {
        out.assign(in.size(), std::byte{0});
        kernels::sbnt_exchange(node, in, out, m);
      })
      .reference([m](const Case& c, const std::vector<Data>& in) {
        std::vector<Data> out(static_cast<std::size_t>(c.nodes()), Data(m * static_cast<std::size_t>(c.nodes())));
        for (std::size_t s = 0; s < out.size() && m > 0; ++s)  // m = 0: empty blocks, no pointer to copy from
          for (std::size_t t = 0; t < out.size(); ++t)
            std::memcpy(out[t].data() + s * m, in[s].data() + t * m, m);
        return out;
      })
      .tolerance(testing::Tolerance::exact())
      .no_contention()
      .no_forced_discards();
  return check;
}

HCEMU_KERNEL_CHECKS(SbntExchange, TakesTheBusiestPortOfEveryStep) {
  // n = 5, M = 8: the busiest ports carry 7, 6, 4, 2, 1 blocks, 20·8 = 160 element transfers and 5 start-ups (the
  // paper's NM/2 = 128 counts perfectly balanced subtrees).
  auto hand = exchange_check(8 * kElement);
  hand.dims({5}).ports({"all"}).base(paper_machine()).predict([](const MachineConfig&) -> std::optional<Time> {
    return paper_time(160, 5);
  });
  checks.add("by hand", hand);
  MachineConfig c = circuit_machine();
  c.rho = 0.003;
  c.packet = 100;
  for (std::size_t m : {std::size_t{0}, std::size_t{3}, std::size_t{64}}) {
    auto check = exchange_check(m);
    check.dims(0, 6).ports({"all"}).base(c).predict([m](const MachineConfig& cfg) { return model::sbnt_exchange_time(cfg, m); });
    checks.add("m = " + std::to_string(m), check);
  }
}

HCEMU_KERNEL_CHECKS(SbntExchange, RunsOnOnePortWithoutAClosedForm) {
  auto check = exchange_check(16);
  check.dims(0, 5).ports({"one", "half"}).base(circuit_machine());
  checks.add(check);
}

// ----- FORCED --------------------------------------------------------------------------------------------------------

HCEMU_KERNEL_CHECKS(JohnssonHoPrimitives, PostEveryReceiveBeforeItsMessageArrivesUnderForced) {
  MachineConfig forced = circuit_machine();
  forced.protocol = Protocol::forced;
  for (const auto& [name, b] :
       std::vector<std::pair<std::string, Broadcast>>{{"gray code", gray_code(40)},
                                                      {"rotated gray code", rotated_gray_code()},
                                                      {"pipelined sbt", pipelined_sbt(40)},
                                                      {"sbnt", sbnt(40)},
                                                      {"two-rooted tree", two_rooted(40)}}) {
    auto check = broadcast_check(257, b);
    check.dims({0, 2, 4}).ports({"one", "all"}).base(forced);
    checks.add(name, check);
  }
  for (const auto& [name, a] : std::vector<std::pair<std::string, Allgather>>{
           {"cra", cra()}, {"gcea", gcea()}, {"rotated gcea", rotated_gcea()}, {"sbnt allgather", sbnt_all()}}) {
    auto check = allgather_check(40, a);
    check.dims({0, 2, 4}).ports({"one", "all"}).base(forced);
    checks.add(name, check);
  }
  auto check = exchange_check(24);
  check.dims({0, 2, 4}).ports({"all"}).base(forced);
  checks.add("sbnt exchange", check);
}

}  // namespace
}  // namespace hcemu
