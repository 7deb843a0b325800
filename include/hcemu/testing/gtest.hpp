#pragma once
// GoogleTest for the sweeps of hcemu/testing/kernel_check.hpp (CMake target hcemu::testing): each case of a sweep is
// registered as a test of its own (::testing::RegisterTest), Suite.Name/d3_all, so that one failing case can be
// picked out with --gtest_filter and run alone; or a whole sweep runs inside one TEST.
//
//   HCEMU_KERNEL_CHECKS(NaiveAllToAll, DeliversEveryWord) {
//     hcemu::testing::KernelCheck<std::uint32_t> check;
//     check.dims(0, 5).ports({"one", "all"}) ... ;
//     checks.add(check);               // NaiveAllToAll.DeliversEveryWord/d0_one ... /d5_all
//     checks.add("packets", other);    // NaiveAllToAll.DeliversEveryWord/packets/d0_one ...
//   }
//
// The block runs once, when the test program starts, to build the sweeps; their cases run as tests later, so what
// the check's functions use must outlive the block (capture by value).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "hcemu/testing/kernel_check.hpp"

namespace hcemu::testing {

// Each failure of the case as a non-fatal failure of the running test.
inline void expect_passed(const CaseResult& result) {
  for (const auto& failure : result.failures) ADD_FAILURE() << failure;
}

// Runs every case of the sweep inside the running test, each failure a non-fatal failure; returns what they did.
template <class T>
std::vector<CaseResult> expect_passes(const KernelCheck<T>& check) {
  std::vector<CaseResult> results = check.run();
  for (const auto& r : results) expect_passed(r);
  return results;
}

namespace detail {

// One case of a sweep as a test. Registered as a ::testing::Test, so that a suite may also hold plain TESTs.
template <class T>
class CaseTest : public ::testing::Test {
 public:
  CaseTest(std::shared_ptr<const KernelCheck<T>> check, Case c) : check_(std::move(check)), case_(std::move(c)) {}
  void TestBody() override { expect_passed(check_->run(case_)); }

 private:
  std::shared_ptr<const KernelCheck<T>> check_;
  Case case_;
};

// "m = 7, g = 2" -> "m_7_g_2": letters and digits, every other run of characters one '_'.
inline std::string test_name_part(const std::string& label) {
  std::string out;
  for (char c : label) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (plain)
      out += c;
    else if (!out.empty() && out.back() != '_')
      out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

// Every test name registered so far: two cases of one name would be one test twice over.
inline void claim_test_name(const std::string& name) {
  static std::set<std::string> taken;
  if (!taken.insert(name).second) {
    std::fprintf(stderr, "hcemu::testing: two cases are both named %s; give their sweeps labels of their own\n",
                 name.c_str());
    std::abort();
  }
}

}  // namespace detail

// Registers each case of the sweep as a test of its own, `suite`.`name`/<Case::id()>. Call before RUN_ALL_TESTS.
template <class T>
void register_cases(const std::string& suite, const std::string& name, const KernelCheck<T>& check, const char* file,
                    int line) {
  auto shared = std::make_shared<const KernelCheck<T>>(check);
  for (const Case& c : shared->cases()) {
    const std::string test = name + "/" + c.id();
    detail::claim_test_name(suite + "." + test);
    ::testing::RegisterTest(suite.c_str(), test.c_str(), nullptr, nullptr, file, line,
                            [shared, c]() -> ::testing::Test* { return new detail::CaseTest<T>(shared, c); });
  }
}

// The sweeps of one HCEMU_KERNEL_CHECKS block.
class CheckList {
 public:
  CheckList(const char* suite, const char* name, const char* file, int line)
      : suite_(suite), name_(name), file_(file), line_(line) {}
  // Each case of the sweep, as Suite.Name/<case>.
  template <class T>
  CheckList& add(const KernelCheck<T>& check) {
    register_cases(suite_, name_, check, file_, line_);
    return *this;
  }
  // Each case of one of several sweeps of the block, as Suite.Name/<label>/<case>.
  template <class T>
  CheckList& add(const std::string& label, const KernelCheck<T>& check) {
    register_cases(suite_, name_ + "/" + detail::test_name_part(label), check, file_, line_);
    return *this;
  }

 private:
  std::string suite_, name_;
  const char* file_;
  int line_;
};

}  // namespace hcemu::testing

// A block that builds sweeps and adds them to `checks`, each case of which becomes a test (see above).
#define HCEMU_KERNEL_CHECKS(suite, name)                                                    \
  static void hcemu_kernel_checks_##suite##_##name(::hcemu::testing::CheckList& checks);    \
  [[maybe_unused]] static const bool hcemu_kernel_checks_registered_##suite##_##name = [] { \
    ::hcemu::testing::CheckList checks(#suite, #name, __FILE__, __LINE__);                  \
    hcemu_kernel_checks_##suite##_##name(checks);                                           \
    return true;                                                                            \
  }();                                                                                      \
  static void hcemu_kernel_checks_##suite##_##name(::hcemu::testing::CheckList& checks)
