#pragma once
// An algorithm as the `hcemu` command, the tests and the docs know it: one row (hcemu::Algorithm) with its name, the
// paper and section, the port models it is made for, its own parameters with their names and defaults, how to run it
// (the kernel call on a fresh machine, with data it makes and verifies itself), how to predict its time (the closed
// form), and its lower bound when it has one. Rows make up kernel families (hcemu::KernelFamily: "exchange",
// "broadcast", or one of a user's own such as "allreduce"); `run`, `sweep`, `plan`, `fit`, `--help`, `--algo all`, the
// JSON and the docs' algorithm tables are read off them.
//
// The built-in families are rows of this type too. A program adds its own before it runs anything:
//
//   HCEMU_REGISTER_FAMILY(my_allreduce_family());                  // a family of its own
//   HCEMU_REGISTER_ALGORITHM("exchange", my_exchange_row());        // a row of an existing family
//   int main(int argc, char** argv) { return hcemu::cli::main(argc, argv); }   // hcemu/cli.hpp
//
// or calls hcemu::register_family / hcemu::register_algorithm itself. docs/your_algorithm.md shows a whole example.
// CMake: hcemu::algorithms (this header's registry), which hcemu::cli links.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "hcemu/config.hpp"
#include "hcemu/model/sync.hpp"
#include "hcemu/node.hpp"
#include "hcemu/report.hpp"
#include "hcemu/time.hpp"

namespace hcemu {

// An algorithm's own parameters by the names its row declares ("groups" -> 5, "partition" -> {2, 3}, "perm" ->
// "bit-reversal"). A case carries those it was given; the case as run carries every one it ran with (the optimum
// chosen for a 0, the partition the planner chose).
class Params {
 public:
  using Value = std::variant<std::uint64_t, std::vector<int>, std::string>;

  void set(std::string name, std::uint64_t number) { values_[std::move(name)] = number; }
  void set(std::string name, std::vector<int> parts) { values_[std::move(name)] = std::move(parts); }
  void set(std::string name, std::string text) { values_[std::move(name)] = std::move(text); }
  bool has(std::string_view name) const { return values_.find(name) != values_.end(); }
  // A count or size; 0 when not given (0 asks for the paper's optimum).
  std::uint64_t number(std::string_view name) const;
  // A partition; empty when not given.
  const std::vector<int>& parts(std::string_view name) const;
  // A word (a permutation's name); empty when not given.
  const std::string& text(std::string_view name) const;
  void erase(std::string_view name);
  bool empty() const { return values_.empty(); }
  const std::map<std::string, Value, std::less<>>& values() const { return values_; }
  friend bool operator==(const Params&, const Params&) = default;

 private:
  std::map<std::string, Value, std::less<>> values_;
};

// The largest size m a case takes: 1 TiB, far beyond what a host holds, and small enough that m times the node
// count, the buffers' sizes, never overflows (2^40 * 2^16 = 2^56 bytes; docs/model.md §10).
inline constexpr std::size_t kMaxCaseBytes = std::size_t{1} << 40;

// One run of one algorithm.
struct KernelCase {
  std::string algo;        // a row's name
  std::size_t m = 64;      // the size: KernelFamily::m_is says what it counts
  Sync sync = Sync::none;  // the exchanges' synchronisation (Nicol & Bokhari 1994 §4)
  int root = 0;            // the root, in a family whose algorithms start from or end at one (KernelFamily::rooted)
  std::uint64_t seed = 1;  // random data
  Params params;           // the algorithm's own parameters
};

struct KernelResult {
  KernelCase run_case;  // as run: every parameter the algorithm ran with, m as used
  RunReport report;
  bool verified = false;
  std::string verify_message;       // why verification failed, empty when it passed
  std::optional<Time> predicted;    // the closed form for this case, when the model has one
  std::optional<Time> lower_bound;  // no algorithm can do the case faster, when the papers give a bound
  std::optional<Time> paper_table;  // the paper's own table figure for the case, where it idealises (Algorithm)
};

// count and bytes: 0 when not given (the paper's optimum); node: a node id, where 0 is node 0 and not given is
// Params::has; text: a word (a permutation's name), empty when not given.
enum class ParamKind { count, bytes, partition, text, node };

// One of an algorithm's own parameters. Each becomes an option of the command (`--NAME`), shared with every other
// row that takes a parameter of that name.
struct ParamSpec {
  std::string name;    // the key in Params, the command line's --NAME, the JSON key: "groups"
  std::string symbol;  // the paper's letter, shown in labels ("bcast4 g=5"): "g"
  ParamKind kind = ParamKind::count;
  std::string doc;  // one line: what it is, where in the paper, and its default
  // The pipelining granularity, which the command's older --pieces (and the JSON's "pieces") also set.
  bool granularity = false;
  // Chosen by the algorithm itself and reported, never asked for (Direct's partition {d}, auto's planned one); a case
  // that carries it keeps it, so that a case as run predicts and runs again as it ran.
  bool chosen = false;
};

using RunFn = std::function<KernelResult(const MachineConfig&, const EmulatorSettings&, const KernelCase&)>;
using TimeFn = std::function<std::optional<Time>(const MachineConfig&, const KernelCase&)>;
using CasesFn = std::function<std::vector<KernelCase>(const MachineConfig&, const KernelCase& base)>;

struct Algorithm {
  std::string name;   // "bcast4"
  std::string paper;  // "Stout & Wagar (1990) §2, BROADCAST 4"
  // The port models it is made for, where its closed form holds; empty: every one. `--algo all` runs it only there
  // (elsewhere it still runs on request, without a closed form).
  std::vector<Ports::Kind> ports;
  std::vector<ParamSpec> params;
  // The case as it will run: a parameter left at 0 gets the paper's optimum for this machine and m; what the
  // algorithm cannot run is a UsageError. Empty: the case as given.
  std::function<KernelCase(const MachineConfig&, KernelCase)> resolve;
  // Why it cannot run on this machine ("needs an even d"), or empty; `--algo all` leaves it out then.
  std::function<std::string(const MachineConfig&)> cannot_run;
  // How to run it: the kernel call on a fresh Machine(config, settings) with data made from the case's seed and
  // verified (a resolved case). hcemu::run_verified does the machine and the verdict.
  RunFn run;
  // How to predict it: the closed form (a resolved case); nullopt where the model has none. Empty: none ever.
  TimeFn predict;
  // The lower bound of its problem on this machine, when the papers give one (hcemu/model/lower_bounds.hpp); empty
  // for none.
  TimeFn lower_bound;
  // The cases `--algo all` runs of it (the multiphase exchange: every equipartition). Empty: the base case, when the
  // machine's port model is one it is made for and it can run.
  CasesFn all_cases;
  // The figure the paper's table prints for the case, where the table idealises what the algorithm does (Johnsson &
  // Ho's SBnT rows count perfectly balanced subtrees; predict is the exact tree's time), so that a reader sees both;
  // nullopt where it gives none. Empty: the table and predict agree, or the paper has no table.
  TimeFn paper_table = {};

  bool suits(const Ports& machine_ports) const;
  const ParamSpec* param(std::string_view name) const;
  const ParamSpec* granularity() const;
};

struct KernelFamily {
  std::string name;     // "broadcast": the command's kernel (`hcemu run broadcast`)
  std::string summary;  // one line, with the papers
  std::string m_is;     // what KernelCase::m is for this family: "bytes of the message"
  std::string default_algo;  // the row `run` runs without --algo; empty: the first
  std::vector<Algorithm> algorithms;
  // What every algorithm of the family does to a case before its own resolve (the transpose's block side, the
  // broadcast's root check). Empty: nothing.
  std::function<KernelCase(const MachineConfig&, KernelCase)> resolve;
  bool rooted = false;  // its algorithms start from or end at KernelCase::root (broadcast, scatter, gather, reduce)

  // The row of that name; throws UsageError naming the nearest and every algorithm.
  const Algorithm& algorithm(std::string_view algo) const;
  // The row that takes parameter `param` as an input, when exactly one does (a bare --partition: the multiphase
  // exchange); nullptr otherwise.
  const Algorithm* only_taker_of(std::string_view param) const;
  std::vector<std::string> algorithm_names() const;
  // The case as it will run (the family's resolve, then the row's).
  KernelCase resolved(const MachineConfig& config, const KernelCase& c) const;
  // Runs one case on a fresh Machine(config, settings): resolved, run, predicted.
  KernelResult run(const MachineConfig& config, const EmulatorSettings& settings, const KernelCase& c) const;
  // The closed form without running anything.
  std::optional<Time> predict(const MachineConfig& config, const KernelCase& c) const;
  // The cases `--algo all` runs on this machine, every row's in order.
  std::vector<KernelCase> expand_all(const MachineConfig& config, const KernelCase& base) const;
};

// ----- The registry: the built-in families, then a program's own -----

// Every family: the built-in ones in the order `hcemu run --help` lists them, then those registered, in the order
// they were. A family's rows: its own, then those registered to it. References stay valid while rows are registered
// to other families; registering a row to a family moves that family's rows.
const std::deque<KernelFamily>& families();
// The family of that name; throws UsageError naming the nearest and every family.
const KernelFamily& find_family(std::string_view name);

// Adds a family of one's own. Throws UsageError when a family of that name exists (a row of one's own joins an
// existing family with register_algorithm), when it has no rows, when two rows share a name, or when its
// default_algo names none of them. Registration before main (HCEMU_REGISTER_FAMILY, from any translation unit in
// any order) is kept and checked when families() is first read, so that the order of static initialisation never
// matters; registration later is checked at once. Not thread-safe: register before running anything.
void register_family(KernelFamily family);
// Adds a row to the family `family`, a built-in one or one registered (before main: in any order of registration).
// Throws UsageError when the family does not exist or has a row of that name, when the name is empty or "all", or
// when the row has no run.
void register_algorithm(std::string family, Algorithm row);

// ----- What a row's run needs -----

// Runs `body` on every node of a fresh Machine(config, settings), a row's whole run in one call: each node makes its
// data from the case's seed (hcemu/case_data.hpp), calls the kernel, checks its own result and, when it is wrong,
// calls fail("node 3: element 7 is 2.5, the sum is 3") (each node at most once; the first sentence any node gives
// is the result's verify_message). The result has the run's report, and verified; run_case, predicted and
// lower_bound are KernelFamily::run's to fill.
using FailFn = std::function<void(std::string sentence)>;
KernelResult run_verified(const MachineConfig& config, const EmulatorSettings& settings,
                          const std::function<void(Node& node, const FailFn& fail)>& body);

}  // namespace hcemu

#define HCEMU_DETAIL_CONCAT_INNER(a, b) a##b
#define HCEMU_DETAIL_CONCAT(a, b) HCEMU_DETAIL_CONCAT_INNER(a, b)

// Registers a row (an expression of type hcemu::Algorithm, which may hold commas: hcemu::Algorithm{.name = ...})
// with the family named `family` when the program starts (or, in a library loaded with `hcemu --load`, when it is
// loaded). Any number per source file, one per line.
#define HCEMU_REGISTER_ALGORITHM(family, ...)                                                            \
  [[maybe_unused]] static const bool HCEMU_DETAIL_CONCAT(hcemu_registered_algorithm_, __LINE__) = [] { \
    ::hcemu::register_algorithm(family, __VA_ARGS__);                                                    \
    return true;                                                                                         \
  }()

// Registers a family (an expression of type hcemu::KernelFamily) when the program starts, or when loaded.
#define HCEMU_REGISTER_FAMILY(...)                                                                    \
  [[maybe_unused]] static const bool HCEMU_DETAIL_CONCAT(hcemu_registered_family_, __LINE__) = [] { \
    ::hcemu::register_family(__VA_ARGS__);                                                            \
    return true;                                                                                      \
  }()
