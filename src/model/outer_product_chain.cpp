#include "model/outer_product_chain.hpp"

#include <algorithm>
#include <tuple>
#include <vector>

#include "common/cost_table.hpp"

namespace hcemu::model {
namespace {

// The schedule of kernels::outer_products in ring positions: node (row, column) multiplies multiplication m's block
// pair j in step a(column, j) + a(row, j) + m·s, a(to, from) = (to - from) mod s, plus 1 where the way wraps.
struct Product {
  std::uint32_t step, m, j;
};

std::uint32_t way(std::uint32_t s, std::uint32_t to, std::uint32_t from) {
  return (to + s - from) % s + (to < from ? 1 : 0);
}

// A node's resources for transfers in one direction (output) or the other (input): one channel (`one`), N (`k:N`),
// or, on all-port, one per link (the caller picks it).
struct Channels {
  std::vector<Time> free;
  // The output channel a transfer takes: the earliest free, the lowest among equals.
  std::size_t earliest() const { return static_cast<std::size_t>(std::min_element(free.begin(), free.end()) - free.begin()); }
  // The input channel that completes a message arriving at `arrival` and held `hold` first, the lowest among equals.
  std::size_t completing_first(Time arrival, Time hold) const {
    std::size_t best = 0;
    for (std::size_t i = 1; i < free.size(); ++i)
      if (std::max(arrival, free[i] + hold) < std::max(arrival, free[best] + hold)) best = i;
    return best;
  }
};

// A block on its way: which multiplication and pair, and when its transfer ends.
struct InFlight {
  std::uint32_t m, j;
  Time end;
};

struct NodeState {
  Time clock = 0, last_send = 0;
  Channels out, in;
  Time right_link = 0, down_link = 0;
  std::vector<InFlight> from_left, from_up;
};

Time take(std::vector<InFlight>& in_flight, std::uint32_t m, std::uint32_t j) {
  const auto it = std::find_if(in_flight.begin(), in_flight.end(), [&](const InFlight& b) { return b.m == m && b.j == j; });
  const Time end = it->end;  // always there: its sender's product came in an earlier step
  in_flight.erase(it);
  return end;
}

}  // namespace

Time outer_products_longest_chain(const Ports& ports, std::int64_t overlap, std::uint32_t s, int products, Time w,
                                  Time tc, Time td) {
  const bool all = ports.kind == Ports::Kind::all;
  const std::size_t channels = ports.kind == Ports::Kind::k ? static_cast<std::size_t>(ports.n) : 1;
  const auto K = static_cast<std::uint32_t>(products);
  std::vector<NodeState> nodes(static_cast<std::size_t>(s) * s);
  std::vector<std::vector<Product>> order(nodes.size());
  std::uint32_t last_step = 0;
  for (std::uint32_t row = 0; row < s; ++row)
    for (std::uint32_t column = 0; column < s; ++column) {
      NodeState& x = nodes[row * s + column];
      x.out.free.assign(all ? 0 : channels, 0);
      x.in.free.assign(all ? 2 : channels, 0);  // all-port: the link from the left, the link from above
      auto& own = order[row * s + column];
      for (std::uint32_t m = 0; m < K; ++m)
        for (std::uint32_t j = 0; j < s; ++j) own.push_back({way(s, column, j) + way(s, row, j) + m * s, m, j});
      std::sort(own.begin(), own.end(), [](const Product& u, const Product& v) { return std::tie(u.step, u.m) < std::tie(v.step, v.m); });
      last_step = std::max(last_step, own.back().step);
    }

  const auto receive = [&](NodeState& x, std::size_t link, Time end, Time hold) {
    const std::size_t i = all ? link : x.in.completing_first(end, hold);
    const Time completion = std::max(end, x.in.free[i] + hold);
    x.in.free[i] = completion - CostTable::overlap_of(hold, overlap);
    x.clock = std::max(x.clock, completion);
  };
  const auto send = [&](NodeState& x, Time& link, Time hold) {
    Time start = std::max(x.clock, link);
    std::size_t channel = 0;
    if (!all) {
      channel = x.out.earliest();
      start = std::max(start, x.out.free[channel]);
    }
    const Time end = start + hold;
    if (!all) x.out.free[channel] = end - CostTable::overlap_of(hold, overlap);
    link = end;
    x.last_send = std::max(x.last_send, end);
    return end;
  };

  std::vector<std::size_t> next(nodes.size(), 0);
  for (std::uint32_t step = 0; step <= last_step; ++step)
    for (std::uint32_t row = 0; row < s; ++row)
      for (std::uint32_t column = 0; column < s; ++column) {
        const std::size_t at = row * s + column;
        NodeState& x = nodes[at];
        for (; next[at] < order[at].size() && order[at][next[at]].step == step; ++next[at]) {
          const std::uint32_t m = order[at][next[at]].m, j = order[at][next[at]].j;
          if (j != column) receive(x, 0, take(x.from_left, m, j), tc);
          if (j != row) receive(x, 1, take(x.from_up, m, j), td);
          x.clock += w;
          if ((column + 1) % s != j)
            nodes[row * s + (column + 1) % s].from_left.push_back({m, j, send(x, x.right_link, tc)});
          if ((row + 1) % s != j)
            nodes[((row + 1) % s) * s + column].from_up.push_back({m, j, send(x, x.down_link, td)});
        }
      }
  Time makespan = 0;
  for (const NodeState& x : nodes) makespan = std::max({makespan, x.clock, x.last_send});
  return makespan;
}

}  // namespace hcemu::model
