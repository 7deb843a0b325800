#include "cli/machine_fit.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include "cli/cli_error.hpp"
#include "cli/least_squares.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/model/transfer.hpp"
#include "common/wire.hpp"

namespace hcemu::cli {

namespace {

// One measured point: the regressors are built from these fields.
struct PingPong {
  int d = 0, hops = 0;
  std::size_t bytes = 0;
  Time one_way = 0;  // half the round trip
};
struct Sample {
  int d = 0;
  std::size_t x = 0;  // bytes, flops, or unused
  Time time = 0;
};

struct Samples {
  std::vector<PingPong> ping_pong;
  std::vector<Sample> exchange, barrier, permute, compute;
};

// Message sizes: zero bytes for λ0, then a range; no more than one packet, so that every message pays one
// start-up and the regression stays linear (docs/model.md §3).
std::vector<std::size_t> message_sizes(const MachineConfig& c) {
  std::vector<std::size_t> sizes;
  for (std::size_t s : {0, 1, 64, 256, 1024, 4096})
    if (c.packet == 0 || s <= c.packet) sizes.push_back(s);
  if (c.packet != 0 && std::find(sizes.begin(), sizes.end(), c.packet) == sizes.end() && c.packet < 4096)
    sizes.push_back(c.packet);
  return sizes;
}

const std::vector<std::size_t> kPermuteBytes = {64, 1024, 4096, 16384};
constexpr std::size_t kPermuteBlock = 64;
const std::vector<std::uint64_t> kComputeFlops = {1000, 10000, 100000};

// Spread over MPI ranks, node 0 (on rank 0) measured: every rank takes its samples, so that each fits the same.
template <class T>
void put_all(hcemu::detail::Wire& w, const std::vector<T>& v) {
  w.put<std::uint64_t>(v.size());
  for (const T& x : v) w.put(x);
}
template <class T>
void get_all(hcemu::detail::WireReader& r, std::vector<T>& v) {
  v.resize(static_cast<std::size_t>(r.get<std::uint64_t>()));
  for (T& x : v) x = r.get<T>();
}
void share_from_rank0(const Machine& machine, Samples& samples) {
  hcemu::detail::Wire w;
  if (!samples.ping_pong.empty()) {
    put_all(w, samples.ping_pong);
    put_all(w, samples.exchange);
    put_all(w, samples.barrier);
    put_all(w, samples.permute);
    put_all(w, samples.compute);
  }
  const std::string text(reinterpret_cast<const char*>(w.bytes().data()), w.bytes().size());
  const std::string first = machine.first_of_ranks(text);
  std::vector<std::byte> bytes(first.size());
  std::memcpy(bytes.data(), first.data(), first.size());
  hcemu::detail::WireReader r(bytes);
  get_all(r, samples.ping_pong);
  get_all(r, samples.exchange);
  get_all(r, samples.barrier);
  get_all(r, samples.permute);
  get_all(r, samples.compute);
}

Time median(std::vector<Time> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The microbenchmarks on one cube. Node 0 measures; the others take part where a benchmark needs them. Every
// receive is posted before the barrier that starts its measurement, so FORCED machines lose nothing
// (Nicol & Bokhari §4: "post receives ... then a global synchronization").
void measure(const MachineConfig& c, const EmulatorSettings& settings, int reps, bool full, Samples& samples) {
  const auto sizes = message_sizes(c);
  const std::size_t buffer_bytes = std::max<std::size_t>(16384, sizes.back());
  const int d = c.d;
  Machine machine(c, settings);
  machine.run([&](Node& node) {
    const int id = node.id();
    auto out = node.allocate<std::byte>(buffer_bytes);
    auto in = node.allocate<std::byte>(buffer_bytes);
    for (std::size_t i = 0; i < buffer_bytes; ++i) out[i] = static_cast<std::byte>(i * 7 + static_cast<std::size_t>(id));
    int tag = 1;

    // Ping-pong between node 0 and node 2^h - 1, at distance h.
    for (int h = 1; h <= d; ++h) {
      const int partner = (1 << h) - 1;
      for (std::size_t bytes : sizes) {
        std::vector<Time> round_trips;
        for (int r = 0; r < reps; ++r, ++tag) {
          Request request;
          if (id == 0) request = node.post_recv(partner, in.span().first(bytes), tag);
          if (id == partner) request = node.post_recv(0, in.span().first(bytes), tag);
          node.barrier();
          if (id == 0) {
            Time start = node.clock();
            node.send(partner, out.span().first(bytes), tag);
            node.wait(request);
            round_trips.push_back(node.clock() - start);
          } else if (id == partner) {
            node.wait(request);
            node.send(0, out.span().first(bytes), tag);
          }
        }
        if (id == 0) samples.ping_pong.push_back({d, h, bytes, median(round_trips) / 2});
      }
    }

    // Barrier: Q(d), measured from the moment every node has left the previous one.
    {
      std::vector<Time> times;
      for (int r = 0; r < reps; ++r) {
        node.barrier();
        Time start = node.clock();
        node.barrier();
        times.push_back(node.clock() - start);
      }
      if (id == 0) samples.barrier.push_back({d, 0, median(times)});
    }
    if (!full) return;

    // Pairwise exchange between neighbours 0 and 1, as Node::exchange does it.
    for (std::size_t bytes : sizes) {
      if (bytes == 0) continue;
      std::vector<Time> times;
      for (int r = 0; r < reps; ++r, ++tag) {
        Request receive;
        if (id < 2) receive = node.post_recv(id ^ 1, in.span().first(bytes), tag);
        node.barrier();
        if (id < 2) {
          Time start = node.clock();
          Request send = node.isend(id ^ 1, out.span().first(bytes), tag);
          node.wait(receive);
          node.wait(send);
          times.push_back(node.clock() - start);
        }
      }
      if (id == 0) samples.exchange.push_back({d, bytes, median(times)});
    }

    if (id != 0) return;
    // Permutation of blocks (the shuffle of the Standard and Multiphase exchanges), and arithmetic.
    for (std::size_t bytes : kPermuteBytes) {
      std::vector<std::uint32_t> order(bytes / kPermuteBlock);
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint32_t>(order.size() - 1 - i);
      std::vector<Time> times;
      for (int r = 0; r < reps; ++r) {
        Time start = node.clock();
        node.permute(out.span().first(bytes), in.span().first(bytes), kPermuteBlock, order);
        times.push_back(node.clock() - start);
      }
      samples.permute.push_back({d, bytes, median(times)});
    }
    for (std::uint64_t flops : kComputeFlops) {
      std::vector<Time> times;
      for (int r = 0; r < reps; ++r) {
        Time start = node.clock();
        node.compute(flops);
        times.push_back(node.clock() - start);
      }
      samples.compute.push_back({d, static_cast<std::size_t>(flops), median(times)});
    }
  });
  if (machine.ranks() > 1) share_from_rank0(machine, samples);
}

struct Regression {
  std::vector<std::vector<double>> rows;
  std::vector<double> y;
  void add(std::vector<double> row, Time t) {
    rows.push_back(std::move(row));
    y.push_back(to_us(t));
  }
};

// A parameter of a regression: its key, its unit and its configured value.
struct Parameter {
  std::string key;
  std::string unit;
  double configured = 0;
};

// Every cost is >= 0, so the fit is non-negative: a cost the host does not show is 0, not below it.
void add_rows(MachineFitResult& result, const Regression& regression, const char* measured_by,
              const std::vector<Parameter>& parameters, std::vector<std::size_t> report = {}) {
  LeastSquares fit = non_negative_least_squares(regression.rows, regression.y);
  if (report.empty()) {
    report.resize(parameters.size());
    std::iota(report.begin(), report.end(), 0);
  }
  for (std::size_t i : report)
    result.rows.push_back(fit_row(fit, i, parameters[i].key, parameters[i].unit, measured_by, parameters[i].configured));
}

constexpr const char* kUs = "µs";
constexpr const char* kUsPerByte = "µs/byte";
constexpr const char* kUsPerDimension = "µs/dimension";

}  // namespace

MachineFitResult fit_machine(const MachineFamily& family, const MachineFitOptions& options) {
  const MachineConfig& base = family.config;
  const int reps = options.repetitions > 0 ? options.repetitions : (family.settings.timing == Timing::virtual_time ? 1 : 5);
  int top = std::min(std::max(base.d, 2), std::max(options.max_dimension, 2));
  int bottom = 1;
  if (options.only_dimension > 0) bottom = top = options.only_dimension;
  MachineFitResult result;
  result.repetitions = reps;
  Samples samples;
  for (int d = bottom; d <= top; ++d) {
    result.dimensions.push_back(d);
    measure(family.at_dimension(d), family.settings, reps, d == top, samples);
  }
  const bool circuit = base.switching == Switching::circuit;
  // What the measurements can tell apart: a term that does not vary among them is paid with λ by every message.
  const bool vary_d = bottom < top;  // the cube's dimension (a δ' that grows with d)
  const bool vary_h = top > 1;       // the distance (δ per hop)
  // λ and a constant δ' are paid together by every circuit message and no measurement can split them; a δ' that
  // grows with d (delta_msg_per_d) is told apart by measuring cubes of several dimensions.
  double merged = family.delta_msg_per_d ? 0.0 : base.delta_msg;
  std::string suffix = circuit && merged != 0 ? "+delta_msg" : "";
  if (circuit && !vary_d && family.delta_msg_per_d) {
    merged += *family.delta_msg_per_d * top;
    suffix = "+delta_msg";
  }
  if (circuit && !vary_h) {
    merged += base.delta_hop;
    suffix += "+delta_hop";
  }
  const double lambda0 = base.lambda0.value_or(base.lambda);

  Regression messages;
  for (const auto& p : samples.ping_pong) {
    const double nonzero = p.bytes > 0 ? 1 : 0, zero = 1 - nonzero, bytes = static_cast<double>(p.bytes);
    if (circuit) {
      // docs/model.md §3, circuit: λ(L) + δ' + δ·h + τ·L, with δ' = delta_msg_per_d·d.
      std::vector<double> row = {nonzero, zero};
      if (vary_d) row.push_back(static_cast<double>(p.d));
      if (vary_h) row.push_back(static_cast<double>(p.hops));
      row.push_back(bytes);
      messages.add(std::move(row), p.one_way);
    } else {
      // Store-and-forward: h hops of λ(L) + τ·L each.
      messages.add({p.hops * nonzero, p.hops * zero, p.hops * bytes}, p.one_way);
    }
  }
  if (circuit) {
    std::vector<Parameter> parameters = {{"lambda" + suffix, kUs, base.lambda + merged},
                                         {"lambda0" + suffix, kUs, lambda0 + merged}};
    if (vary_d) parameters.push_back({"delta_msg_per_d", kUsPerDimension, family.delta_msg_per_d.value_or(0.0)});
    if (vary_h) parameters.push_back({"delta_hop", "µs/hop", base.delta_hop});
    parameters.push_back({"tau", kUsPerByte, base.tau});
    add_rows(result, messages, "ping-pong", parameters);
    if (!suffix.empty())
      result.notes.push_back("lambda and " + suffix.substr(1) +
                             " are paid together by every message measured and cannot be told apart; their sum is "
                             "fitted");
  } else {
    add_rows(result, messages, "ping-pong",
             {{"lambda", kUs, base.lambda}, {"lambda0", kUs, lambda0}, {"tau", kUsPerByte, base.tau}});
    result.notes.push_back("delta_hop and delta_msg are not used under store_and_forward switching");
  }

  // The exchange's start-up and per-byte cost, beside the same regression of the closed form.
  Regression exchange, exchange_model;
  const MachineConfig top_config = family.at_dimension(top);
  for (const auto& s : samples.exchange) {
    exchange.add({1.0, static_cast<double>(s.x)}, s.time);
    exchange_model.add({1.0, static_cast<double>(s.x)}, model::pairwise_exchange_time(top_config, s.x, 1));
  }
  LeastSquares expected_exchange = least_squares(exchange_model.rows, exchange_model.y);
  add_rows(result, exchange, "exchange",
           {{"exchange_startup", kUs, expected_exchange.coefficients[0]},
            {"exchange_per_byte", kUsPerByte, expected_exchange.coefficients[1]}});

  Regression barrier;
  if (vary_d) {
    for (const auto& s : samples.barrier) barrier.add({1.0, static_cast<double>(s.d)}, s.time);
    add_rows(result, barrier, "barrier",
             {{"barrier_a", kUs, base.barrier_a}, {"barrier_b", kUsPerDimension, base.barrier_b}});
  } else {  // one cube: Q(d) itself
    for (const auto& s : samples.barrier) barrier.add({1.0}, s.time);
    add_rows(result, barrier, "barrier",
             {{"barrier_at_d" + std::to_string(top), kUs, base.barrier_a + base.barrier_b * top}});
  }

  // Copies and arithmetic: a fixed overhead (zero in the model, not reported) plus the per-unit cost.
  Regression permute;
  for (const auto& s : samples.permute) permute.add({1.0, static_cast<double>(s.x)}, s.time);
  add_rows(result, permute, "permute", {{"permute_overhead", kUs, 0.0}, {"rho", kUsPerByte, base.rho}}, {1});
  if (family.settings.timing == Timing::native) {
    result.notes.push_back("flop is not fitted under native timing: compute() charges nothing there (a kernel's own "
                           "arithmetic takes its real time)");
    return result;
  }
  Regression compute;
  for (const auto& s : samples.compute) compute.add({1.0, static_cast<double>(s.x)}, s.time);
  add_rows(result, compute, "compute", {{"compute_overhead", kUs, 0.0}, {"flop", "µs/flop", base.flop}}, {1});
  return result;
}

}  // namespace hcemu::cli
