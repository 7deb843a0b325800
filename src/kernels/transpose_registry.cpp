// The matrix transposes as the registry sees them. KernelCase::m is the bytes of one sub-block: the matrix has
// 4-byte elements and sub-blocks of side s = floor(sqrt(m/4)) (run_case.m reports s·s·4, the size actually used);
// row distribution: n = s·2^d; grid distribution: n = s·2^(d/2). stout-wagar sends KernelCase::pieces packets per
// link (the paper's kp, Stout & Wagar §7.2), or when that is 0 the number model::stout_wagar_packets finds fastest
// for the machine.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "case_data.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/kernels/registry.hpp"
#include "hcemu/kernels/transpose.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/model/all_port_exchange.hpp"
#include "hcemu/model/exchange.hpp"
#include "hcemu/model/planner.hpp"
#include "hcemu/model/transpose.hpp"
#include "kernels/registry_support.hpp"

namespace hcemu::kernels {
namespace {

constexpr std::size_t kElement = 4;
const std::vector<std::string> kAlgos = {"rows-direct",   "rows-standard", "rows-multiphase", "rows-auto",
                                         "rows-all-port", "johnsson-ho",   "stout-wagar"};

std::size_t block_side(std::size_t m) {
  auto s = static_cast<std::size_t>(std::sqrt(static_cast<double>(m / kElement)));
  while ((s + 1) * (s + 1) * kElement <= m) ++s;
  while (s > 0 && s * s * kElement > m) --s;
  return s;
}

// Element (i, j) of the matrix, 4 bytes.
void element(std::uint64_t seed, std::size_t i, std::size_t j, std::byte* out) {
  for (std::size_t k = 0; k < kElement; ++k) out[k] = detail::data_byte(seed, i, j, k);
}

bool is_rows(const std::string& algo) { return algo.rfind("rows-", 0) == 0; }

// The exchange inside a row transpose, and its partition (nullopt: all-port).
std::optional<std::vector<int>> exchange_partition(const MachineConfig& config, const KernelCase& c, std::size_t m) {
  const std::string e = c.algo.substr(5);
  if (e == "direct") return model::direct_partition(config.d);
  if (e == "standard") return model::standard_partition(config.d);
  if (e == "multiphase") {
    model::check_partition(config.d, c.partition);
    return c.partition;
  }
  if (e == "auto") return model::optimal_partition(config, m, c.sync).partition;
  if (e == "all-port") return std::nullopt;
  throw UsageError("transpose: unknown algo '" + c.algo + "'");
}

void check_algo(const KernelCase& c) {
  for (const auto& a : kAlgos)
    if (a == c.algo) return;
  throw UsageError("transpose: unknown algo '" + c.algo +
                   "' (rows-direct, rows-standard, rows-multiphase, "
                   "rows-auto, rows-all-port, johnsson-ho, stout-wagar)");
}

// The packets per physical link P of the Stout & Wagar transpose of an n x n matrix (§7.2): KernelCase::pieces, or
// the fastest for the machine when it is 0. The kernel needs P >= d (the paper's p >= 2 packets per stage) when d > 0.
int packets_of(const MachineConfig& config, const KernelCase& c, std::size_t n) {
  if (c.pieces == 0) return model::stout_wagar_packets(config, n, kElement);
  if (config.d > 0 && c.pieces < static_cast<std::size_t>(config.d))
    throw UsageError("transpose stout-wagar: needs at least d = " + std::to_string(config.d) +
                     " packets per link P (the paper's p >= 2 packets per stage), got " + std::to_string(c.pieces));
  if (c.pieces > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw UsageError("transpose stout-wagar: " + std::to_string(c.pieces) + " packets per link are too many");
  return static_cast<int>(c.pieces);
}

std::optional<Time> predict_with(const MachineConfig& config, const KernelCase& c,
                                 const std::optional<std::vector<int>>& partition) {
  const std::size_t s = block_side(c.m);
  if (c.algo == "johnsson-ho") return model::johnsson_ho_transpose_time(config, s << (config.d / 2), kElement);
  if (c.algo == "stout-wagar") {
    const std::size_t n = s << (config.d / 2);
    return model::stout_wagar_transpose_time(config, n, kElement, packets_of(config, c, n));
  }
  const std::size_t n = s << config.d;
  const std::size_t m = model::row_transpose_block_bytes(config.d, n, kElement);
  std::optional<Time> exchange =
      partition ? std::optional<Time>(model::multiphase_exchange_time(config, *partition, m, c.sync))
                : model::all_port_exchange_time(config, m);
  if (!exchange) return std::nullopt;
  return model::row_transpose_time(config, n, kElement, *exchange);
}

std::optional<Time> predict(const MachineConfig& config, const KernelCase& c) {
  check_algo(c);
  if (!is_rows(c.algo)) return predict_with(config, c, std::nullopt);
  const std::size_t s = block_side(c.m);
  return predict_with(config, c, exchange_partition(config, c, s * s * kElement));
}

KernelResult run(const MachineConfig& config, const EmulatorSettings& settings, const KernelCase& c) {
  check_algo(c);
  KernelResult result;
  result.run_case = c;
  const std::size_t s = block_side(c.m);
  result.run_case.m = s * s * kElement;
  const bool rows = is_rows(c.algo);
  std::optional<std::vector<int>> partition;
  if (rows) {
    partition = exchange_partition(config, c, result.run_case.m);
    if (partition) result.run_case.partition = *partition;
  } else if (config.d % 2 != 0) {
    throw UsageError("transpose " + c.algo + ": needs an even d, got " + std::to_string(config.d));
  }
  const int grid_bits = rows ? config.d : config.d / 2;  // the matrix is s·2^grid_bits on a side
  const std::size_t n = s << grid_bits;
  const ExchangeOptions options{c.sync};
  const int packets = c.algo == "stout-wagar" ? packets_of(config, c, n) : 0;
  result.run_case.pieces = static_cast<std::size_t>(packets);  // the P that ran; 0 for the other algorithms

  FirstFailure failure;
  Machine machine(config, settings);
  result.report = machine.run([&](Node& node) {
    const auto id = static_cast<std::size_t>(node.id());
    // The node's rectangle of the matrix: rows [row0, row0 + height), columns [col0, col0 + width).
    const std::size_t height = s, width = rows ? n : s;
    const std::size_t row0 = rows ? id * s : (id >> grid_bits) * s;
    const std::size_t col0 = rows ? 0 : (id & ((std::size_t{1} << grid_bits) - 1)) * s;
    Buffer<std::byte> in = node.allocate<std::byte>(height * width * kElement);
    Buffer<std::byte> out = node.allocate<std::byte>(height * width * kElement);
    for (std::size_t i = 0; i < height; ++i)
      for (std::size_t j = 0; j < width; ++j)
        element(c.seed, row0 + i, col0 + j, in.data() + (i * width + j) * kElement);

    if (rows) {
      row_transpose(node, in.span(), out.span(), n, kElement,
                    [&](Node& nd, std::span<const std::byte> snd, std::span<std::byte> rcv, std::size_t m) {
                      if (partition)
                        multiphase_exchange(nd, snd, rcv, m, *partition, options);
                      else
                        all_port_exchange(nd, snd, rcv, m, options);
                    });
    } else if (c.algo == "johnsson-ho") {
      johnsson_ho_transpose(node, in.span(), out.span(), n, kElement);
    } else {
      stout_wagar_transpose(node, in.span(), out.span(), n, kElement, packets);
    }

    // The same rectangle of the transpose: element (row0 + i, col0 + j) of M^T is M(col0 + j, row0 + i).
    std::byte want[kElement];
    for (std::size_t i = 0; i < height; ++i)
      for (std::size_t j = 0; j < width; ++j) {
        element(c.seed, col0 + j, row0 + i, want);
        if (std::memcmp(want, out.data() + (i * width + j) * kElement, kElement) != 0) {
          failure.report("node " + std::to_string(id) + ": element (" + std::to_string(row0 + i) + ", " +
                         std::to_string(col0 + j) + ") of the transpose is wrong");
          return;
        }
      }
  });
  failure.record_into(result);
  result.predicted = predict_with(config, result.run_case, partition);
  return result;
}

std::vector<KernelCase> expand_all(const MachineConfig& config, const KernelCase& base) {
  std::vector<KernelCase> cases;
  for (const char* algo : {"rows-direct", "rows-standard", "rows-auto"}) {
    KernelCase c = base;
    c.algo = algo;
    cases.push_back(c);
  }
  if (config.ports.kind == Ports::Kind::all) {
    KernelCase c = base;
    c.algo = "rows-all-port";
    cases.push_back(c);
  }
  if (config.d % 2 == 0) {
    KernelCase c = base;
    c.algo = "johnsson-ho";
    cases.push_back(c);
  }
  if (config.d % 2 == 0 && config.ports.kind == Ports::Kind::all) {
    KernelCase c = base;
    c.algo = "stout-wagar";
    cases.push_back(c);
  }
  return cases;
}

}  // namespace

KernelInfo transpose_kernel_info() {
  KernelInfo info;
  info.name = "transpose";
  info.summary =
      "matrix transpose: by rows through a complete exchange (Nicol & Bokhari 1994 Fig. 1; Stout & "
      "Wagar 1990 §7.1), by blocks on a 2^(d/2) grid (Johnsson & Ho 1987 §4.6; all-port: Stout & Wagar "
      "1990 §7.2)";
  info.algos = kAlgos;
  info.default_algo = "rows-auto";
  info.expand_all = expand_all;
  info.run = run;
  info.predict = predict;
  return info;
}

}  // namespace hcemu::kernels
