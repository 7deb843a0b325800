// The matrix transposes, one row each, and the harness they run in. KernelCase::m is the bytes of one sub-block: the
// matrix has 4-byte elements and sub-blocks of side s = floor(sqrt(m/4)) (the case as run has m = s·s·4, the size
// actually used); row distribution: n = s·2^d; block distribution on a 2^(d/2) grid: n = s·2^(d/2).
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "harness/algorithm.hpp"
#include "harness/case_data.hpp"
#include "harness/verification.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/kernels/transpose.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/model/all_port_exchange.hpp"
#include "hcemu/model/exchange.hpp"
#include "hcemu/model/lower_bounds.hpp"
#include "hcemu/model/planner.hpp"
#include "hcemu/model/transpose.hpp"

namespace hcemu::harness {
// The family's rows and helpers, in a namespace of its own: the families name theirs alike (sbnt(), problem_bound).
namespace transpose_rows {
namespace {

constexpr std::size_t kElement = 4;

std::size_t block_side(std::size_t m) {
  auto s = static_cast<std::size_t>(std::sqrt(static_cast<double>(m / kElement)));
  while ((s + 1) * (s + 1) * kElement <= m) ++s;
  while (s > 0 && s * s * kElement > m) --s;
  return s;
}

// Element (i, j) of the matrix, 4 bytes.
void element(std::uint64_t seed, std::size_t i, std::size_t j, std::byte* out) {
  for (std::size_t k = 0; k < kElement; ++k) out[k] = data::data_byte(seed, i, j, k);
}

// Where a node's part of the matrix lies: rows [row0, row0 + height), columns [col0, col0 + width), of an n x n
// matrix.
struct Share {
  std::size_t n, height, width, row0, col0;
};

// By rows: node p holds rows [p·s, (p+1)·s). By blocks: node a·2^c + b holds block (a, b) of a 2^c x 2^c grid.
Share share_of(const MachineConfig& config, bool rows, std::size_t s, std::size_t id) {
  if (rows) return {s << config.d, s, s << config.d, id * s, 0};
  const int c = config.d / 2;
  return {s << c, s, s, (id >> c) * s, (id & ((std::size_t{1} << c) - 1)) * s};
}

// How a transpose runs: its kernel call on one node, with the node's share of the matrix and of its transpose.
using TransposeCall = std::function<void(Node&, std::span<const std::byte> in, std::span<std::byte> out, std::size_t n,
                                         const KernelCase&)>;

RunFn transpose_run(bool rows, TransposeCall call) {
  return [rows, call](const MachineConfig& config, const EmulatorSettings& settings, const KernelCase& c) {
    KernelResult result;
    const std::size_t s = block_side(c.m);
    FirstFailure failure;
    Machine machine(config, settings);
    result.report = machine.run([&](Node& node) {
      const auto id = static_cast<std::size_t>(node.id());
      const Share sh = share_of(config, rows, s, id);
      Buffer<std::byte> in = node.allocate<std::byte>(sh.height * sh.width * kElement);
      Buffer<std::byte> out = node.allocate<std::byte>(sh.height * sh.width * kElement);
      for (std::size_t i = 0; i < sh.height; ++i)
        for (std::size_t j = 0; j < sh.width; ++j)
          element(c.seed, sh.row0 + i, sh.col0 + j, in.data() + (i * sh.width + j) * kElement);
      call(node, in.span(), out.span(), sh.n, c);
      // The same rectangle of the transpose: element (row0 + i, col0 + j) of M^T is M(col0 + j, row0 + i).
      std::byte want[kElement];
      for (std::size_t i = 0; i < sh.height; ++i)
        for (std::size_t j = 0; j < sh.width; ++j) {
          element(c.seed, sh.col0 + j, sh.row0 + i, want);
          if (std::memcmp(want, out.data() + (i * sh.width + j) * kElement, kElement) == 0) continue;
          failure.report("node " + std::to_string(id) + ": element (" + std::to_string(sh.row0 + i) + ", " +
                         std::to_string(sh.col0 + j) + ") of the transpose is wrong");
          return;
        }
    });
    failure.record_into(result, machine);
    return result;
  };
}

// The least time of the problem on this machine (model/lower_bounds.hpp), whatever the algorithm: by rows, a
// complete exchange of s x s blocks; by blocks, the permutation of the grid's blocks.
std::optional<Time> rows_bound(const MachineConfig& config, const KernelCase& c) {
  return model::row_transpose_lower_bound(config, block_side(c.m) << config.d, kElement);
}
std::optional<Time> blocks_bound(const MachineConfig& config, const KernelCase& c) {
  return model::block_transpose_lower_bound(config, block_side(c.m) << (config.d / 2), kElement);
}

// ----- By rows, through a complete exchange (Nicol & Bokhari 1994 Figure 1; Stout & Wagar 1990 §7.1) --------------

// The row transpose's time with its exchange's (nullopt when the exchange has no closed form here).
std::optional<Time> row_time(const MachineConfig& config, const KernelCase& c, std::optional<Time> exchange) {
  if (!exchange) return std::nullopt;
  const std::size_t n = block_side(c.m) << config.d;
  return model::row_transpose_time(config, n, kElement, *exchange);
}

// A function, not a constant: the registry may be read during static initialisation.
ParamSpec partition_param() {
  return {"partition", "", ParamKind::partition,
          "the exchange's multiphase partition, d_1 + ... + d_k = d (Bokhari 1993 §2.3)"};
}

ParamSpec chosen_partition(std::string_view doc) {
  ParamSpec p = partition_param();
  p.doc = doc;
  p.chosen = true;
  return p;
}

// A row transpose whose exchange is the multiphase exchange with partition `of(config, case)` (nullptr: as given).
Algorithm by_rows(std::string name, std::string paper, ParamSpec partition_param,
                  std::function<model::Partition(const MachineConfig&, const KernelCase&)> of, CasesFn all_cases = {}) {
  return {
      .name = name,
      .paper = paper,
      .ports = {},
      .params = {std::move(partition_param)},
      .resolve =
          [of](const MachineConfig& config, KernelCase c) {
            if (of && c.params.parts("partition").empty()) c.params.set("partition", of(config, c));
            model::check_partition(config.d, c.params.parts("partition"));
            return c;
          },
      .cannot_run = {},
      .run = transpose_run(
          true,
          [](Node& node, std::span<const std::byte> in, std::span<std::byte> out, std::size_t n, const KernelCase& c) {
            const auto& partition = c.params.parts("partition");
            kernels::row_transpose(
                node, in, out, n, kElement,
                [&](Node& nd, std::span<const std::byte> snd, std::span<std::byte> rcv, std::size_t m) {
                  kernels::multiphase_exchange(nd, snd, rcv, m, partition, {c.sync});
                });
          }),
      .predict =
          [](const MachineConfig& config, const KernelCase& c) {
            return row_time(config, c,
                            model::multiphase_exchange_time(config, c.params.parts("partition"), c.m, c.sync));
          },
      .lower_bound = rows_bound,
      .all_cases = std::move(all_cases),
  };
}

Algorithm rows_all_port() {
  return {
      .name = "rows-all-port",
      .paper = "Stout & Wagar (1990) §7.1: the row transpose through the all-port COMPLETE EXCHANGE (§6)",
      .ports = {Ports::Kind::all},
      .params = {},
      .resolve = {},
      .cannot_run = {},
      .run = transpose_run(
          true,
          [](Node& node, std::span<const std::byte> in, std::span<std::byte> out, std::size_t n, const KernelCase& c) {
            kernels::row_transpose(node, in, out, n, kElement,
                                   [&](Node& nd, std::span<const std::byte> snd, std::span<std::byte> rcv,
                                       std::size_t m) { kernels::all_port_exchange(nd, snd, rcv, m, {c.sync}); });
          }),
      .predict = [](const MachineConfig& config,
                    const KernelCase& c) { return row_time(config, c, model::all_port_exchange_time(config, c.m)); },
      .lower_bound = rows_bound,
      .all_cases = {},
  };
}

// ----- By blocks on a 2^(d/2) x 2^(d/2) grid -----------------------------------------------------------------------

std::string even_d(const MachineConfig& config) {
  return config.d % 2 == 0 ? "" : "needs an even d, got " + std::to_string(config.d);
}

std::size_t grid_side(const MachineConfig& config, const KernelCase& c) { return block_side(c.m) << (config.d / 2); }

Algorithm johnsson_ho() {
  return {
      .name = "johnsson-ho",
      .paper = "Johnsson & Ho (1987) §4.6: 2·(d/2) one-block steps through the grid's bits, then the local transpose",
      .ports = {},
      .params = {},
      .resolve = {},
      .cannot_run = even_d,
      .run =
          transpose_run(false, [](Node& node, std::span<const std::byte> in, std::span<std::byte> out, std::size_t n,
                                  const KernelCase&) { kernels::johnsson_ho_transpose(node, in, out, n, kElement); }),
      .predict = [](const MachineConfig& config, const KernelCase& c) -> std::optional<Time> {
        return model::johnsson_ho_transpose_time(config, grid_side(config, c), kElement);
      },
      .lower_bound = blocks_bound,
      .all_cases = {},
  };
}

Algorithm stout_wagar() {
  return {
      .name = "stout-wagar",
      .paper =
          "Stout & Wagar (1990) §7.2, MATRIX TRANSPOSITION by submatrices: L.C. INVERSION on every logical "
          "subcube, pipelined in kp packets per physical link",
      .ports = {Ports::Kind::all},
      .params = {{"packets", "P", ParamKind::count,
                  "packets per physical link, the paper's kp (§7.2), at least d; 0 = the number that the model finds "
                  "fastest for the machine (model::stout_wagar_packets)",
                  true, false}},
      .resolve =
          [](const MachineConfig& config, KernelCase c) {
            const std::uint64_t packets = c.params.number("packets");
            if (packets == 0) {
              c.params.set("packets", static_cast<std::uint64_t>(
                                          model::stout_wagar_packets(config, grid_side(config, c), kElement)));
            } else if (config.d > 0 && packets < static_cast<std::uint64_t>(config.d)) {
              throw UsageError("transpose stout-wagar: needs at least d = " + std::to_string(config.d) +
                               " packets per link P (the paper's p >= 2 packets per stage), got " +
                               std::to_string(packets));
            } else if (packets > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
              throw UsageError("transpose stout-wagar: " + std::to_string(packets) + " packets per link are too many");
            }
            return c;
          },
      .cannot_run = even_d,
      .run = transpose_run(
          false,
          [](Node& node, std::span<const std::byte> in, std::span<std::byte> out, std::size_t n, const KernelCase& c) {
            kernels::stout_wagar_transpose(node, in, out, n, kElement, static_cast<int>(c.params.number("packets")));
          }),
      .predict =
          [](const MachineConfig& config, const KernelCase& c) {
            return model::stout_wagar_transpose_time(config, grid_side(config, c), kElement,
                                                     static_cast<int>(c.params.number("packets")));
          },
      .lower_bound = blocks_bound,
      .all_cases = {},
  };
}

}  // namespace
}  // namespace transpose_rows

KernelFamily transpose_family() {
  using namespace transpose_rows;
  const auto none = [](const MachineConfig&, const KernelCase&) { return std::vector<KernelCase>{}; };
  return {
      .name = "transpose",
      .summary =
          "matrix transpose: by rows through a complete exchange (Nicol & Bokhari 1994 Fig. 1; Stout & Wagar "
          "1990 §7.1), by blocks on a 2^(d/2) grid (Johnsson & Ho 1987 §4.6; all-port: Stout & Wagar 1990 "
          "§7.2)",
      .m_is = "bytes per sub-block (4-byte elements, rounded down to a square)",
      .default_algo = "rows-auto",
      .algorithms =
          {
              by_rows("rows-direct", "Nicol & Bokhari (1994) Figure 1 with the Direct exchange",
                      chosen_partition("(d)"),
                      [](const MachineConfig& config, const KernelCase&) { return model::direct_partition(config.d); }),
              by_rows(
                  "rows-standard", "Nicol & Bokhari (1994) Figure 1 with the Standard exchange",
                  chosen_partition("(1, ..., 1)"),
                  [](const MachineConfig& config, const KernelCase&) { return model::standard_partition(config.d); }),
              by_rows("rows-multiphase", "Nicol & Bokhari (1994) Figure 1 with the Multiphase exchange", partition_param(),
                      nullptr, none),
              by_rows("rows-auto", "Nicol & Bokhari (1994) Figure 1 with the planner's Multiphase exchange",
                      chosen_partition("chosen by the planner (model::optimal_partition)"),
                      [](const MachineConfig& config, const KernelCase& c) {
                        return model::optimal_partition(config, c.m, c.sync).partition;
                      }),
              rows_all_port(),
              johnsson_ho(),
              stout_wagar(),
          },
      // The block side s of m: every algorithm runs with s·s·4 bytes per sub-block.
      .resolve =
          [](const MachineConfig&, KernelCase c) {
            const std::size_t s = block_side(c.m);
            c.m = s * s * kElement;
            return c;
          },
  };
}

}  // namespace hcemu::harness
