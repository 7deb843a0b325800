// hcemu/testing reports what it is meant to catch: a wrong result, a wrong time, contention; names the case; returns
// its failures as values; and registers each case of a sweep as a test of its own.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "hcemu/testing/gtest.hpp"

namespace hcemu {
namespace {

using Data = std::vector<std::byte>;

// A ring shift: node i sends its m bytes to node i+1 (mod 2^d), one hop only when d <= 1.
testing::KernelCheck<> ring_shift_check(Time extra_predicted, bool corrupt) {
  testing::KernelCheck check;
  MachineConfig base;
  base.lambda = 10;
  base.tau = 0.5;
  check.dims(1, 3)
      .ports({"one", "all"})
      .base(base)
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
        for (int i = 0; i < c.nodes(); ++i)
          out[static_cast<std::size_t>((i + 1) % c.nodes())] = in[static_cast<std::size_t>(i)];
        return out;
      })
      .predict([extra_predicted](const MachineConfig& cfg) -> std::optional<Time> {
        if (cfg.d != 1) return std::nullopt;  // a single exchange at d = 1: λ + τ·8
        return from_us(10 + 0.5 * 8) + extra_predicted;
      })
      .tolerance(testing::Tolerance::exact());
  return check;
}

// The line of the checks.add() below, where its cases' failures are reported.
constexpr int kAddedAt = __LINE__ + 2;
HCEMU_KERNEL_CHECKS(KernelCheck, PassesACorrectKernel) {
  checks.add(ring_shift_check(0, false));
}

TEST(KernelCheck, EachCaseIsATestOfItsOwn) {
  std::vector<std::string> names;
  const ::testing::UnitTest& tests = *::testing::UnitTest::GetInstance();
  for (int i = 0; i < tests.total_test_suite_count(); ++i) {
    const ::testing::TestSuite& suite = *tests.GetTestSuite(i);
    for (int j = 0; j < suite.total_test_count(); ++j)
      names.push_back(std::string(suite.name()) + "." + suite.GetTestInfo(j)->name());
  }
  for (const char* name : {"KernelCheck.PassesACorrectKernel/d1_one", "KernelCheck.PassesACorrectKernel/d3_all"})
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
}

TEST(KernelCheck, ReturnsAWrongResultAsAFailureNamingTheCase) {
  const auto results = ring_shift_check(0, true).dims({2}).ports({"one"}).run();
  ASSERT_EQ(results.size(), 1u);
  ASSERT_EQ(results[0].failures.size(), 1u);
  EXPECT_EQ(results[0].failures[0].rfind("d=2 ports=one: node 1 output differs first at element 3", 0), 0u)
      << results[0].failures[0];
}

TEST(KernelCheck, ReportsAWrongResultNamingTheCase) {
  EXPECT_NONFATAL_FAILURE(testing::expect_passes(ring_shift_check(0, true).dims({2}).ports({"one"})),
                          "d=2 ports=one: node 1 output differs first at element 3");
}

TEST(KernelCheck, ReportsAWrongTime) {
  EXPECT_NONFATAL_FAILURE(testing::expect_passes(ring_shift_check(1, false).dims({1}).ports({"all"})),
                          "d=1 ports=all: makespan");
}

HCEMU_KERNEL_CHECKS(KernelCheck, ToleranceAcceptsASmallError) {
  checks.add(ring_shift_check(1, false).tolerance(testing::Tolerance::absolute(1)));
}

TEST(KernelCheck, RelativeToleranceIsAFractionOfThePrediction) {
  const testing::Tolerance within = testing::Tolerance::relative(0.01);
  EXPECT_TRUE(within.accepts(1010, 1000));
  EXPECT_FALSE(within.accepts(1011, 1000));
  EXPECT_TRUE(testing::Tolerance::exact().accepts(1000, 1000));
  EXPECT_FALSE(testing::Tolerance::exact().accepts(1001, 1000));
}

TEST(KernelCheck, ReturnsOneResultPerCase) {
  const auto results = ring_shift_check(0, false).run();
  ASSERT_EQ(results.size(), 6u);  // d = 1..3, two port models
  EXPECT_EQ(results[0].run_case.name(), "d=1 ports=one");
  EXPECT_TRUE(results[0].predicted.has_value());
  EXPECT_FALSE(results[1].predicted.has_value());
}

// A ring shift of m bytes, m from the sweep's size axis, its time from the whole case: at d = 1 one exchange of
// λ + τ·m (docs/model.md §9).
testing::KernelCheck<> sized_ring_shift_check() {
  return ring_shift_check(0, false)
      .dims({1})
      .ports({"one"})
      .sizes({1, 8, 100})
      .input([](const testing::Case& c, int, std::mt19937_64& rng) { return testing::random_bytes(c.m, rng); })
      .predict([](const testing::Case& c) -> std::optional<Time> {
        return from_us(10) + from_us(0.5) * static_cast<Time>(c.m);
      });
}

TEST(KernelCheck, SizesAreAnAxisOfTheSweepNamedInEachCase) {
  const auto cases = sized_ring_shift_check().cases();
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_EQ(cases[1].m, 8u);
  EXPECT_EQ(cases[1].name(), "d=1 ports=one m=8");
  EXPECT_EQ(cases[1].id(), "d1_one_m8");
}

TEST(KernelCheck, PredictGetsTheCaseWithItsSize) {
  for (const testing::CaseResult& r : sized_ring_shift_check().run()) {
    EXPECT_TRUE(r.passed()) << r.run_case.name() << ": " << (r.failures.empty() ? "" : r.failures[0]);
    EXPECT_EQ(r.report.makespan, from_us(10) + from_us(0.5) * static_cast<Time>(r.run_case.m));
  }
}

// The kernel sends nothing (the prediction, which expects a shift, is not what this test reads).
TEST(KernelCheck, TheKernelMayTakeTheCase) {
  auto check = sized_ring_shift_check().kernel(
      [](Node& node, const testing::Case& c, std::span<const std::byte> in, Data& out) {
        out.assign(in.begin(), in.end());
        if (in.size() != c.m) node.elapse(from_us(1));  // a wrong size shows as a wrong time
      });
  check.reference([](const testing::Case&, const std::vector<Data>& in) { return in; });
  for (const testing::CaseResult& r : check.run()) EXPECT_EQ(r.report.makespan, 0) << r.run_case.name();
}

TEST(KernelCheck, WithoutSizesCasesKeepTheirNamesAndSeeds) {
  const auto cases = ring_shift_check(0, false).dims({2}).ports({"one"}).cases();
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].m, 0u);
  EXPECT_EQ(cases[0].name(), "d=2 ports=one");
  // FNV-1a over (d, ports, 0, variant) from the sweep's seed 1, as before the size axis.
  std::uint64_t h = 1469598103934665603ull ^ 1;
  for (unsigned char b : {static_cast<unsigned char>(2), static_cast<unsigned char>('o'),
                          static_cast<unsigned char>('n'), static_cast<unsigned char>('e'),
                          static_cast<unsigned char>(0)}) {
    h ^= b;
    h *= 1099511628211ull;
  }
  EXPECT_EQ(cases[0].seed, h);
}

TEST(KernelCheck, FailuresAreReportedAtTheCallersLine) {
  ::testing::TestPartResultArray failures;
  int line = 0;
  {
    ::testing::ScopedFakeTestPartResultReporter capture(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    line = __LINE__ + 1;
    testing::expect_passes(ring_shift_check(0, true).dims({2}).ports({"one"}));
  }
  ASSERT_EQ(failures.size(), 1);
  EXPECT_STREQ(failures.GetTestPartResult(0).file_name(), __FILE__);
  EXPECT_EQ(failures.GetTestPartResult(0).line_number(), line);
}

TEST(KernelCheck, RegisteredCasesAreTestsAtTheLineThatAddedThem) {
  const ::testing::UnitTest& tests = *::testing::UnitTest::GetInstance();
  for (int i = 0; i < tests.total_test_suite_count(); ++i) {
    const ::testing::TestSuite& suite = *tests.GetTestSuite(i);
    for (int j = 0; j < suite.total_test_count(); ++j) {
      const ::testing::TestInfo& test = *suite.GetTestInfo(j);
      if (std::string(suite.name()) + "." + test.name() != "KernelCheck.PassesACorrectKernel/d1_one") continue;
      EXPECT_STREQ(test.file(), __FILE__);
      EXPECT_EQ(test.line(), kAddedAt);
      return;
    }
  }
  ADD_FAILURE() << "KernelCheck.PassesACorrectKernel/d1_one is not registered";
}

}  // namespace
}  // namespace hcemu
