// Suh, Shin & An's torus exchanges T1, T2 and T1.x move real blocks and deliver every one of them, under every sync
// style, on the square torus they are made for (x then y routes): every step is a set of link-disjoint exchanges, so
// with δ = 0 the makespan equals the closed form exactly and nothing contends. The checks with δ > 0,
// store-and-forward, other port models and contention on a mesh are in kernels_torus_timing_test.cpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hcemu/hcemu.hpp"
#include "hcemu/kernels/torus_exchange.hpp"
#include "hcemu/model/torus_exchange_cost.hpp"
#include "hcemu/testing/gtest.hpp"
#include "kernel_machines.hpp"
#include "torus_cases.hpp"

namespace hcemu {
namespace {

using test::TorusMember;
using testing::CheckList;
using testing::KernelCheck;

// The iPSC/860-like machine of the other exchange tests, without δ (see the top of the file), as a square torus.
MachineConfig torus_machine_without_delta() {
  MachineConfig c = test::ipsc_like();
  c.delta_hop = 0;
  c.topology = Topology{Topology::Kind::torus, 0, 0};
  return c;
}

// One check of a member over tori of 2^dmin..2^dmax on a side, each case a test of its own.
void check_member(CheckList& checks, const std::string& what, TorusMember member, int dmin, int dmax, std::size_t m,
                  Sync sync, MachineConfig base = torus_machine_without_delta()) {
  std::vector<int> dims;
  for (int d = dmin; d <= dmax; ++d) dims.push_back(2 * d);
  KernelCheck check;
  check.dims(dims).ports({"one"}).base(base).input(test::torus_blocks_of(m))
      .reference(test::torus_transpose_of_blocks(m)).kernel(test::torus_kernel(m, member, sync))
      .no_forced_discards();
  if (sync != Sync::none) {
    check
        .predict([=](const MachineConfig& cfg) {
          const int d = test::torus_side(cfg);
          return model::torus_exchange_time(cfg, d, member(d), m, sync);
        })
        .tolerance(testing::Tolerance::exact())
        .no_contention();
  }
  checks.add(what + " sync=" + std::string(to_string(sync)), check);
}

HCEMU_KERNEL_CHECKS(TorusExchange, TTwoDeliversEveryBlockInItsClosedFormTime) {
  for (Sync sync : {Sync::barrier, Sync::pairwise, Sync::none})
    check_member(checks, "T2", test::torus_t2_member, 1, 4, 24, sync);
}

HCEMU_KERNEL_CHECKS(TorusExchange, TOneDeliversEveryBlockInItsClosedFormTime) {
  for (Sync sync : {Sync::barrier, Sync::pairwise, Sync::none})
    check_member(checks, "T1", test::torus_t1_member, 1, 4, 24, sync);
}

HCEMU_KERNEL_CHECKS(TorusExchange, TOneOneOn16By16DeliversEveryBlock) {
  // On 16 x 16 T1.1 is T1 (x = d - 3 = 1); on larger tori see the 32 x 32 case below.
  for (Sync sync : {Sync::barrier, Sync::none})
    check_member(
        checks, "T1.1", [](int) { return 1; }, 4, 4, 8, sync);
}

HCEMU_KERNEL_CHECKS(TorusExchange, EveryMemberOn32By32DeliversEveryBlock) {
  // 1024 nodes: T2, T1.1 and T1 (= T1.2), under the per-step barrier, in the closed-form time.
  for (int x = 0; x <= 2; ++x)
    check_member(
        checks, "T1." + std::to_string(x), [x](int) { return x; }, 5, 5, 2, Sync::barrier);
}

HCEMU_KERNEL_CHECKS(TorusExchange, ForcedReceivesLoseNothingUnderAnySyncStyle) {
  // Under Sync::none every receive is posted before the first message can leave; under barrier and pairwise each
  // step's receive is posted before the step's barrier.
  MachineConfig base = torus_machine_without_delta();
  base.protocol = Protocol::forced;
  for (Sync sync : {Sync::none, Sync::barrier, Sync::pairwise})
    check_member(checks, "T1", test::torus_t1_member, 2, 4, 16, sync, base);
}

HCEMU_KERNEL_CHECKS(TorusExchange, EmptyAndOneByteBlocks) {
  for (std::size_t m : {std::size_t{0}, std::size_t{1}})
    check_member(checks, "T1 m=" + std::to_string(m), test::torus_t1_member, 1, 4, m, Sync::barrier);
}

HCEMU_KERNEL_CHECKS(TorusExchange, HalfDuplexPortsPayTwiceForEachExchange) {
  MachineConfig base = torus_machine_without_delta();
  base.ports = Ports::parse("half");
  KernelCheck check;
  check.dims({4, 8})
      .ports({"half"})
      .base(base)
      .input(test::torus_blocks_of(8))
      .reference(test::torus_transpose_of_blocks(8))
      .kernel(test::torus_kernel(8, test::torus_t1_member, Sync::barrier))
      .predict([](const MachineConfig& cfg) {
        const int d = test::torus_side(cfg);
        return model::torus_exchange_time(cfg, d, model::torus_max_x(d), 8, Sync::barrier);
      })
      .tolerance(testing::Tolerance::exact());
  checks.add(check);
}

TEST(TorusExchange, TheNamedEntryPointsAreTheirMembers) {
  MachineConfig config = torus_machine_without_delta();
  config.d = 8;  // 16 x 16
  const std::size_t m = 6;
  const model::TorusShape shape = model::TorusShape::square(4);
  auto run = [&](auto&& kernel) {
    std::vector<test::TorusData> out(std::size_t{1} << config.d);
    const RunReport report = Machine(config).run([&](Node& node) {
      test::TorusData in(node.size() * m);
      for (std::size_t k = 0; k < in.size(); ++k) in[k] = static_cast<std::byte>(k * 5 + node.id());
      auto& o = out[static_cast<std::size_t>(node.id())];
      o.resize(in.size());
      kernel(node, in, o);
    });
    return std::make_pair(report.makespan, out);
  };
  const auto t1 = run([&](Node& n, const auto& in, auto& o) { kernels::torus_t1_exchange(n, in, o, m, shape); });
  const auto t1_1 = run([&](Node& n, const auto& in, auto& o) { kernels::torus_t1x_exchange(n, in, o, m, 1, shape); });
  const auto t2 = run([&](Node& n, const auto& in, auto& o) { kernels::torus_t2_exchange(n, in, o, m, shape); });
  const auto t1_0 = run([&](Node& n, const auto& in, auto& o) { kernels::torus_t1x_exchange(n, in, o, m, 0, shape); });
  EXPECT_EQ(t1, t1_1);
  EXPECT_EQ(t2, t1_0);
  EXPECT_EQ(t1.second, t2.second);  // the same result, by different schedules
  EXPECT_NE(t1.first, t2.first);
}

TEST(TorusExchange, OneNodeCopiesItsOwnBlockForFree) {
  MachineConfig config = torus_machine_without_delta();
  config.d = 0;
  std::vector<std::byte> out(4);
  const RunReport report = Machine(config).run([&](Node& node) {
    const std::vector<std::byte> in = {std::byte{1}, std::byte{2}, std::byte{3}, std::byte{4}};
    kernels::torus_t1_exchange(node, in, out, 4, model::TorusShape::square(0));
  });
  EXPECT_EQ(out, (std::vector<std::byte>{std::byte{1}, std::byte{2}, std::byte{3}, std::byte{4}}));
  EXPECT_EQ(report.makespan, 0);
}

TEST(TorusExchange, AShapeThatIsNotTheMachinesSquareTorusIsRejected) {
  MachineConfig config = torus_machine_without_delta();
  config.d = 4;
  auto run_with = [&](model::TorusShape shape, int x) {
    Machine(config).run([&](Node& node) {
      std::vector<std::byte> in(16), out(16);
      kernels::torus_t1x_exchange(node, in, out, 1, x, shape);
    });
  };
  EXPECT_THROW(run_with({2, 8, true}, 0), KernelError);   // not square
  EXPECT_THROW(run_with({8, 8, true}, 0), KernelError);   // 64 nodes, not 16
  EXPECT_THROW(run_with({4, 4, true}, 1), KernelError);   // T1.1 needs 16 x 16 at least
  EXPECT_NO_THROW(run_with({4, 4, true}, 0));
}

}  // namespace
}  // namespace hcemu
