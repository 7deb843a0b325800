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
// the check's functions use must outlive the block (capture by value). A case's failures are reported at the line
// of the checks.add() that registered it (or of the expect_passes() call), in the user's file, not in this header.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <source_location>
#include <string>
#include <vector>

#include "hcemu/testing/kernel_check.hpp"

namespace hcemu::testing {

// Each failure of the case as a non-fatal failure of the running test, at `file`:`line`.
inline void expect_passed(const CaseResult& result, const char* file, int line) {
  for (const auto& failure : result.failures) ADD_FAILURE_AT(file, line) << failure;
}

// The same at `where`, by default the caller's line.
inline void expect_passed(const CaseResult& result, std::source_location where = std::source_location::current()) {
  expect_passed(result, where.file_name(), static_cast<int>(where.line()));
}

// Runs every case of the sweep inside the running test, each failure a non-fatal failure at the caller's line;
// returns what they did.
template <class T>
std::vector<CaseResult> expect_passes(const KernelCheck<T>& check,
                                      std::source_location where = std::source_location::current()) {
  std::vector<CaseResult> results = check.run();
  for (const auto& r : results) expect_passed(r, where);
  return results;
}

namespace detail {

// One case of a sweep as a test, its failures at `where`. Registered as a ::testing::Test, so that a suite may also
// hold plain TESTs.
template <class T>
class CaseTest : public ::testing::Test {
 public:
  CaseTest(std::shared_ptr<const KernelCheck<T>> check, Case c, const char* file, int line)
      : check_(std::move(check)), case_(std::move(c)), file_(file), line_(line) {}
  void TestBody() override { expect_passed(check_->run(case_), file_, line_); }

 private:
  std::shared_ptr<const KernelCheck<T>> check_;
  Case case_;
  const char* file_;
  int line_;
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

// Registers each case of the sweep as a test of its own, `suite`.`name`/<Case::id()>, placed and failing at
// `file`:`line`. Call before RUN_ALL_TESTS.
template <class T>
void register_cases(const std::string& suite, const std::string& name, const KernelCheck<T>& check, const char* file,
                    int line) {
  auto shared = std::make_shared<const KernelCheck<T>>(check);
  for (const Case& c : shared->cases()) {
    const std::string test = name + "/" + c.id();
    detail::claim_test_name(suite + "." + test);
    ::testing::RegisterTest(suite.c_str(), test.c_str(), nullptr, nullptr, file, line,
                            [shared, c, file, line]() -> ::testing::Test* {
                              return new detail::CaseTest<T>(shared, c, file, line);
                            });
  }
}

// The same at `where`, by default the caller's line.
template <class T>
void register_cases(const std::string& suite, const std::string& name, const KernelCheck<T>& check,
                    std::source_location where = std::source_location::current()) {
  register_cases(suite, name, check, where.file_name(), static_cast<int>(where.line()));
}

// The sweeps of one HCEMU_KERNEL_CHECKS block.
class CheckList {
 public:
  CheckList(const char* suite, const char* name) : suite_(suite), name_(name) {}
  // Each case of the sweep, as Suite.Name/<case>, its failures at the line of this call.
  template <class T>
  CheckList& add(const KernelCheck<T>& check, std::source_location where = std::source_location::current()) {
    register_cases(suite_, name_, check, where);
    return *this;
  }
  // Each case of one of several sweeps of the block, as Suite.Name/<label>/<case>.
  template <class T>
  CheckList& add(const std::string& label, const KernelCheck<T>& check,
                 std::source_location where = std::source_location::current()) {
    register_cases(suite_, name_ + "/" + detail::test_name_part(label), check, where);
    return *this;
  }

 private:
  std::string suite_, name_;
};

}  // namespace hcemu::testing

// A block that builds sweeps and adds them to `checks`, each case of which becomes a test (see above).
#define HCEMU_KERNEL_CHECKS(suite, name)                                                    \
  static void hcemu_kernel_checks_##suite##_##name(::hcemu::testing::CheckList& checks);    \
  [[maybe_unused]] static const bool hcemu_kernel_checks_registered_##suite##_##name = [] { \
    ::hcemu::testing::CheckList checks(#suite, #name);                                      \
    hcemu_kernel_checks_##suite##_##name(checks);                                           \
    return true;                                                                            \
  }();                                                                                      \
  static void hcemu_kernel_checks_##suite##_##name(::hcemu::testing::CheckList& checks)
