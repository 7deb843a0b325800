// A user's kernel: a naive all-to-all in which every node sends its block for node j to j in order j = 0, 1, ...
// (no XOR schedule), and a ring shift. Tested over d = 0..5 and two port models with hcemu::testing::KernelCheck,
// each case a test of its own (NaiveAllToAll.DeliversEveryWord/d3_all, ...).
#include <gtest/gtest.h>

#include <cstring>

#include "hcemu/hcemu.hpp"
#include "hcemu/model/transfer.hpp"
#include "hcemu/testing/gtest.hpp"

namespace {

using Data = std::vector<std::uint32_t>;

// Every node sends word j of its input to node j and receives word i of every node's input, in order of source.
void naive_all_to_all(hcemu::Node& node, std::span<const std::uint32_t> in, Data& out) {
  const int n = node.size();
  out.assign(static_cast<std::size_t>(n), 0);
  std::vector<hcemu::Request> requests;
  for (int j = 0; j < n; ++j)
    if (j != node.id()) requests.push_back(node.post_recv(j, std::span(out).subspan(static_cast<std::size_t>(j), 1)));
  for (int j = 0; j < n; ++j)
    if (j != node.id()) requests.push_back(node.isend(j, in.subspan(static_cast<std::size_t>(j), 1)));
  node.wait_all(requests);
  out[static_cast<std::size_t>(node.id())] = in[static_cast<std::size_t>(node.id())];
}

hcemu::MachineConfig machine() {
  hcemu::MachineConfig c;
  c.lambda = 10;
  c.tau = 0.5;
  return c;
}

HCEMU_KERNEL_CHECKS(NaiveAllToAll, DeliversEveryWord) {
  hcemu::testing::KernelCheck<std::uint32_t> check;
  check.dims(0, 5).ports({"one", "all"}).base(machine())
      .input([](const hcemu::testing::Case& c, int, std::mt19937_64& rng) {
        Data v(static_cast<std::size_t>(c.nodes()));
        for (auto& x : v) x = static_cast<std::uint32_t>(rng());
        return v;
      })
      .kernel(naive_all_to_all)
      .reference([](const hcemu::testing::Case& c, const std::vector<Data>& in) {
        std::vector<Data> out(in.size(), Data(in.size()));
        for (std::size_t t = 0; t < in.size(); ++t)
          for (std::size_t s = 0; s < in.size(); ++s) out[t][s] = in[s][t];
        (void)c;
        return out;
      });
  checks.add(check);
}

// A ring shift along a Gray code is nearest-neighbour: one message per node, one hop, so under one-port circuit
// switching the makespan is one transfer, λ + δ' + δ + τ·4.
HCEMU_KERNEL_CHECKS(GrayRingShift, TakesOneTransfer) {
  hcemu::testing::KernelCheck<std::uint32_t> check;
  auto gray = [](int i) { return i ^ (i >> 1); };
  auto gray_rank = [](int g) {
    int i = 0;
    for (; g; g >>= 1) i ^= g;
    return i;
  };
  check.dims(2, 6)
      .ports({"one", "all"})
      .base(machine())
      .input([](const hcemu::testing::Case&, int, std::mt19937_64& rng) {
        return Data{static_cast<std::uint32_t>(rng())};
      })
      .kernel([=](hcemu::Node& node, std::span<const std::uint32_t> in, Data& out) {
        const int n = node.size(), rank = gray_rank(node.id());
        out.assign(1, 0);
        hcemu::Request r = node.post_recv(gray((rank + n - 1) % n), out);
        node.send(gray((rank + 1) % n), in);
        node.wait(r);
      })
      .reference([=](const hcemu::testing::Case& c, const std::vector<Data>& in) {
        std::vector<Data> out(in.size());
        for (int rank = 0; rank < c.nodes(); ++rank)
          out[static_cast<std::size_t>(gray((rank + 1) % c.nodes()))] = in[static_cast<std::size_t>(gray(rank))];
        return out;
      })
      .predict([](const hcemu::MachineConfig& cfg) -> hcemu::Time {
        return hcemu::model::message_time(cfg, sizeof(std::uint32_t), 1);
      })
      .tolerance(hcemu::testing::Tolerance::exact())
      .no_contention();
  checks.add(check);
}

}  // namespace
