// The qualitative findings of Johnsson & Ho's (1987) iPSC measurements (§5.1, Figures 9 and 10), on emulated runs of
// the ipsc-yale machine (configs/ipsc-yale.toml, built here key by key): P = Q = R = 32, column partitioning.
#include <gtest/gtest.h>

#include "hcemu/hcemu.hpp"
#include "matmul_support.hpp"

namespace hcemu {
namespace {

using model::MatmulAlgorithm;
using model::MatmulOptions;
using model::MatmulShape;
using A = MatmulAlgorithm;

// configs/ipsc-yale.toml: NX start-up 1.5 ms per (1 KB) packet, τ = 1 µs per byte (an assumption: the paper gives no
// t_c), 30 kflops, store-and-forward nearest-neighbour steps, one port at a time, no copy or barrier cost.
MachineConfig ipsc_yale(int d) {
  MachineConfig c;
  c.name = "ipsc-yale";
  c.d = d;
  c.lambda = 1500.0;
  c.tau = 1.0;
  c.packet = 1024;
  c.flop = 33.333;
  c.switching = Switching::store_and_forward;
  c.ports = Ports::parse("one");
  c.protocol = Protocol::unforced;
  return c;
}

MatmulOptions algorithm(A a, int k = 0, std::size_t element_bytes = 8) {
  MatmulOptions o;
  o.algorithm = a;
  o.k = k;
  o.element_bytes = element_bytes;
  return o;
}

const MatmulShape k32{32, 32, 32};

// The emulated makespan, checked against the closed form and the serial product.
Time emulated(const MachineConfig& c, const MatmulShape& shape, const MatmulOptions& o) {
  return test::check_matmul(c, shape, o).report.makespan;
}

// Communication alone: the same run with t_a = 0 (every phase of these algorithms adds up, so the arithmetic is
// the difference).
Time communication(MachineConfig c, const MatmulShape& shape, const MatmulOptions& o) {
  c.flop = 0;
  return emulated(c, shape, o);
}

TEST(IpscYale, SbtBasedMultiplicationIsNeverSlowerThanGceaBased) {
  // Figure 9: "The measured multiplication time for the GCEA based multiplication routine is 10% - 100% higher than
  // that of the SBT based routine." In the model the SBT is faster as soon as a block column (32·⌈32/N⌉ doubles) is
  // smaller than the 1 KB packet, d >= 4; up to d = 3 every packet is full either way and the two take the same time,
  // as §4.2.2 says ("if B_m <= M, then T^SBT(1,N) = T^GCEA(1,N)"): the paper's measured gap there is the GCEA's loop
  // overhead of N multiply steps, which the model does not charge.
  for (int d = 1; d <= 5; ++d) {
    const Time sbt = emulated(ipsc_yale(d), k32, algorithm(A::a1_sbt));
    const Time gcea = emulated(ipsc_yale(d), k32, algorithm(A::a1_gcea));
    if (d >= 4)
      EXPECT_LT(sbt, gcea) << "d = " << d;
    else
      EXPECT_EQ(sbt, gcea) << "d = " << d;
  }
}

TEST(IpscYale, GceaCommunicationShareGrowsWithTheCube) {
  // Figure 9: GCEA's communication grows with the cube (N - 1 start-ups) while its arithmetic shrinks (1/N).
  double last = 0;
  for (int d = 1; d <= 5; ++d) {
    const Time total = emulated(ipsc_yale(d), k32, algorithm(A::a1_gcea));
    const Time comm = communication(ipsc_yale(d), k32, algorithm(A::a1_gcea));
    const double share = static_cast<double>(comm) / static_cast<double>(total - comm);
    EXPECT_GT(share, last) << "d = " << d;
    last = share;
  }
}

TEST(IpscYale, GceaCommunicationExceedsArithmeticOnAFiveCubeWithTheFirstOperatingSystem) {
  // Figure 9: "for the GCEA, the communication times are greater than the arithmetic times for cubes with 4 or more
  // dimensions". With the preset's NX start-up (1.5 ms) the model never gets there for 8-byte doubles: at d = 5 GCEA
  // communicates 31·(1500 + 256) = 54436 µs against 2·32·32·1 flops = 68266 µs. With the first operating system's
  // 6 ms per internal packet (the --set lambda=6000 of the preset's comment) it does at d = 5: 31·6256 = 193936 µs;
  // at d = 4 (15·(6000 + 512) = 97680 µs against 136532 µs) it still does not: the measured loop overheads, which the
  // model leaves out, made up the rest.
  MachineConfig first_os = ipsc_yale(5);
  first_os.lambda = 6000;
  const Time total = emulated(first_os, k32, algorithm(A::a1_gcea));
  const Time comm = communication(first_os, k32, algorithm(A::a1_gcea));
  EXPECT_EQ(comm, from_us(31 * 6256.0));
  EXPECT_GT(comm, total - comm);
  EXPECT_LT(communication(ipsc_yale(5), k32, algorithm(A::a1_gcea)), from_us(68266));
  MachineConfig four = ipsc_yale(4);
  four.lambda = 6000;
  const Time total4 = emulated(four, k32, algorithm(A::a1_gcea));
  EXPECT_LT(communication(four, k32, algorithm(A::a1_gcea)), total4 - communication(four, k32, algorithm(A::a1_gcea)));
}

TEST(IpscYale, HybridTimeFallsUntilTheGroupFillsAPacket) {
  // Figure 10, a 5-cube: k SBT steps then 2^(5-k) - 1 GCEA steps; "the optimum buffer sizes required for the 4- and
  // the 5-cubes exceed the 1k bytes internal packet size of the iPSC, so the total time decreases only up to the
  // 3-dimensional cube". The paper's block column of 32 four-byte floats is 128 bytes, so 2^3 of them fill a packet;
  // in doubles that block is P = 16 (k falls to 3, then stays), and P = 32 doubles fills the packet at k = 2.
  // (The paper measured k = 4, 5 slightly worse than k = 3, from overheads outside the model: here they are equal.)
  for (auto [shape, knee] : {std::pair{MatmulShape{16, 32, 32}, 3}, {k32, 2}}) {
    std::vector<Time> t;
    for (int k = 0; k <= 5; ++k) t.push_back(emulated(ipsc_yale(5), shape, algorithm(A::a1_hybrid, k)));
    for (int k = 1; k <= 5; ++k) {
      if (k <= knee)
        EXPECT_LT(t[static_cast<std::size_t>(k)], t[static_cast<std::size_t>(k - 1)]) << "P = " << shape.P << " k = " << k;
      else
        EXPECT_EQ(t[static_cast<std::size_t>(k)], t[static_cast<std::size_t>(k - 1)]) << "P = " << shape.P << " k = " << k;
    }
  }
}

TEST(IpscYale, HybridInThePapersFloatsFallsToThreeDimensions) {
  // Figure 10 in the paper's own units: P = Q = R = 32 four-byte floats, a block column of 128 bytes, so 2^3 of them
  // fill the 1 KB packet and the time falls up to k = 3, then stays.
  std::vector<Time> t;
  for (int k = 0; k <= 5; ++k) t.push_back(emulated(ipsc_yale(5), k32, algorithm(A::a1_hybrid, k, 4)));
  for (int k = 1; k <= 5; ++k) {
    if (k <= 3)
      EXPECT_LT(t[static_cast<std::size_t>(k)], t[static_cast<std::size_t>(k - 1)]) << "k = " << k;
    else
      EXPECT_EQ(t[static_cast<std::size_t>(k)], t[static_cast<std::size_t>(k - 1)]) << "k = " << k;
  }
  // k = 3: 3 SBT steps of 1, 2, 4 blocks of 128 bytes, then 3 GCEA steps of 1024 bytes, each one start-up; the
  // arithmetic 2·32·32 flops of t_a.
  const Time comm = (3 + 3) * from_us(1500) + (128 + 256 + 512 + 3 * 1024) * from_us(1.0);
  EXPECT_EQ(t[3], comm + 2048 * from_us(33.333));
}

}  // namespace
}  // namespace hcemu
