// The long sends of one node's m bytes to one other node (Stout & Wagar 1990 §3-4), one row each, and the harness
// they run in: the source holds m random bytes, every other node zeros, and the destination must end with the
// source's bytes; the two exchanges send both ways, and each end must end with the other's bytes. The pair is the
// case's `src` and `dst` (--src, --dst; by default node 0 and its opposite corner).
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "harness/algorithm.hpp"
#include "harness/case_data.hpp"
#include "harness/verification.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/kernels/long_send.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/model/long_send.hpp"
#include "hcemu/model/lower_bounds.hpp"

namespace hcemu::harness {
// The family's rows and helpers, in a namespace of its own: the families name theirs alike (sbnt(), problem_bound).
namespace long_send_rows {
namespace {

int src_of(const KernelCase& c) { return static_cast<int>(c.params.number("src")); }
int dst_of(const KernelCase& c) { return static_cast<int>(c.params.number("dst")); }
// The distance n = popcount(src ^ dst) of a resolved case.
int distance_of(const KernelCase& c) { return model::pair_distance(src_of(c), dst_of(c)); }
int groups_of(const KernelCase& c, std::string_view name = "groups") { return static_cast<int>(c.params.number(name)); }

// The pair of a case as given (src 0 and its opposite corner unless named); checks that both are nodes.
std::pair<int, int> pair_of(const MachineConfig& config, const KernelCase& c) {
  const std::uint64_t nodes = static_cast<std::uint64_t>(config.nodes());
  const std::uint64_t src = c.params.number("src");
  if (src >= nodes)
    throw UsageError("long-send: --src " + std::to_string(src) + " is not a node of a cube of " +
                     std::to_string(nodes) + " nodes");
  const std::uint64_t dst = c.params.has("dst") ? c.params.number("dst") : src ^ (nodes - 1);
  if (dst >= nodes)
    throw UsageError("long-send: --dst " + std::to_string(dst) + " is not a node of a cube of " +
                     std::to_string(nodes) + " nodes");
  return {static_cast<int>(src), static_cast<int>(dst)};
}

std::vector<ParamSpec> pair_params() {
  return {{"src", "src", ParamKind::node, "the sending node; default 0", false, false},
          {"dst", "dst", ParamKind::node, "the receiving node; default the source's opposite corner", false, false}};
}

// The pair's parameters and the algorithm's own.
std::vector<ParamSpec> with_pair(std::vector<ParamSpec> own) {
  for (ParamSpec& p : pair_params()) own.push_back(p);
  return own;
}

ParamSpec groups_param(std::string doc) { return {"groups", "g", ParamKind::count, doc, true, false}; }

// A group count given (or 0 for the optimum `best`): at least 1, and no more than an int holds.
void resolve_groups(KernelCase& c, std::string_view name, std::string_view algo, int best) {
  const std::uint64_t g = c.params.number(name);
  if (g == 0)
    c.params.set(std::string(name), static_cast<std::uint64_t>(std::max(best, 1)));
  else if (g > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    throw UsageError("long-send " + std::string(algo) + ": " + std::to_string(g) + " groups are too many");
}

std::optional<Time> problem_bound(const MachineConfig& config, const KernelCase& c) {
  return model::long_send_lower_bound(config, c.m, src_of(c), dst_of(c));
}

using SendCall = std::function<void(Node&, std::span<std::byte> message, const KernelCase&)>;

RunFn send_run(SendCall call) {
  return [call](const MachineConfig& config, const EmulatorSettings& settings, const KernelCase& c) {
    KernelResult result;
    const int src = src_of(c), dst = dst_of(c);
    FirstFailure failure;
    Machine machine(config, settings);
    result.report = machine.run([&](Node& node) {
      Buffer<std::byte> message = node.allocate<std::byte>(c.m);
      if (node.id() == src) data::fill(message.span(), c.seed, static_cast<std::uint64_t>(src), 0);
      call(node, message.span(), c);
      if (node.id() != dst) return;
      const std::size_t k = data::first_mismatch(message.span(), c.seed, static_cast<std::uint64_t>(src), 0);
      if (k != c.m)
        failure.report("node " + std::to_string(dst) + ": the message differs from node " + std::to_string(src) +
                       "'s at byte " + std::to_string(k));
    });
    failure.record_into(result, machine);
    return result;
  };
}

// The exchanges: src and dst each hold m random bytes of their own, every other node zeros; each must end with the
// other's bytes.
RunFn exchange_run(SendCall call) {
  return [call](const MachineConfig& config, const EmulatorSettings& settings, const KernelCase& c) {
    KernelResult result;
    const int src = src_of(c), dst = dst_of(c);
    FirstFailure failure;
    Machine machine(config, settings);
    result.report = machine.run([&](Node& node) {
      const int me = node.id();
      Buffer<std::byte> message = node.allocate<std::byte>(c.m);
      if (me == src || me == dst) data::fill(message.span(), c.seed, static_cast<std::uint64_t>(me), 0);
      call(node, message.span(), c);
      if (me != src && me != dst) return;
      const int from = me == src ? dst : src;
      const std::size_t k = data::first_mismatch(message.span(), c.seed, static_cast<std::uint64_t>(from), 0);
      if (k != c.m)
        failure.report("node " + std::to_string(me) + ": the message differs from node " + std::to_string(from) +
                       "'s at byte " + std::to_string(k));
    });
    failure.record_into(result, machine);
    return result;
  };
}

// Runs where its ports and the pair allow (`--algo all`): X.O.C. SEND needs 1 <= n <= d - 1.
CasesFn where(std::vector<Ports::Kind> ports, bool beside_the_cube) {
  return [ports, beside_the_cube](const MachineConfig& config, const KernelCase& c) -> std::vector<KernelCase> {
    if (!ports.empty() && std::find(ports.begin(), ports.end(), config.ports.kind) == ports.end()) return {};
    if (beside_the_cube) {
      const auto [src, dst] = pair_of(config, c);
      const int n = model::pair_distance(src, dst);
      if (n < 1 || n > config.d - 1) return {};
    }
    return {c};
  };
}

Algorithm direct() {
  return {
      .name = "direct",
      .paper = "the plain send: one message src -> dst, routed by the machine (e-cube); the baseline",
      .ports = {},
      .params = pair_params(),
      .resolve = {},
      .cannot_run = {},
      .run = send_run([](Node& node, std::span<std::byte> message, const KernelCase& c) {
        kernels::direct_send(node, message, src_of(c), dst_of(c));
      }),
      .predict = [](const MachineConfig& config, const KernelCase& c) -> std::optional<Time> {
        return model::direct_send_time(config, c.m, distance_of(c));
      },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm ocs1() {
  return {
      .name = "ocs1",
      .paper = "Stout & Wagar (1990) §3, O.C. SEND 1: the whole message forwarded across one dimension per stage",
      .ports = {},
      .params = pair_params(),
      .resolve = {},
      .cannot_run = {},
      .run = send_run([](Node& node, std::span<std::byte> message, const KernelCase& c) {
        kernels::oc_send_1(node, message, src_of(c), dst_of(c));
      }),
      .predict = [](const MachineConfig& config, const KernelCase& c) -> std::optional<Time> {
        return model::oc_send_1_time(config, c.m, distance_of(c));
      },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm ocs2() {
  return {
      .name = "ocs2",
      .paper = "Stout & Wagar (1990) §3, O.C. SEND 2: n packets on n link-disjoint paths",
      .ports = {Ports::Kind::all},
      .params = pair_params(),
      .resolve = {},
      .cannot_run = {},
      .run = send_run([](Node& node, std::span<std::byte> message, const KernelCase& c) {
        kernels::oc_send_2(node, message, src_of(c), dst_of(c));
      }),
      .predict = [](const MachineConfig& config,
                    const KernelCase& c) { return model::oc_send_2_time(config, c.m, distance_of(c)); },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm ocs3() {
  return {
      .name = "ocs3",
      .paper =
          "Stout & Wagar (1990) §3, O.C. SEND 3: in stage k the nodes at distance k split what they hold evenly over "
          "their links to distance k + 1",
      .ports = {Ports::Kind::all},
      .params = pair_params(),
      .resolve = {},
      .cannot_run = {},
      .run = send_run([](Node& node, std::span<std::byte> message, const KernelCase& c) {
        kernels::oc_send_3(node, message, src_of(c), dst_of(c));
      }),
      .predict = [](const MachineConfig& config,
                    const KernelCase& c) { return model::oc_send_3_time(config, c.m, distance_of(c)); },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

// O.C. SEND 4 (§3) and ARBITRARY SEND 1 (§4) are one kernel: the latter is the former at a distance below d.
Algorithm ocs4(std::string name, std::string paper) {
  return {
      .name = name,
      .paper = paper,
      .ports = {Ports::Kind::all},
      .params = with_pair({groups_param("groups of lcm(1..n) units, each an O.C. SEND 3 passed on as soon as it "
                                        "arrives (Stout & Wagar 1990 §3); 0 = the g of least closed-form time, "
                                        "padding counted (the paper's optimum is sqrt((K_{n-1} - 1)τm/(nβ)))")}),
      .resolve =
          [name](const MachineConfig& config, KernelCase c) {
            resolve_groups(c, "groups", name, model::optimal_oc_send_groups(config, c.m, distance_of(c)));
            return c;
          },
      .cannot_run = {},
      .run = send_run([](Node& node, std::span<std::byte> message, const KernelCase& c) {
        kernels::oc_send_4(node, message, groups_of(c), src_of(c), dst_of(c));
      }),
      .predict = [](const MachineConfig& config,
                    const KernelCase& c) { return model::oc_send_4_time(config, c.m, distance_of(c), groups_of(c)); },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm as2() {
  return {
      .name = "as2",
      .paper = "Stout & Wagar (1990) §4, ARBITRARY SEND 2: BROADCAST 4 from src, stopped when dst has every packet",
      .ports = {Ports::Kind::all},
      .params = with_pair({groups_param("groups of d packets of BROADCAST 4 (Stout & Wagar 1990 §4), at most ⌈m/d⌉; "
                                        "0 = the g of least closed-form time (the paper's optimum is "
                                        "sqrt((n + 1)τm/(dβ)), sqrt((d - 1)τm/(dβ)) for n >= d - 1)")}),
      .resolve =
          [](const MachineConfig& config, KernelCase c) {
            // BROADCAST 4's packets of ⌈m/(dg)⌉ bytes, as broadcast bcast4 (broadcast_family.cpp): past g = ⌈m/d⌉,
            // where the optimum stops too, the groups only add empty packets.
            const auto d = static_cast<std::uint64_t>(std::max(config.d, 1));
            const std::uint64_t most = std::max<std::uint64_t>((c.m + d - 1) / d, 1);
            if (const std::uint64_t g = c.params.number("groups"); g > most)
              throw UsageError("long-send as2: " + std::to_string(g) + " groups of d = " + std::to_string(d) +
                               " packets cut m = " + std::to_string(c.m) + " bytes into more packets than bytes: at "
                               "most ⌈m/d⌉ = " + std::to_string(most) + " groups (more only add empty packets)");
            resolve_groups(c, "groups", "as2", model::optimal_arbitrary_send_2_groups(config, c.m, distance_of(c)));
            return c;
          },
      .cannot_run = {},
      .run = send_run([](Node& node, std::span<std::byte> message, const KernelCase& c) {
        kernels::arbitrary_send_2(node, message, groups_of(c), src_of(c), dst_of(c));
      }),
      .predict =
          [](const MachineConfig& config, const KernelCase& c) {
            return model::arbitrary_send_2_time(config, c.m, distance_of(c), groups_of(c));
          },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

// X.O.C. SEND 1 (one group) and 2 (§4): through a parallel n-cube, for 1 <= n <= d - 1.
Algorithm xocs(int version) {
  std::vector<ParamSpec> own;
  if (version == 2)
    own.push_back(groups_param(
        "groups of lcm(1..n) units through the parallel n-cube (Stout & Wagar 1990 §4, X.O.C. SEND 2); 0 = the g "
        "of least closed-form time, padding counted (the paper's optimum is sqrt((n + K_{n-1})τm/(nβ)))"));
  return {
      .name = version == 1 ? "xocs1" : "xocs2",
      .paper = version == 1
                   ? "Stout & Wagar (1990) §4, X.O.C. SEND 1: across a free dimension, O.C. SEND 3 through the "
                     "parallel n-cube, and back"
                   : "Stout & Wagar (1990) §4, X.O.C. SEND 2: X.O.C. SEND 1 in g groups, pipelined",
      .ports = {Ports::Kind::all},
      .params = with_pair(std::move(own)),
      .resolve =
          [version](const MachineConfig& config, KernelCase c) {
            const int n = distance_of(c);
            if (n < 1 || n > config.d - 1)
              throw UsageError("long-send xocs" + std::to_string(version) + " needs a destination at distance 1.." +
                               std::to_string(config.d - 1) + " from the source (--dst), not " + std::to_string(n) +
                               ": it steps out along a dimension in which they agree");
            if (version == 2) resolve_groups(c, "groups", "xocs2", model::optimal_xoc_send_groups(config, c.m, n));
            return c;
          },
      .cannot_run = {},
      .run = send_run([version](Node& node, std::span<std::byte> message, const KernelCase& c) {
        kernels::xoc_send(node, message, version == 1 ? 1 : groups_of(c), src_of(c), dst_of(c));
      }),
      .predict =
          [version](const MachineConfig& config, const KernelCase& c) {
            return model::xoc_send_time(config, c.m, distance_of(c), version == 1 ? 1 : groups_of(c));
          },
      .lower_bound = problem_bound,
      .all_cases = where({Ports::Kind::all}, true),
  };
}

// ARBITRARY SEND 3's two group counts, each 0 for the least time of its own part.
KernelCase resolve_as3_groups(const MachineConfig& config, KernelCase c, std::string_view algo) {
  const int n = distance_of(c);
  resolve_groups(c, "groups", algo,
                 model::optimal_oc_send_groups(config, model::arbitrary_send_3_oc_bytes(config.d, c.m, n), n));
  resolve_groups(
      c, "xoc-groups", algo,
      n < 1 ? 1 : model::optimal_xoc_send_groups(config, model::arbitrary_send_3_xoc_bytes(config.d, c.m, n), n));
  return c;
}

std::vector<ParamSpec> as3_params() {
  return with_pair(
      {groups_param("O.C. SEND 4 groups of the n parts that go through the n-cube (Stout & Wagar 1990 §4); 0 = "
                    "the g of least O.C. SEND 4 time for them"),
       {"xoc-groups", "g'", ParamKind::count,
        "X.O.C. SEND 2 groups of each other part (Stout & Wagar 1990 §4, ARBITRARY SEND 3); 0 = the g' of "
        "least X.O.C. SEND 2 time for the largest",
        false, false}});
}

Algorithm as3() {
  return {
      .name = "as3",
      .paper =
          "Stout & Wagar (1990) §4, ARBITRARY SEND 3: d parts, n by O.C. SEND 4 and each other by X.O.C. SEND 2, "
          "at once",
      .ports = {Ports::Kind::all},
      .params = as3_params(),
      .resolve = [](const MachineConfig& config, KernelCase c) { return resolve_as3_groups(config, c, "as3"); },
      .cannot_run = {},
      .run = send_run([](Node& node, std::span<std::byte> message, const KernelCase& c) {
        kernels::arbitrary_send_3(node, message, groups_of(c), groups_of(c, "xoc-groups"), src_of(c), dst_of(c));
      }),
      .predict =
          [](const MachineConfig& config, const KernelCase& c) {
            return model::arbitrary_send_3_time(config, c.m, distance_of(c), groups_of(c), groups_of(c, "xoc-groups"));
          },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

// The exchanges (Stout & Wagar 1990 §3-4): both directions at once, on the links the sends leave free.
Algorithm oc_exchange() {
  return {
      .name = "oc-exchange",
      .paper = "Stout & Wagar (1990) §3, o.c. exchange: O.C. SEND 4 from src to dst and from dst to src at once, "
               "on opposite links; one send's time",
      .ports = {Ports::Kind::all},
      .params = with_pair({groups_param("groups of lcm(1..n) units of each direction's O.C. SEND 4 (Stout & Wagar "
                                        "1990 §3); 0 = the g of least closed-form time, padding counted")}),
      .resolve =
          [](const MachineConfig& config, KernelCase c) {
            resolve_groups(c, "groups", "oc-exchange", model::optimal_oc_send_groups(config, c.m, distance_of(c)));
            return c;
          },
      .cannot_run = {},
      .run = exchange_run([](Node& node, std::span<std::byte> message, const KernelCase& c) {
        kernels::oc_exchange(node, message, groups_of(c), src_of(c), dst_of(c));
      }),
      .predict =
          [](const MachineConfig& config, const KernelCase& c) {
            return model::oc_exchange_time(config, c.m, distance_of(c), groups_of(c));
          },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

Algorithm arbitrary_exchange() {
  return {
      .name = "arbitrary-exchange",
      .paper = "Stout & Wagar (1990) §4, arbitrary exchange: ARBITRARY SEND 3 both ways at once, on opposite links; "
               "one send's time",
      .ports = {Ports::Kind::all},
      .params = as3_params(),
      .resolve =
          [](const MachineConfig& config, KernelCase c) { return resolve_as3_groups(config, c, "arbitrary-exchange"); },
      .cannot_run = {},
      .run = exchange_run([](Node& node, std::span<std::byte> message, const KernelCase& c) {
        kernels::arbitrary_exchange(node, message, groups_of(c), groups_of(c, "xoc-groups"), src_of(c), dst_of(c));
      }),
      .predict =
          [](const MachineConfig& config, const KernelCase& c) {
            return model::arbitrary_exchange_time(config, c.m, distance_of(c), groups_of(c),
                                                  groups_of(c, "xoc-groups"));
          },
      .lower_bound = problem_bound,
      .all_cases = {},
  };
}

}  // namespace
}  // namespace long_send_rows

KernelFamily long_send_family() {
  using namespace long_send_rows;
  return {
      .name = "long-send",
      .summary =
          "one node's m bytes to one other node (--src, --dst; by default node 0 to its opposite corner): the plain "
          "send, O.C. SEND 1-4, ARBITRARY SEND 1-3 and X.O.C. SEND 1-2, and the o.c. and arbitrary exchanges, both "
          "ways at once (Stout & Wagar 1990 §3-4)",
      .m_is = "bytes of the message",
      .default_algo = "ocs4",
      .algorithms = {direct(), ocs1(), ocs2(), ocs3(),
                     ocs4("ocs4", "Stout & Wagar (1990) §3, O.C. SEND 4: O.C. SEND 3 in g groups, pipelined"),
                     ocs4("as1",
                          "Stout & Wagar (1990) §4, ARBITRARY SEND 1: O.C. SEND 4 in the n-cube spanned by src ^ dst"),
                     as2(), xocs(1), xocs(2), as3(), oc_exchange(), arbitrary_exchange()},
      .resolve =
          [](const MachineConfig& config, KernelCase c) {
            const auto [src, dst] = pair_of(config, c);
            c.params.set("src", static_cast<std::uint64_t>(src));
            c.params.set("dst", static_cast<std::uint64_t>(dst));
            return c;
          },
  };
}

}  // namespace hcemu::harness
