#pragma once
// Regression-testing a kernel on the emulator, without a test framework: a sweep over dimensions, port models,
// message sizes and variants of the machine, each case run on its own inputs, every node's output checked against a sequential
// reference, and the emulated makespan against a closed-form prediction within one Tolerance. Every failure comes
// back as a value, a sentence naming the case; hcemu/testing/gtest.hpp (target hcemu::testing) turns each case into
// a GoogleTest test of its own.
//
//   hcemu::testing::KernelCheck<std::uint32_t> check;
//   check.dims(0, 6).ports({"one", "all"}).sizes({1, 64, 1000}).base(config)
//       .input([](const hcemu::testing::Case& c, int node, std::mt19937_64& rng) { ... return vector of c.m; })
//       .kernel([](hcemu::Node& node, std::span<const std::uint32_t> in, std::vector<std::uint32_t>& out) { ... })
//       .reference([](const hcemu::testing::Case& c, const auto& inputs) { ... return outputs; })
//       .predict([](const hcemu::testing::Case& c) -> hcemu::Time { ... c.config, c.m ... })
//       .tolerance(hcemu::testing::Tolerance::exact());
//   for (const auto& result : check.run()) for (const auto& failure : result.failures) std::cerr << failure << '\n';
#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "hcemu/config.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/node.hpp"
#include "hcemu/report.hpp"
#include "hcemu/time.hpp"

namespace hcemu::testing {

// How far the emulated makespan may be from the prediction: not at all, a fraction of the prediction, or a time.
class Tolerance {
 public:
  static Tolerance exact() { return Tolerance(Kind::exact, 0, 0); }
  static Tolerance relative(double fraction) { return Tolerance(Kind::relative, fraction, 0); }
  static Tolerance absolute(Time allowed) { return Tolerance(Kind::absolute, 0, allowed); }

  // The largest |makespan - predicted| accepted for this prediction.
  Time allowed(Time predicted) const {
    switch (kind_) {
      case Kind::exact:
        return 0;
      case Kind::relative:
        return static_cast<Time>(fraction_ * static_cast<double>(predicted < 0 ? -predicted : predicted));
      case Kind::absolute:
        return absolute_;
    }
    return 0;
  }
  bool accepts(Time got, Time predicted) const {
    return (got > predicted ? got - predicted : predicted - got) <= allowed(predicted);
  }

 private:
  enum class Kind { exact, relative, absolute };
  Tolerance(Kind kind, double fraction, Time absolute) : kind_(kind), fraction_(fraction), absolute_(absolute) {}
  Kind kind_;
  double fraction_;
  Time absolute_;
};

// One case of a sweep: the machine it runs on, the size, and where it sits in the sweep.
struct Case {
  MachineConfig config;  // config.d and config.ports already set for this case
  EmulatorSettings settings;
  int d = 0;
  std::string ports;    // as given to ports()
  std::string variant;  // name given to variant(), empty for the base config
  std::size_t m = 0;    // the size, one of sizes(): what it counts is the kernel's to say; 0 without a size axis
  bool sized = false;   // the sweep has a size axis (sizes())
  std::uint64_t seed = 0;

  int nodes() const { return 1 << d; }
  // "d=3 ports=all m=64 variant=store-and-forward", for failure messages.
  std::string name() const {
    std::string s = "d=" + std::to_string(d) + " ports=" + ports;
    if (sized) s += " m=" + std::to_string(m);
    if (!variant.empty()) s += " variant=" + variant;
    return s;
  }
  // "d3_all_m64_store_and_forward": the case's name as a test name, letters, digits and '_' only.
  std::string id() const {
    std::string s = "d" + std::to_string(d) + "_" + ports + (sized ? "_m" + std::to_string(m) : "") +
                    (variant.empty() ? "" : "_" + variant);
    std::string out;
    for (char c : s)
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')
        out += c;
      else if (c != ':')
        out += '_';
    return out;
  }
};

// What one case did: its report, its prediction, and its failures, each a sentence naming the case (none: passed).
struct CaseResult {
  Case run_case;
  RunReport report;
  std::optional<Time> predicted;
  std::vector<std::string> failures;
  bool passed() const { return failures.empty(); }
};

namespace detail {

// An element of an output, for a failure message.
template <class T>
std::string shown(const T& value) {
  if constexpr (std::is_same_v<T, std::byte>) {
    return std::to_string(std::to_integer<int>(value));
  } else if constexpr (std::is_arithmetic_v<T>) {
    char buffer[64];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, ec == std::errc() ? end : buffer);
  } else if constexpr (requires(std::ostream & out) { out << value; }) {
    std::ostringstream out;
    out << value;
    return out.str();
  } else {
    return "a different value";
  }
}

}  // namespace detail

template <class T = std::byte>
class KernelCheck {
 public:
  using Data = std::vector<T>;
  // Input of one node: called for nodes 0..2^d-1 in order with one generator seeded per case.
  using InputFn = std::function<Data(const Case&, int node, std::mt19937_64& rng)>;
  // The kernel under test, on one node: reads that node's input, fills that node's output.
  using KernelFn = std::function<void(Node&, std::span<const T> input, Data& output)>;
  // The same, given the case as well (its m, its variant); kernel() takes either.
  using CaseKernelFn = std::function<void(Node&, const Case&, std::span<const T> input, Data& output)>;
  // Sequential reference: every node's expected output from every node's input.
  using ReferenceFn = std::function<std::vector<Data>(const Case&, const std::vector<Data>& inputs)>;
  // Closed-form makespan for this machine; nullopt when the model has none for the case (the time is then not
  // checked).
  using PredictFn = std::function<std::optional<Time>(const MachineConfig&)>;
  // The same of the whole case (its machine, c.config; its size, c.m; its variant and seed); predict() takes either.
  using CasePredictFn = std::function<std::optional<Time>(const Case&)>;
  // A check of one's own on a case's result (contention, FORCED discards, the prediction...): the failure, a
  // sentence, or empty when the case passes it.
  using ResultCheck = std::function<std::string(const CaseResult&)>;

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
  // A size axis: each case has one of these as Case::m (the kernel's inputs, its prediction and its name read it).
  // Without it, every case has m = 0 and names without m.
  KernelCheck& sizes(std::vector<std::size_t> list) {
    sizes_ = std::move(list);
    sized_ = true;
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
  // void(Node&, std::span<const T> input, Data& output), or the same with the case after the node.
  template <class F>
  KernelCheck& kernel(F f) {
    if constexpr (std::is_same_v<F, std::nullptr_t>) {
      kernel_ = nullptr;
    } else if constexpr (std::is_invocable_v<F&, Node&, const Case&, std::span<const T>, Data&>) {
      kernel_ = is_empty(f) ? CaseKernelFn() : CaseKernelFn(std::move(f));
    } else {
      static_assert(std::is_invocable_v<F&, Node&, std::span<const T>, Data&>,
                    "kernel(f): f(Node&, std::span<const T>, std::vector<T>&) or f(Node&, const Case&, span, vector)");
      if (is_empty(f)) {
        kernel_ = nullptr;
      } else {
        kernel_ = [f = std::move(f)](Node& node, const Case&, std::span<const T> in, Data& out) mutable {
          f(node, in, out);
        };
      }
    }
    return *this;
  }
  KernelCheck& reference(ReferenceFn f) {
    reference_ = std::move(f);
    return *this;
  }
  // std::optional<Time>(const Case&), or the same of the machine alone (const MachineConfig&).
  template <class F>
  KernelCheck& predict(F f) {
    if constexpr (std::is_same_v<F, std::nullptr_t>) {
      predict_ = nullptr;
    } else if constexpr (std::is_invocable_v<F&, const Case&>) {
      if (is_empty(f))
        predict_ = nullptr;
      else
        predict_ = [f = std::move(f)](const Case& c) mutable -> std::optional<Time> { return f(c); };
    } else {
      static_assert(std::is_invocable_v<F&, const MachineConfig&>,
                    "predict(f): f(const Case&) or f(const MachineConfig&), giving a Time or std::optional<Time>");
      if (is_empty(f))
        predict_ = nullptr;
      else
        predict_ = [f = std::move(f)](const Case& c) mutable -> std::optional<Time> { return f(c.config); };
    }
    return *this;
  }
  // How close the makespan must be to the prediction; exact (to the picosecond) unless said otherwise.
  KernelCheck& tolerance(Tolerance t) {
    tolerance_ = t;
    return *this;
  }
  KernelCheck& check(ResultCheck f) {
    checks_.push_back(std::move(f));
    return *this;
  }
  // Schedules built to be contention-free (docs/model.md §7) must report none.
  KernelCheck& no_contention() {
    return check([](const CaseResult& r) -> std::string {
      if (r.report.contention_events() == 0) return {};
      return std::to_string(r.report.contention_events()) + " contention events in a schedule built to be free of them";
    });
  }
  KernelCheck& no_forced_discards() {
    return check([](const CaseResult& r) -> std::string {
      if (r.report.forced_discards.empty()) return {};
      return std::to_string(r.report.forced_discards.size()) + " messages discarded under FORCED";
    });
  }

  // Every case of the sweep, in the order run() runs them: variants, then port models, then dimensions, then sizes.
  std::vector<Case> cases() const {
    std::vector<Case> all;
    auto variants = variants_;
    if (variants.empty()) variants.emplace_back(std::string(), nullptr);
    const std::vector<std::size_t> sizes = sized_ ? sizes_ : std::vector<std::size_t>{0};
    for (const auto& [variant_name, change] : variants) {
      for (const std::string& ports : ports_) {
        for (int d : dims_) {
          for (std::size_t m : sizes) {
            Case c;
            c.config = base_;
            if (change) change(c.config, c.settings);
            c.config.d = d;
            c.config.ports = Ports::parse(ports);
            c.d = d;
            c.ports = ports;
            c.variant = variant_name;
            c.m = m;
            c.sized = sized_;
            c.seed = case_seed(c);
            all.push_back(std::move(c));
          }
        }
      }
    }
    return all;
  }

  // Runs one case: every failure is in the result.
  CaseResult run(const Case& c) const {
    CaseResult result;
    result.run_case = c;
    const auto fail = [&](const std::string& what) { result.failures.push_back(c.name() + ": " + what); };
    if (!kernel_) {
      fail("KernelCheck: no kernel given");
      return result;
    }
    const int n = c.nodes();
    std::vector<Data> inputs(static_cast<std::size_t>(n));
    if (input_) {
      std::mt19937_64 rng(c.seed);
      for (int i = 0; i < n; ++i) inputs[static_cast<std::size_t>(i)] = input_(c, i, rng);
    }
    std::vector<Data> outputs(static_cast<std::size_t>(n));
    try {
      Machine machine(c.config, c.settings);
      result.report = machine.run([&](Node& node) {
        const auto i = static_cast<std::size_t>(node.id());
        kernel_(node, c, std::span<const T>(inputs[i]), outputs[i]);
      });
    } catch (const Error& e) {
      fail(std::string("the run failed: ") + e.what());
      return result;
    }

    if (reference_) {
      const std::vector<Data> expected = reference_(c, inputs);
      if (expected.size() != outputs.size()) {
        fail("the reference gave " + std::to_string(expected.size()) + " outputs for " + std::to_string(n) + " nodes");
      } else {
        for (std::size_t i = 0; i < outputs.size(); ++i)
          if (auto why = difference(static_cast<int>(i), outputs[i], expected[i])) fail(*why);
      }
    }

    if (predict_) {
      try {
        result.predicted = predict_(c);
      } catch (const Error& e) {
        fail(std::string("the prediction failed: ") + e.what());
        return result;
      }
      if (result.predicted && !tolerance_.accepts(result.report.makespan, *result.predicted)) {
        const Time got = result.report.makespan, want = *result.predicted;
        std::ostringstream out;
        out << "makespan " << got << " ps (" << to_us(got) << " us), predicted " << want << " ps (" << to_us(want)
            << " us), off by " << (got - want) << " ps; allowed " << tolerance_.allowed(want) << " ps";
        fail(out.str());
      }
    }
    for (const auto& f : checks_)
      if (std::string why = f(result); !why.empty()) fail(why);
    return result;
  }

  // Runs every case.
  std::vector<CaseResult> run() const {
    std::vector<CaseResult> results;
    for (const Case& c : cases()) results.push_back(run(c));
    return results;
  }

 private:
  // An empty std::function, a null function pointer or nullptr: no kernel, no prediction.
  template <class F>
  static bool is_empty(const F& f) {
    if constexpr (std::is_same_v<F, std::nullptr_t>) {
      return true;
    } else if constexpr (std::is_pointer_v<F> || requires { typename F::result_type; }) {
      return !f;  // a function pointer or a std::function
    } else {
      return false;
    }
  }

  static std::optional<std::string> difference(int node, const Data& got, const Data& want) {
    if (got.size() != want.size())
      return "node " + std::to_string(node) + " output has " + std::to_string(got.size()) + " elements, expected " +
             std::to_string(want.size());
    for (std::size_t k = 0; k < got.size(); ++k)
      if (!(got[k] == want[k]))
        return "node " + std::to_string(node) + " output differs first at element " + std::to_string(k) + ": got " +
               detail::shown(got[k]) + ", expected " + detail::shown(want[k]);
    return std::nullopt;
  }

  std::uint64_t case_seed(const Case& c) const {
    // Stable across runs and platforms (std::hash is not): FNV-1a over the case's name; a sweep without sizes keeps
    // the seeds it had before the size axis.
    std::uint64_t h = 1469598103934665603ull ^ seed_;
    auto mix = [&h](unsigned char b) {
      h ^= b;
      h *= 1099511628211ull;
    };
    mix(static_cast<unsigned char>(c.d));
    for (char ch : c.ports) mix(static_cast<unsigned char>(ch));
    mix(0);
    for (char ch : c.variant) mix(static_cast<unsigned char>(ch));
    if (c.sized)
      for (int byte = 0; byte < 8; ++byte) mix(static_cast<unsigned char>((c.m >> (8 * byte)) & 0xffu));
    return h;
  }

  std::vector<int> dims_{0, 1, 2, 3, 4};
  std::vector<std::string> ports_{"one"};
  std::vector<std::size_t> sizes_;
  bool sized_ = false;
  MachineConfig base_;
  std::vector<std::pair<std::string, std::function<void(MachineConfig&, EmulatorSettings&)>>> variants_;
  std::uint64_t seed_ = 1;
  InputFn input_;
  CaseKernelFn kernel_;
  ReferenceFn reference_;
  CasePredictFn predict_;
  Tolerance tolerance_ = Tolerance::exact();
  std::vector<ResultCheck> checks_;
};

// Random bytes, for inputs.
inline std::vector<std::byte> random_bytes(std::size_t n, std::mt19937_64& rng) {
  std::vector<std::byte> v(n);
  for (auto& b : v) b = static_cast<std::byte>(rng() & 0xffu);
  return v;
}

}  // namespace hcemu::testing
