#include "hcemu/model/paper_tables.hpp"

#include <algorithm>
#include <cmath>

#include "hcemu/model/even_spread.hpp"

namespace hcemu::model {
namespace {

double start_up_us(const MachineConfig& config) {
  return config.lambda + (config.switching == Switching::circuit ? config.delta_msg + config.delta_hop : 0.0);
}

// ⌈x/B_m⌉ start-ups for a message of x elements; without a packet limit one for any message with data.
double start_ups(const MachineConfig& config, double elements) {
  if (elements <= 0) return 0;
  return config.packet == 0 ? 1.0 : std::ceil(elements / static_cast<double>(config.packet));
}

// C(n, k) as a double, for the tables' arithmetic in elements (n <= 16: exact).
double binomial_count(int n, int k) { return static_cast<double>(binomial(n, k)); }

Time table_time(const MachineConfig& config, double elements, double starts) {
  return from_us(elements * config.tau + starts * start_up_us(config));
}

}  // namespace

std::optional<Time> sbnt_balanced_table_time(const MachineConfig& config, std::size_t m) {
  if (config.ports.kind != Ports::Kind::all) return std::nullopt;
  const int n = config.d;
  if (n == 0) return 0;
  const auto M = static_cast<double>(m);
  double starts = 0;
  for (int i = 1; i <= n; ++i) starts += start_ups(config, binomial_count(n, i) * M / n);
  return table_time(config, (std::ldexp(1.0, n) - 1) * M / n, starts);
}

std::optional<Time> sbnt_exchange_table_time(const MachineConfig& config, std::size_t m) {
  if (config.ports.kind != Ports::Kind::all) return std::nullopt;
  const int n = config.d;
  if (n == 0) return 0;
  const auto M = static_cast<double>(m);
  double starts = 0;
  for (int i = 1; i <= n; ++i) {
    double blocks = 0;
    for (int j = i; j <= n; ++j) blocks += binomial_count(n, j);
    starts += start_ups(config, blocks * M / n);
  }
  return table_time(config, std::ldexp(1.0, n) * M / 2, starts);
}

std::optional<Time> one_port_tree_allgather_table_time(const MachineConfig& config, std::size_t m) {
  if (config.ports.kind != Ports::Kind::one) return std::nullopt;
  const int n = config.d;
  if (n == 0) return 0;
  const double elements = (std::ldexp(1.0, n) - 1) * static_cast<double>(m);
  return table_time(config, elements, std::max(2.0 * n - 1, start_ups(config, elements)));
}

std::optional<Time> a1_n_port_table_time(const MachineConfig& config, const MatmulShape& shape,
                                         const MatmulOptions& options) {
  if (config.ports.kind != Ports::Kind::all || options.algorithm != MatmulAlgorithm::a1_2d_sbnt) return std::nullopt;
  const auto exact = matmul_time(config, shape, options);
  if (!exact) return std::nullopt;
  const Grid g = options.grid;
  const std::size_t row_block = block_shape(shape.P, shape.Q, g).size();
  const std::size_t column_block = block_shape(shape.Q, shape.R, g).size();
  // Each broadcast on its own subcube: Table 2's SBnT-b(n,N) row with n = n2 (rows) or n1 (columns).
  MachineConfig row = config, column = config;
  row.d = g.n2;
  column.d = g.n1;
  const auto row_time = sbnt_balanced_table_time(row, options.element_bytes * row_block);
  const auto column_time = sbnt_balanced_table_time(column, options.element_bytes * column_block);
  return std::max(*row_time, *column_time) + exact->arithmetic;
}

std::optional<Time> transposed_n_port_table_time(const MachineConfig& config, const MatmulShape& shape,
                                                 const MatmulOptions& options) {
  using A = MatmulAlgorithm;
  const A a = options.algorithm;
  if (config.ports.kind != Ports::Kind::all ||
      (a != A::a2_2d_sbnt && a != A::a3_2d_sbnt && a != A::a4_2d_sbnt && a != A::a5_2d_sbnt))
    return std::nullopt;
  const auto exact = matmul_time(config, shape, options);
  if (!exact) return std::nullopt;
  const Grid g = matmul_grid(options, config.d);
  const int n = config.d;
  if (n == 0) return exact->arithmetic;
  // Blocks in bytes (the tables' element is a byte here: t_c = τ per byte), [x/N1][y/N2] as block_shape gives them.
  const auto w = static_cast<double>(options.element_bytes);
  auto block = [&](std::size_t rows_over_n1, std::size_t cols_over_n2) {
    return w * static_cast<double>(block_shape(rows_over_n1, cols_over_n2, g).size());
  };
  // [x/N1][y/N2] where x is split by N1 and y by N2.
  const double pq = block(shape.P, shape.Q), qr = block(shape.Q, shape.R);
  const double rp = block(shape.R, shape.P);  // [R/N1][P/N2]
  const double qp = block(shape.Q, shape.P), pr = block(shape.P, shape.R), rq = block(shape.R, shape.Q);
  const double start_up = start_up_us(config), t_c = config.tau;
  auto transpose = [&](double x) {
    const double root = std::sqrt(x * t_c) + std::sqrt((n - 1) * start_up);
    return root * root;
  };
  // (N_k - 1)/n_k of a subcube of k dimensions; none for k = 0.
  auto spread = [](int k) { return k == 0 ? 0.0 : (std::ldexp(1.0, k) - 1) / k; };
  double us = n * start_up;
  switch (a) {
    case A::a2_2d_sbnt:
      us += transpose(pq) + (qp * spread(g.n2) + pr * spread(g.n1)) * t_c;
      break;
    case A::a3_2d_sbnt:
      us += transpose(pq) + transpose(rp) + (qr * spread(g.n2) + rp * spread(g.n1)) * t_c;
      break;
    case A::a4_2d_sbnt:
      us += transpose(qr) + (rq * spread(g.n1) + pr * spread(g.n2)) * t_c;
      break;
    default:
      us += transpose(qr) + transpose(rp) + (pq * spread(g.n1) + rp * spread(g.n2)) * t_c;
  }
  return from_us(us) + exact->arithmetic;
}

}  // namespace hcemu::model
