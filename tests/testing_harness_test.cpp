// hcemu/testing.hpp reports what it is meant to catch: a wrong result, a wrong time, contention; and names the case.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "hcemu/testing.hpp"

namespace hcemu {
namespace {

using Data = std::vector<std::byte>;

// A ring shift: node i sends its m bytes to node i+1 (mod 2^d), one hop only when d <= 1.
testing::KernelCheck<> ring_shift_check(Time extra_predicted, bool corrupt) {
  testing::KernelCheck check;
  MachineConfig base;
  base.lambda = 10;
  base.tau = 0.5;
  check.dims(1, 3).ports({"one", "all"}).base(base)
      .input([](const testing::Case&, int, std::mt19937_64& rng) { return testing::random_bytes(8, rng); })
      .kernel([corrupt](Node& node, std::span<const std::byte> in, Data& out) {
        out.resize(in.size());
        const int next = (node.id() + 1) % node.size(), prev = (node.id() + node.size() - 1) % node.size();
        Request r = node.post_recv(prev, out);
        node.send(next, in);
        node.wait(r);
        if (corrupt && node.id() == 1) out[3] ^= std::byte{1};
      })
      .reference([](const testing::Case& c, const std::vector<Data>& in) {
        std::vector<Data> out(in.size());
        for (int i = 0; i < c.nodes(); ++i) out[static_cast<std::size_t>((i + 1) % c.nodes())] = in[static_cast<std::size_t>(i)];
        return out;
      })
      .predict([extra_predicted](const MachineConfig& cfg) -> std::optional<Time> {
        if (cfg.d != 1) return std::nullopt;  // a single exchange at d = 1: λ + τ·8
        return from_us(10 + 0.5 * 8) + extra_predicted;
      })
      .exact();
  return check;
}

TEST(KernelCheck, PassesACorrectKernel) { ring_shift_check(0, false).run(); }

TEST(KernelCheck, ReportsAWrongResultNamingTheCase) {
  EXPECT_NONFATAL_FAILURE(ring_shift_check(0, true).dims({2}).ports({"one"}).run(), "d=2 ports=one: node 1 output differs first at element 3");
}

TEST(KernelCheck, ReportsAWrongTime) {
  EXPECT_NONFATAL_FAILURE(ring_shift_check(1, false).dims({1}).ports({"all"}).run(), "d=1 ports=all: makespan");
}

TEST(KernelCheck, ToleranceAcceptsASmallError) { ring_shift_check(1, false).within_time(1).run(); }

TEST(KernelCheck, ReturnsOneResultPerCase) {
  const auto results = ring_shift_check(0, false).run();
  ASSERT_EQ(results.size(), 6u);  // d = 1..3, two port models
  EXPECT_EQ(results[0].run_case.name(), "d=1 ports=one");
  EXPECT_TRUE(results[0].predicted.has_value());
  EXPECT_FALSE(results[1].predicted.has_value());
}

}  // namespace
}  // namespace hcemu
