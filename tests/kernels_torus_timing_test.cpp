// The torus exchanges on a machine that routes on the torus (docs/model.md §1): the emulated makespan equals
// model::torus_exchange_time to the picosecond with δ > 0, ρ > 0, every port model, circuit and store-and-forward,
// and no step contends; on a mesh (no wrap-around) the phase-d steps do contend, and so does the hypercube's Direct
// exchange run on the torus.
//
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hcemu/hcemu.hpp"
#include "hcemu/kernels/exchange.hpp"
#include "hcemu/kernels/torus_exchange.hpp"
#include "hcemu/model/torus_exchange_cost.hpp"
#include "hcemu/testing/gtest.hpp"
#include "kernel_machines.hpp"
#include "torus_cases.hpp"

namespace hcemu {
namespace {

// The machine of a 2^d x 2^d torus (or mesh) with the given parameters.
MachineConfig torus_machine(MachineConfig base, int d, bool wrap = true) {
  base.d = 2 * d;
  base.topology = Topology{wrap ? Topology::Kind::torus : Topology::Kind::mesh, 1 << d, 1 << d};
  return base;
}

using test::TorusMember;
using testing::CheckList;
using testing::KernelCheck;

// A check of one member over tori of 2^1..2^dmax on a side, every time against the closed form; each case a test of
// its own, under `label`.
void check_exact(CheckList& checks, const std::string& label, TorusMember member, int dmax, std::size_t m, Sync sync,
                 MachineConfig base, std::vector<std::string> ports = {"one"}) {
  for (int d = 1; d <= dmax; ++d) {
    KernelCheck check;
    check.dims({2 * d})
        .ports(ports)
        .base(torus_machine(base, d))
        .input(test::torus_blocks_of(m))
        .reference(test::torus_transpose_of_blocks(m))
        .kernel(test::torus_kernel(m, member, sync))
        .predict([=](const MachineConfig& cfg) {
          const int side = test::torus_side(cfg);
          return model::torus_exchange_time(cfg, side, member(side), m, sync);
        })
        .tolerance(testing::Tolerance::exact())
        .no_contention()
        .no_forced_discards();
    checks.add(label + " torus 2^" + std::to_string(d) + " sync=" + std::string(to_string(sync)), check);
  }
}

HCEMU_KERNEL_CHECKS(TorusExchangeTiming, EveryMemberTakesItsClosedFormTimeWithDeltaPerHop) {
  MachineConfig base = test::ipsc_like();  // λ, λ0, τ, δ = 1.5 per hop, δ', ρ, Q = 150 d
  base.protocol = Protocol::forced;
  for (Sync sync : {Sync::barrier, Sync::pairwise}) {
    check_exact(checks, "T2", test::torus_t2_member, 4, 24, sync, base);
    check_exact(checks, "T1", test::torus_t1_member, 4, 24, sync, base);
  }
  for (int x = 0; x <= 2; ++x) {
    KernelCheck check;
    check.dims({10})
        .ports({"one"})
        .base(torus_machine(base, 5))
        .input(test::torus_blocks_of(2))
        .reference(test::torus_transpose_of_blocks(2))
        .kernel(test::torus_kernel(
            2, [x](int) { return x; }, Sync::barrier))
        .predict([=](const MachineConfig& cfg) { return model::torus_exchange_time(cfg, 5, x, 2, Sync::barrier); })
        .tolerance(testing::Tolerance::exact())
        .no_contention();
    checks.add("T1." + std::to_string(x), check);
  }
}

HCEMU_KERNEL_CHECKS(TorusExchangeTiming, StoreAndForwardAndPacketsTakeTheirClosedFormTime) {
  MachineConfig base = test::ipsc_like();
  base.switching = Switching::store_and_forward;
  check_exact(checks, "store and forward", test::torus_t1_member, 4, 24, Sync::barrier, base);
  base.switching = Switching::circuit;
  base.packet = 100;  // messages of 24·2^k bytes split unevenly
  check_exact(checks, "packets", test::torus_t1_member, 4, 24, Sync::barrier, base);
}

HCEMU_KERNEL_CHECKS(TorusExchangeTiming, EveryPortModelTakesItsClosedFormTime) {
  check_exact(checks, "T2", test::torus_t2_member, 3, 16, Sync::barrier, test::ipsc_like(), {"half", "k:2", "all"});
  check_exact(checks, "T1", test::torus_t1_member, 4, 16, Sync::pairwise, test::ipsc_like(), {"half", "all"});
}

TEST(TorusExchangeTiming, WithoutWrapAroundThePhaseDStepsContend) {
  // On a 2^d x 2^d mesh the outer pair of every row of a phase-d step, x <-> 2^d - 1 - x for small x, must cross
  // the middle of the row, where the inner pair's links are.
  MachineConfig config = torus_machine(test::ipsc_like(), 3, false);
  const RunReport report = Machine(config).run([](Node& node) {
    const std::size_t m = 8;
    std::vector<std::byte> in(node.size() * m), out(node.size() * m);
    kernels::torus_t2_exchange(node, in, out, m, {8, 8, false}, kernels::ExchangeOptions{Sync::barrier});
  });
  EXPECT_GT(report.contention_events(), 0u);
}

TEST(TorusExchangeTiming, TheHypercubeDirectExchangeOnTheTorusContends) {
  // The baseline that ignores the topology: the XOR schedule, contention-free under e-cube routing on a cube, shares
  // links under dimension-ordered routing on the torus.
  MachineConfig config = torus_machine(test::ipsc_like(), 3);
  const RunReport report = Machine(config).run([](Node& node) {
    const std::size_t m = 8;
    std::vector<std::byte> in(node.size() * m), out(node.size() * m);
    kernels::direct_exchange(node, in, out, m, kernels::ExchangeOptions{Sync::barrier});
  });
  EXPECT_GT(report.contention_events(), 0u);
}

}  // namespace
}  // namespace hcemu
