#pragma once
// GoogleTest helpers for regression-testing a kernel on the emulator: run it over a range of dimensions and port
// models on random data, check every node's output against a sequential reference, and check the emulated
// makespan against a closed-form prediction (exactly, or within a stated tolerance). Header-only; include it from
// a test that links GTest.
//
//   hcemu::testing::KernelCheck<std::uint32_t> check;
//   check.dims(0, 6).ports({"one", "all"}).base(config)
//       .input([](const hcemu::testing::Case& c, int node, std::mt19937_64& rng) { ... return vector; })
//       .kernel([](hcemu::Node& node, std::span<const std::uint32_t> in, std::vector<std::uint32_t>& out) { ... })
//       .reference([](const hcemu::testing::Case& c, const auto& inputs) { ... return outputs; })
//       .predict([](const hcemu::MachineConfig& cfg) -> hcemu::Time { ... })
//       .exact();
//   check.run();  // one EXPECT per failing case, naming d, ports and variant
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "hcemu/config.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/node.hpp"
#include "hcemu/report.hpp"
#include "hcemu/time.hpp"

namespace hcemu::testing {

// One case of a check: the machine it runs on and where it sits in the sweep.
struct Case {
  MachineConfig config;  // config.d and config.ports already set for this case
  EmulatorSettings settings;
  int d = 0;
  std::string ports;     // as given to ports()
  std::string variant;   // name given to variant(), empty for the base config
  std::uint64_t seed = 0;

  int nodes() const { return 1 << d; }
  // "d=3 ports=all variant=store-and-forward", for failure messages.
  std::string name() const {
    std::string s = "d=" + std::to_string(d) + " ports=" + ports;
    if (!variant.empty()) s += " variant=" + variant;
    return s;
  }
};

// What run() returns for each case, for checks of one's own afterwards.
struct CaseResult {
  Case run_case;
  RunReport report;
  std::optional<Time> predicted;
};

template <class T = std::byte>
class KernelCheck {
 public:
  using Data = std::vector<T>;
  // Input of one node: called for nodes 0..2^d-1 in order with one generator seeded per case.
  using InputFn = std::function<Data(const Case&, int node, std::mt19937_64& rng)>;
  // The kernel under test, on one node: reads that node's input, fills that node's output.
  using KernelFn = std::function<void(Node&, std::span<const T> input, Data& output)>;
  // Sequential reference: every node's expected output from every node's input.
  using ReferenceFn = std::function<std::vector<Data>(const Case&, const std::vector<Data>& inputs)>;
  // Closed-form makespan for this machine; nullopt when the model has none for the case (the time is then not
  // checked).
  using PredictFn = std::function<std::optional<Time>(const MachineConfig&)>;
  // Extra checks on a case's report (contention, FORCED discards...): use EXPECT_* inside.
  using ReportFn = std::function<void(const Case&, const RunReport&)>;

  KernelCheck& dims(int lo, int hi) {
    dims_.clear();
    for (int d = lo; d <= hi; ++d) dims_.push_back(d);
    return *this;
  }
  KernelCheck& dims(std::vector<int> list) {
    dims_ = std::move(list);
    return *this;
  }
  // Port models by their config spelling: "one", "half", "k:2", "all".
  KernelCheck& ports(std::vector<std::string> list) {
    ports_ = std::move(list);
    return *this;
  }
  // Every parameter of the machine but d and ports.
  KernelCheck& base(MachineConfig config) {
    base_ = std::move(config);
    return *this;
  }
  // A further axis of the sweep: each variant is the base config changed by `change`. Without any, the base
  // config alone runs.
  KernelCheck& variant(std::string name, std::function<void(MachineConfig&)> change) {
    if (!change) return variant(std::move(name), nullptr);
    variants_.emplace_back(std::move(name), [change](MachineConfig& c, EmulatorSettings&) { change(c); });
    return *this;
  }
  // The base config unchanged, under a name of its own.
  KernelCheck& variant(std::string name, std::nullptr_t) {
    variants_.emplace_back(std::move(name), nullptr);
    return *this;
  }
  // A variant of how the emulator runs (random yields, another timing...): the results must not change.
  KernelCheck& variant(std::string name, std::function<void(MachineConfig&, EmulatorSettings&)> change) {
    variants_.emplace_back(std::move(name), std::move(change));
    return *this;
  }
  KernelCheck& seed(std::uint64_t s) {
    seed_ = s;
    return *this;
  }
  KernelCheck& input(InputFn f) {
    input_ = std::move(f);
    return *this;
  }
  KernelCheck& kernel(KernelFn f) {
    kernel_ = std::move(f);
    return *this;
  }
  KernelCheck& reference(ReferenceFn f) {
    reference_ = std::move(f);
    return *this;
  }
  KernelCheck& predict(PredictFn f) {
    predict_ = std::move(f);
    return *this;
  }
  // The makespan must equal the prediction to the picosecond (virtual timing).
  KernelCheck& exact() {
    relative_ = 0;
    absolute_ = 0;
    return *this;
  }
  // |makespan - predicted| <= relative * predicted.
  KernelCheck& within(double relative) {
    relative_ = relative;
    absolute_ = 0;
    return *this;
  }
  // |makespan - predicted| <= absolute.
  KernelCheck& within_time(Time absolute) {
    relative_ = 0;
    absolute_ = absolute;
    return *this;
  }
  KernelCheck& check_report(ReportFn f) {
    report_checks_.push_back(std::move(f));
    return *this;
  }
  // Schedules built to be contention-free (MODEL.md section 7) must report none.
  KernelCheck& no_contention() {
    return check_report([](const Case& c, const RunReport& r) {
      EXPECT_EQ(r.contention_events(), 0u) << c.name() << ": contention in a schedule built to be free of it";
    });
  }
  KernelCheck& no_forced_discards() {
    return check_report([](const Case& c, const RunReport& r) {
      EXPECT_TRUE(r.forced_discards.empty())
          << c.name() << ": " << r.forced_discards.size() << " messages discarded under FORCED";
    });
  }

  // Runs every case; failures are EXPECTs naming the case. Returns what each case did.
  std::vector<CaseResult> run() const {
    std::vector<CaseResult> results;
    if (!kernel_) {
      ADD_FAILURE() << "KernelCheck: no kernel given";
      return results;
    }
    auto variants = variants_;
    if (variants.empty()) variants.emplace_back(std::string(), nullptr);
    for (const auto& [variant_name, change] : variants) {
      for (const std::string& ports : ports_) {
        for (int d : dims_) {
          Case c;
          c.config = base_;
          if (change) change(c.config, c.settings);
          c.config.d = d;
          c.config.ports = Ports::parse(ports);
          c.d = d;
          c.ports = ports;
          c.variant = variant_name;
          c.seed = case_seed(d, ports, variant_name);
          if (auto r = run_case(c)) results.push_back(std::move(*r));
        }
      }
    }
    return results;
  }

 private:
  std::optional<CaseResult> run_case(const Case& c) const {
    SCOPED_TRACE(c.name());
    const int n = c.nodes();
    std::vector<Data> inputs(static_cast<std::size_t>(n));
    if (input_) {
      std::mt19937_64 rng(c.seed);
      for (int i = 0; i < n; ++i) inputs[static_cast<std::size_t>(i)] = input_(c, i, rng);
    }
    std::vector<Data> outputs(static_cast<std::size_t>(n));
    CaseResult result;
    result.run_case = c;
    try {
      Machine machine(c.config, c.settings);
      result.report = machine.run([&](Node& node) {
        const auto i = static_cast<std::size_t>(node.id());
        kernel_(node, std::span<const T>(inputs[i]), outputs[i]);
      });
    } catch (const Error& e) {
      ADD_FAILURE() << c.name() << ": the run failed: " << e.what();
      return std::nullopt;
    }

    if (reference_) {
      const std::vector<Data> expected = reference_(c, inputs);
      if (expected.size() != outputs.size()) {
        ADD_FAILURE() << c.name() << ": the reference gave " << expected.size() << " outputs for " << n << " nodes";
      } else {
        for (std::size_t i = 0; i < outputs.size(); ++i) compare(c, static_cast<int>(i), outputs[i], expected[i]);
      }
    }

    if (predict_) {
      result.predicted = predict_(c.config);
      if (result.predicted) check_time(c, result.report.makespan, *result.predicted);
    }
    for (const auto& f : report_checks_) f(c, result.report);
    return result;
  }

  static void compare(const Case& c, int node, const Data& got, const Data& want) {
    if (got.size() != want.size()) {
      ADD_FAILURE() << c.name() << ": node " << node << " output has " << got.size() << " elements, expected "
                    << want.size();
      return;
    }
    for (std::size_t k = 0; k < got.size(); ++k) {
      if (!(got[k] == want[k])) {
        ADD_FAILURE() << c.name() << ": node " << node << " output differs first at element " << k << ": got "
                      << ::testing::PrintToString(got[k]) << ", expected " << ::testing::PrintToString(want[k]);
        return;
      }
    }
  }

  void check_time(const Case& c, Time got, Time want) const {
    const Time diff = got > want ? got - want : want - got;
    Time allowed = absolute_;
    if (relative_ > 0) allowed = static_cast<Time>(relative_ * static_cast<double>(want < 0 ? -want : want));
    if (diff > allowed) {
      ADD_FAILURE() << c.name() << ": makespan " << got << " ps (" << to_us(got) << " us), predicted " << want
                    << " ps (" << to_us(want) << " us), off by " << (got - want) << " ps; allowed " << allowed
                    << " ps";
    }
  }

  std::uint64_t case_seed(int d, const std::string& ports, const std::string& variant) const {
    // Stable across runs and platforms (std::hash is not): FNV-1a over the case's name.
    std::uint64_t h = 1469598103934665603ull ^ seed_;
    auto mix = [&h](unsigned char b) {
      h ^= b;
      h *= 1099511628211ull;
    };
    mix(static_cast<unsigned char>(d));
    for (char ch : ports) mix(static_cast<unsigned char>(ch));
    mix(0);
    for (char ch : variant) mix(static_cast<unsigned char>(ch));
    return h;
  }

  std::vector<int> dims_{0, 1, 2, 3, 4};
  std::vector<std::string> ports_{"one"};
  MachineConfig base_;
  std::vector<std::pair<std::string, std::function<void(MachineConfig&, EmulatorSettings&)>>> variants_;
  std::uint64_t seed_ = 1;
  InputFn input_;
  KernelFn kernel_;
  ReferenceFn reference_;
  PredictFn predict_;
  double relative_ = 0;
  Time absolute_ = 0;
  std::vector<ReportFn> report_checks_;
};

// Random bytes, for inputs.
inline std::vector<std::byte> random_bytes(std::size_t n, std::mt19937_64& rng) {
  std::vector<std::byte> v(n);
  for (auto& b : v) b = static_cast<std::byte>(rng() & 0xffu);
  return v;
}

}  // namespace hcemu::testing
