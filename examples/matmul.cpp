// Multiplying your own matrices on an emulated cube (Johnsson & Ho 1987 §5): lay them out in blocks, run
// kernels::matmul on every node, gather the product, and check it against the serial product and the emulated time
// against the closed form. Built and run by the test suite (ctest: example.matmul), so that it stays in step with the
// API. docs/kernels/matmul.md has the algorithms; `hcemu run matmul` and `hcemu plan matmul` do the same from the
// command line.
#include <cmath>
#include <hcemu/hcemu.hpp>
#include <hcemu/kernels/matmul.hpp>
#include <hcemu/model/matmul.hpp>
#include <hcemu/model/matmul_planner.hpp>
#include <iostream>
#include <vector>

namespace {

// A rows × cols matrix, column-major (element (i, j) at i + j·rows), as kernels::extract_block expects.
std::vector<double> matrix(std::size_t rows, std::size_t cols, double (*element)(std::size_t, std::size_t)) {
  std::vector<double> m(rows * cols);
  for (std::size_t j = 0; j < cols; ++j)
    for (std::size_t i = 0; i < rows; ++i) m[i + j * rows] = element(i, j);
  return m;
}

}  // namespace

int main() {
  // The Yale iPSC of Johnsson & Ho's §1.3 (configs/ipsc-yale.toml), as an 8-node cube.
  hcemu::MachineConfig config;
  config.d = 3;
  config.lambda = 1500.0;  // start-up per packet, µs
  config.tau = 1.0;        // µs per byte
  config.packet = 1024;    // 1 KB packets
  config.flop = 33.333;    // 30 kflops
  config.switching = hcemu::Switching::store_and_forward;
  config.ports = hcemu::Ports::parse("one");
  config.protocol = hcemu::Protocol::unforced;

  // A <- C × D + E with C 12 × 10, D 10 × 9: neither divides into 8 blocks, so the blocks are zero-padded.
  const hcemu::model::MatmulShape shape{12, 10, 9};
  const auto C = matrix(shape.P, shape.Q, [](std::size_t i, std::size_t j) { return 1.0 / double(i + j + 1); });
  const auto D = matrix(shape.Q, shape.R, [](std::size_t i, std::size_t j) { return std::sin(double(i * 7 + j)); });
  const auto E = matrix(shape.P, shape.R, [](std::size_t i, std::size_t j) { return double(i) - double(j); });
  const std::vector<double> want = hcemu::kernels::serial_matmul(shape, C, D, E);

  // The algorithm the closed forms find fastest here, and A4 for comparison.
  hcemu::model::MatmulOptions a4;
  a4.algorithm = hcemu::model::MatmulAlgorithm::a4;
  bool ok = true;
  for (const hcemu::model::MatmulOptions& options : {hcemu::model::best_matmul(config, shape).options, a4}) {
    const hcemu::model::Grid grid = hcemu::model::matmul_grid(options, config.d);
    std::vector<std::vector<double>> c(config.nodes()), d(config.nodes()), e(config.nodes()), a(config.nodes());
    for (int x = 0; x < config.nodes(); ++x) {
      c[x] = hcemu::kernels::extract_block(C, shape.P, shape.Q, grid, x);
      d[x] = hcemu::kernels::extract_block(D, shape.Q, shape.R, grid, x);
      e[x] = hcemu::kernels::extract_block(E, shape.P, shape.R, grid, x);
      a[x].assign(e[x].size(), 0.0);
    }
    hcemu::Machine machine(config);
    const hcemu::RunReport report = machine.run([&](hcemu::Node& node) {
      const int x = node.id();
      hcemu::kernels::matmul(node, shape, options, {c[x], d[x], e[x], a[x]});
    });

    std::vector<double> product(shape.P * shape.R);
    for (int x = 0; x < config.nodes(); ++x)
      hcemu::kernels::place_block(a[x], product, shape.P, shape.R, grid, x);
    double error = 0;
    for (std::size_t k = 0; k < product.size(); ++k) error = std::max(error, std::abs(product[k] - want[k]));

    const auto predicted = hcemu::model::matmul_time(config, shape, options);
    std::cout << hcemu::model::matmul_algorithm_info(options.algorithm).name << " on a " << grid.rows() << " × "
              << grid.cols() << " grid: largest error " << error << ", emulated " << report.makespan_us()
              << " µs, predicted " << hcemu::to_us(predicted->total()) << " µs (communication "
              << hcemu::to_us(predicted->communication) << ", arithmetic " << hcemu::to_us(predicted->arithmetic)
              << ")\n";
    ok = ok && error < 1e-12 && report.makespan == predicted->total();
  }
  return ok ? 0 : 1;
}
