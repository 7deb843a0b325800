#pragma once
// The algorithms of the kernel families, one row each: what the `hcemu` command, the tests and the docs know of an
// algorithm — its name, paper and section, the port models it is made for, its own parameters with their names and
// defaults, how to run it (the kernel call, on a machine built by the family's harness, with random data verified
// against a sequential reference), how to predict its time, and its lower bound when it has one. The registries,
// `--help`, the error messages, `--algo all` and the docs' algorithm tables are read off these rows.
//
// The harness is a layer above the kernels (hcemu_kernels holds only kernels written against the node API): it
// builds machines, makes data, runs cases and verifies them. Rows live in src/harness/*_family.cpp.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "hcemu/config.hpp"
#include "hcemu/model/sync.hpp"
#include "hcemu/report.hpp"

namespace hcemu::harness {

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

// One run of one algorithm.
// The largest size m a case takes: 1 TiB, far beyond what a host holds, and small enough that m times the node
// count, the buffers' sizes, never overflows (2^40 * 2^16 = 2^56 bytes).
inline constexpr std::size_t kMaxCaseBytes = std::size_t{1} << 40;

struct KernelCase {
  std::string algo;        // a row's name
  std::size_t m = 64;      // the size: KernelFamily::m_is says what it counts
  Sync sync = Sync::none;  // the exchanges' synchronisation (Nicol & Bokhari 1994 §4)
  int root = 0;            // the broadcast's root
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
};

// count and bytes: 0 when not given (the paper's optimum); node: a node id, where 0 is node 0 and not given is
// Params::has; text: a word (a permutation's name), empty when not given.
enum class ParamKind { count, bytes, partition, text, node };

// One of an algorithm's own parameters.
struct ParamSpec {
  std::string_view name;    // the key in Params, the command line's --NAME, the JSON key: "groups"
  std::string_view symbol;  // the paper's letter, shown in labels ("bcast4 g=5"): "g"
  ParamKind kind;
  std::string_view doc;  // one line: what it is, where in the paper, and its default
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
  std::string_view name;   // "bcast4"
  std::string_view paper;  // "Stout & Wagar (1990) §2, BROADCAST 4"
  // The port models it is made for, where its closed form holds; empty: every one. `--algo all` runs it only there
  // (elsewhere it still runs on request, without a closed form).
  std::vector<Ports::Kind> ports;
  std::vector<ParamSpec> params;
  // The case as it will run: a parameter left at 0 gets the paper's optimum for this machine and m; what the
  // algorithm cannot run is a UsageError. Empty: the case as given.
  std::function<KernelCase(const MachineConfig&, KernelCase)> resolve;
  // Why it cannot run on this machine ("needs an even d"), or empty; `--algo all` leaves it out then.
  std::function<std::string(const MachineConfig&)> cannot_run;
  // How to run it: the kernel call inside the family's harness (a resolved case).
  RunFn run;
  // How to predict it: the closed form (a resolved case); nullopt where the model has none.
  TimeFn predict;
  // The lower bound of its problem on this machine, when the papers give one (model/lower_bounds.hpp); empty for
  // none.
  TimeFn lower_bound;
  // The cases `--algo all` runs of it (the multiphase exchange: every equipartition). Empty: the base case, when the
  // machine's port model is one it is made for and it can run.
  CasesFn all_cases;

  bool suits(const Ports& machine_ports) const;
  const ParamSpec* param(std::string_view name) const;
  const ParamSpec* granularity() const;
};

struct KernelFamily {
  std::string_view name;     // "broadcast"
  std::string_view summary;  // one line, with the papers
  std::string_view m_is;     // what KernelCase::m is for this family: "bytes of the message"
  std::string_view default_algo;
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

// Every family, in the order `hcemu run --help` lists them.
const std::vector<KernelFamily>& families();
// The family of that name; throws UsageError naming the nearest and every family.
const KernelFamily& find_family(std::string_view name);

// Each family's rows, defined next to its harness (src/harness/*_family.cpp).
KernelFamily exchange_family();
KernelFamily transpose_family();
KernelFamily broadcast_family();
KernelFamily allgather_family();
KernelFamily histogram_family();
KernelFamily reduce_family();
KernelFamily matmul_family();
KernelFamily long_send_family();
KernelFamily scatter_family();
KernelFamily gather_family();
KernelFamily permutation_family();

}  // namespace hcemu::harness
