// The registry of kernel families (hcemu/algorithm.hpp): the built-in ones, each read off its rows in
// src/harness/*_family.cpp, then a program's own and those of libraries loaded with `hcemu --load`.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/nearest_name.hpp"
#include "harness/algorithm.hpp"
#include "hcemu/errors.hpp"

namespace hcemu::harness {

namespace {

// The algorithms of the kernels other than the exchange that run on a torus or mesh: they address their partners by
// node id, as the machine's routes take them, where the others send along the cube's dimension links
// (Node::neighbor(dimension)) or run the exchange's cube schedules, which a torus has not, or deadlock there (reduce
// recursive-halving, transpose rows-auto). Measured on tori and meshes of 4 to 64 nodes, square and not, with one
// port and all ports and m = 8, 64 and 1000; an algorithm left out of this list refuses a torus or mesh up front.
const std::map<std::string_view, std::vector<std::string_view>>& grid_algorithms() {
  static const std::map<std::string_view, std::vector<std::string_view>> rows = {
      {"allgather", {"cra", "rotated-cra", "gcea", "sbnt"}},
      {"reduce", {"sbnt"}},
      {"matmul", {"a1-cra", "a1-sbnt", "a1-2d", "a1-2d-sbnt", "outer-product"}},
      {"transpose", {"rows-direct"}},
      {"long-send", {"direct", "ocs1"}},
      {"scatter", {"sbt", "sbnt"}},
      {"gather", {"sbt"}},
      {"permutation", {"ecube"}},
  };
  return rows;
}

// What runs on a torus or mesh instead: the kernel's own algorithms that do, or else the exchange's.
std::string on_a_grid(std::string_view kernel, const std::vector<std::string>& exchange) {
  const auto found = grid_algorithms().find(kernel);
  if (found == grid_algorithms().end())
    return "no " + std::string(kernel) + " algorithm runs on a torus or mesh; the exchange's " +
           detail::joined(exchange) + " do";
  std::vector<std::string> names(found->second.begin(), found->second.end());
  return "on a torus or mesh " + std::string(kernel) + " runs " + detail::joined(names);
}

// A family of kernels made for the hypercube: each algorithm not in grid_algorithms refuses a torus or mesh up front,
// as the exchange's cube schedules do, rather than fail inside the run. `exchange` names the exchange's algorithms
// that run there.
KernelFamily on_the_cube(KernelFamily family, const KernelFamily& exchange) {
  MachineConfig torus;
  torus.d = 4;
  torus.topology = Topology::parse("torus");
  std::vector<std::string> grid_exchange;
  for (const Algorithm& row : exchange.algorithms)
    if (!row.cannot_run || row.cannot_run(torus).empty()) grid_exchange.emplace_back(row.name);
  const auto found = grid_algorithms().find(family.name);
  for (Algorithm& row : family.algorithms) {
    if (found != grid_algorithms().end() &&
        std::find(found->second.begin(), found->second.end(), row.name) != found->second.end())
      continue;
    const std::string elsewhere = on_a_grid(family.name, grid_exchange);
    row.cannot_run = [own = std::move(row.cannot_run), elsewhere](const MachineConfig& config) -> std::string {
      if (config.topology.grid())
        return "made for the hypercube (its dimension links and e-cube routes), and this machine is a " +
               config.topology.str() + "; " + elsewhere;
      return own ? own(config) : std::string();
    };
  }
  return family;
}

}  // namespace

std::vector<KernelFamily> builtin_families() {
  const KernelFamily exchange = exchange_family();
  return {exchange,
          on_the_cube(transpose_family(), exchange),
          on_the_cube(broadcast_family(), exchange),
          on_the_cube(allgather_family(), exchange),
          on_the_cube(histogram_family(), exchange),
          on_the_cube(reduce_family(), exchange),
          on_the_cube(matmul_family(), exchange),
          on_the_cube(long_send_family(), exchange),
          on_the_cube(scatter_family(), exchange),
          on_the_cube(gather_family(), exchange),
          on_the_cube(permutation_family(), exchange)};
}

namespace {

// What was registered and not yet checked: families first, then rows, each in the order given, so that a row may
// be registered (from another translation unit, before main) ahead of its family.
struct Pending {
  std::vector<KernelFamily> families;
  std::vector<std::pair<std::string, Algorithm>> rows;
  bool empty() const { return families.empty() && rows.empty(); }
};

struct Registry {
  std::deque<KernelFamily> all;
  std::size_t builtin = 0;  // the first `builtin` of `all` are hcemu's own
  bool built = false;
  bool held = false;
  Pending pending;
};

// Function-local, so that registrations from static initialisers in any translation unit, in any order, find it.
Registry& registry() {
  static Registry r;
  return r;
}

bool is_builtin(const Registry& r, const KernelFamily& family) {
  for (std::size_t i = 0; i < r.builtin; ++i)
    if (&r.all[i] == &family) return true;
  return false;
}

KernelFamily* family_named(Registry& r, std::string_view name) {
  for (KernelFamily& f : r.all)
    if (f.name == name) return &f;
  return nullptr;
}

// Why `row` cannot join `family`, or empty.
std::string row_problem(const KernelFamily& family, const Algorithm& row) {
  const std::string where = "algorithm '" + row.name + "' of kernel '" + family.name + "'";
  if (row.name.empty()) return "an algorithm of kernel '" + family.name + "' has no name";
  if (row.name == "all") return where + ": 'all' is --algo's word for every algorithm; choose another name";
  if (row.name.find_first_of(" ,=") != std::string::npos)
    return where + ": a name is one word without spaces, commas or '=' (--algo A,B lists names)";
  if (!row.run) return where + " has no run";
  return {};
}

void add_family(Registry& r, KernelFamily family) {
  if (family.name.empty()) throw UsageError("a kernel family registered without a name");
  if (const KernelFamily* there = family_named(r, family.name))
    throw UsageError("a kernel family named '" + family.name + "' exists already" +
                     (is_builtin(r, *there) ? " (built in)" : "") +
                     "; a row of one's own joins it with hcemu::register_algorithm(\"" + family.name + "\", row)");
  if (family.algorithms.empty()) throw UsageError("kernel '" + family.name + "' is registered without algorithms");
  std::vector<std::string> names;
  for (const Algorithm& row : family.algorithms) {
    if (std::string why = row_problem(family, row); !why.empty()) throw UsageError(why);
    if (std::find(names.begin(), names.end(), row.name) != names.end())
      throw UsageError("kernel '" + family.name + "' has two algorithms named '" + row.name + "'");
    names.push_back(row.name);
  }
  if (family.default_algo.empty()) family.default_algo = family.algorithms.front().name;
  if (std::find(names.begin(), names.end(), family.default_algo) == names.end())
    throw UsageError("kernel '" + family.name + "': its default algorithm '" + family.default_algo +
                     "' is none of its algorithms (" + detail::joined(names) + ")");
  r.all.push_back(std::move(family));
}

void add_row(Registry& r, const std::string& family_name, Algorithm row) {
  KernelFamily* family = family_named(r, family_name);
  if (!family) {
    std::vector<std::string> names;
    for (const KernelFamily& f : r.all) names.push_back(f.name);
    const std::string hint = detail::nearest_name(family_name, names);
    throw UsageError("algorithm '" + row.name + "' is registered to kernel '" + family_name +
                     "', which does not exist" + (hint.empty() ? "" : "; did you mean '" + hint + "'?") +
                     " (kernels: " + detail::joined(names) +
                     "; a family of one's own is registered with hcemu::register_family)");
  }
  if (std::string why = row_problem(*family, row); !why.empty()) throw UsageError(why);
  for (const Algorithm& there : family->algorithms)
    if (there.name == row.name) {
      throw UsageError("kernel '" + family->name + "' has an algorithm named '" + row.name + "' already" +
                       (is_builtin(r, *family) ? " (built in)" : "") + "; give the new one a name of its own");
    }
  family->algorithms.push_back(std::move(row));
}

// Checks and adds what is pending; the first problem is thrown after every other registration is added.
void apply_pending(Registry& r) {
  if (r.held || r.pending.empty()) return;
  Pending batch = std::exchange(r.pending, Pending{});
  std::optional<UsageError> first;
  auto attempt = [&](auto&& add) {
    try {
      add();
    } catch (const UsageError& e) {
      if (!first) first = e;
    }
  };
  for (KernelFamily& f : batch.families) attempt([&] { add_family(r, std::move(f)); });
  for (auto& [family, row] : batch.rows) attempt([&] { add_row(r, family, std::move(row)); });
  if (first) throw *first;
}

}  // namespace

void hold_registrations() { registry().held = true; }

void release_registrations(bool keep) {
  Registry& r = registry();
  r.held = false;
  if (!keep) {
    r.pending = Pending{};
    return;
  }
  if (r.built) apply_pending(r);
}

}  // namespace hcemu::harness

namespace hcemu {

const std::deque<KernelFamily>& families() {
  harness::Registry& r = harness::registry();
  if (!r.built) {
    for (KernelFamily& f : harness::builtin_families()) r.all.push_back(std::move(f));
    r.builtin = r.all.size();
    r.built = true;
  }
  harness::apply_pending(r);
  return r.all;
}

const KernelFamily& find_family(std::string_view name) {
  std::vector<std::string> names;
  for (const KernelFamily& f : families()) {
    if (f.name == name) return f;
    names.emplace_back(f.name);
  }
  const std::string hint = detail::nearest_name(name, names);
  throw UsageError("no kernel named '" + std::string(name) + "'" +
                   (hint.empty() ? "" : "; did you mean '" + hint + "'?") + " (kernels: " + detail::joined(names) +
                   ")");
}

void register_family(KernelFamily family) {
  harness::Registry& r = harness::registry();
  r.pending.families.push_back(std::move(family));
  if (r.built) harness::apply_pending(r);
}

void register_algorithm(std::string family, Algorithm row) {
  harness::Registry& r = harness::registry();
  r.pending.rows.emplace_back(std::move(family), std::move(row));
  if (r.built) harness::apply_pending(r);
}

}  // namespace hcemu
