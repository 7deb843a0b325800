#include "hcemu/algorithm.hpp"

#include <algorithm>
#include <map>
#include <string_view>
#include <vector>

#include "common/nearest_name.hpp"
#include "harness/verification.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/model/transfer.hpp"

namespace hcemu {

std::uint64_t Params::number(std::string_view name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return 0;
  const auto* n = std::get_if<std::uint64_t>(&it->second);
  return n ? *n : 0;
}

const std::vector<int>& Params::parts(std::string_view name) const {
  static const std::vector<int> none;
  auto it = values_.find(name);
  if (it == values_.end()) return none;
  const auto* p = std::get_if<std::vector<int>>(&it->second);
  return p ? *p : none;
}

const std::string& Params::text(std::string_view name) const {
  static const std::string none;
  auto it = values_.find(name);
  if (it == values_.end()) return none;
  const auto* t = std::get_if<std::string>(&it->second);
  return t ? *t : none;
}

void Params::erase(std::string_view name) {
  auto it = values_.find(name);
  if (it != values_.end()) values_.erase(it);
}

bool Algorithm::suits(const Ports& machine_ports) const {
  return ports.empty() || std::find(ports.begin(), ports.end(), machine_ports.kind) != ports.end();
}

const ParamSpec* Algorithm::param(std::string_view wanted) const {
  for (const ParamSpec& p : params)
    if (p.name == wanted) return &p;
  return nullptr;
}

const ParamSpec* Algorithm::granularity() const {
  for (const ParamSpec& p : params)
    if (p.granularity) return &p;
  return nullptr;
}

const Algorithm& KernelFamily::algorithm(std::string_view algo) const {
  for (const Algorithm& a : algorithms)
    if (a.name == algo) return a;
  const auto names = algorithm_names();
  const std::string hint = detail::nearest_name(algo, names);
  throw UsageError("kernel '" + std::string(name) + "' has no algorithm '" + std::string(algo) + "'" +
                   (hint.empty() ? "" : "; did you mean '" + hint + "'?") + " (algorithms: " + detail::joined(names) +
                   ", all)");
}

const Algorithm* KernelFamily::only_taker_of(std::string_view param) const {
  const Algorithm* taker = nullptr;
  for (const Algorithm& a : algorithms) {
    const ParamSpec* p = a.param(param);
    if (!p || p->chosen) continue;
    if (taker) return nullptr;
    taker = &a;
  }
  return taker;
}

std::vector<std::string> KernelFamily::algorithm_names() const {
  std::vector<std::string> names;
  for (const Algorithm& a : algorithms) names.emplace_back(a.name);
  return names;
}

KernelCase KernelFamily::resolved(const MachineConfig& config, const KernelCase& c) const {
  const Algorithm& row = algorithm(c.algo);
  if (c.m > kMaxCaseBytes)
    throw UsageError(std::string(name) + ": m = " + std::to_string(c.m) +
                     " bytes is more than a case takes (at most 2^40 bytes, 1 TiB)");
  if (row.cannot_run) {
    if (const std::string why = row.cannot_run(config); !why.empty())
      throw UsageError(std::string(name) + " " + c.algo + ": " + why);
  }
  KernelCase r = resolve ? resolve(config, c) : c;
  // A parameter the algorithm does not take is not part of its case.
  for (auto it = r.params.values().begin(); it != r.params.values().end();) {
    const std::string given = (it++)->first;
    if (!row.param(given)) r.params.erase(given);
  }
  return row.resolve ? row.resolve(config, std::move(r)) : r;
}

namespace {
// A closed form's value, checked: the building blocks (CostTable, model::message_time) throw TimeOverflow when they
// pass 2^62 ps; what a form makes of them must stay within the range too.
std::optional<Time> within_range(std::optional<Time> t) {
  if (t && (*t < 0 || *t > kTimeLimit))
    throw TimeOverflow("the closed form of this case passes the model's range of 2^62 ps (about 53 days)");
  return t;
}
}  // namespace

KernelResult KernelFamily::run(const MachineConfig& config, const EmulatorSettings& settings,
                               const KernelCase& c) const {
  const Algorithm& row = algorithm(c.algo);
  const KernelCase r = resolved(config, c);
  // Before the run: a case whose closed form leaves the model's range fails at once, not after the run.
  const bool forms = model::transfer_forms_apply(config);  // none under LogGP
  const std::optional<Time> predicted =
      forms && row.predict ? within_range(row.predict(config, r)) : std::nullopt;
  const std::optional<Time> bound = forms && row.lower_bound ? within_range(row.lower_bound(config, r)) : std::nullopt;
  KernelResult result = row.run(config, settings, r);
  result.run_case = r;
  result.predicted = predicted;
  result.lower_bound = bound;
  result.paper_table = row.paper_table ? within_range(row.paper_table(config, r)) : std::nullopt;
  return result;
}

std::optional<Time> KernelFamily::predict(const MachineConfig& config, const KernelCase& c) const {
  const Algorithm& row = algorithm(c.algo);
  if (!row.predict || !model::transfer_forms_apply(config)) return std::nullopt;
  return within_range(row.predict(config, resolved(config, c)));
}

std::vector<KernelCase> KernelFamily::expand_all(const MachineConfig& config, const KernelCase& base) const {
  std::vector<KernelCase> cases;
  for (const Algorithm& row : algorithms) {
    KernelCase c = base;
    c.algo = std::string(row.name);
    // What the machine cannot run is left out, whatever cases the row would expand to.
    if (row.cannot_run && !row.cannot_run(config).empty()) continue;
    if (row.all_cases) {
      for (KernelCase& k : row.all_cases(config, c)) cases.push_back(std::move(k));
    } else if (row.suits(config.ports)) {
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

KernelResult run_verified(const MachineConfig& config, const EmulatorSettings& settings,
                          const std::function<void(Node& node, const FailFn& fail)>& body) {
  KernelResult result;
  harness::FirstFailure failure;
  const FailFn fail = [&failure](std::string sentence) { failure.report(std::move(sentence)); };
  Machine machine(config, settings);
  result.report = machine.run([&](Node& node) { body(node, fail); });
  failure.record_into(result, machine);
  return result;
}

}  // namespace hcemu
