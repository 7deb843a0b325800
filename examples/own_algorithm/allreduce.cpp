#include "allreduce.hpp"

#include <algorithm>
#include <cstring>

#include "hcemu/model/costs.hpp"

namespace allreduce {

namespace {

int gray(int rank) { return rank ^ (rank >> 1); }

int gray_rank(int id) {
  int rank = 0;
  for (; id != 0; id >>= 1) rank ^= id;
  return rank;
}

}  // namespace

void recursive_doubling(hcemu::Node& node, std::span<double> data) {
  hcemu::CollectiveScope scope(node);
  hcemu::Buffer<double> received = node.allocate<double>(data.size());
  for (int k = 0; k < node.dim(); ++k) {
    node.exchange(node.neighbor(k), data, received.span());
    for (std::size_t i = 0; i < data.size(); ++i) data[i] += received[i];
    node.compute(data.size());
  }
}

void ring(hcemu::Node& node, std::span<double> data) {
  hcemu::CollectiveScope scope(node);
  const int p = node.size();
  if (p == 1) return;
  const std::size_t m = data.size();
  const std::size_t b = (m + static_cast<std::size_t>(p) - 1) / static_cast<std::size_t>(p);
  hcemu::Buffer<double> blocks = node.allocate<double>(b * static_cast<std::size_t>(p));
  std::fill(blocks.begin(), blocks.end(), 0.0);
  std::copy(data.begin(), data.end(), blocks.begin());
  hcemu::Buffer<double> in = node.allocate<double>(b);

  const int r = gray_rank(node.id());
  const int successor = gray((r + 1) % p), predecessor = gray((r + p - 1) % p);
  const auto block = [&](int i) { return blocks.span().subspan(static_cast<std::size_t>(((i % p) + p) % p) * b, b); };

  // Reduce-scatter: in step s the node passes on block r - s, and adds its predecessor's block r - s - 1 into its
  // own; after 2^d - 1 steps its block r + 1 holds the sum over all nodes.
  for (int s = 0; s + 1 < p; ++s) {
    hcemu::Request got = node.post_recv(predecessor, in.span());
    node.send(successor, block(r - s));
    node.wait(got);
    const std::span<double> mine = block(r - s - 1);
    for (std::size_t i = 0; i < b; ++i) mine[i] += in[i];
    node.compute(b);
  }
  // Allgather: in step s the node passes on the summed block r + 1 - s and receives block r - s.
  for (int s = 0; s + 1 < p; ++s) {
    hcemu::Request got = node.post_recv(predecessor, block(r - s));
    node.send(successor, block(r + 1 - s));
    node.wait(got);
  }
  std::copy(blocks.begin(), blocks.begin() + static_cast<std::ptrdiff_t>(m), data.begin());
}

hcemu::Time recursive_doubling_time(const hcemu::MachineConfig& config, std::size_t m) {
  const hcemu::Time step = hcemu::model::pairwise_exchange_time(config, sizeof(double) * m, 1) +
                           hcemu::model::compute_time(config, m);
  return config.d * step;
}

hcemu::Time ring_time(const hcemu::MachineConfig& config, std::size_t m) {
  const auto p = static_cast<std::size_t>(config.nodes());
  if (p == 1) return 0;
  const std::size_t b = (m + p - 1) / p;
  const hcemu::Time exchange = hcemu::model::pairwise_exchange_time(config, sizeof(double) * b, 1);
  const hcemu::Time add = hcemu::model::compute_time(config, b);
  return static_cast<hcemu::Time>(p - 1) * (exchange + add) + static_cast<hcemu::Time>(p - 1) * exchange;
}

std::optional<hcemu::Time> lower_bound(const hcemu::MachineConfig& config, std::size_t m) {
  if (m == 0) return std::nullopt;
  long long fan_in = 1;
  if (config.ports.kind == hcemu::Ports::Kind::k) fan_in = config.ports.n;
  if (config.ports.kind == hcemu::Ports::Kind::all) fan_in = std::max(config.d, 1);
  // The fewest start-ups r with (q + 1)^r >= 2^d.
  int startups = 0;
  for (long long reach = 1; reach < config.nodes(); reach *= fan_in + 1) ++startups;
  return startups * hcemu::from_us(config.lambda);
}

}  // namespace allreduce
