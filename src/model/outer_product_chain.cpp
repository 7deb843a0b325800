#include "model/outer_product_chain.hpp"

#include <algorithm>
#include <vector>

#include "common/ports.hpp"

namespace hcemu::model {
namespace {

// The schedule of kernels::outer_products in ring positions: node (row, column) multiplies multiplication m's block
// pair j in step a(column, j) + a(row, j) + m·s, a(to, from) = (to - from) mod s, plus 1 where the way wraps. For
// one multiplication that is row + column - 2j, plus s + 1 where one of the two ways wraps (j above one of row and
// column), 2s + 2 where both do: decreasing in j by 2 within each range, and no two pairs in one step. The pair a
// node multiplies at `offset` = step - m·s (0..2s), or -1.
int pair_at(std::int64_t s, std::int64_t row, std::int64_t column, std::int64_t offset) {
  const std::int64_t low = std::min(row, column), high = std::max(row, column);
  const std::int64_t ranges[3][3] = {{0, low, 0}, {low + 1, high, s + 1}, {high + 1, s - 1, 2 * s + 2}};
  for (const auto& [first, last, wrap] : ranges) {
    const std::int64_t twice = row + column + wrap - offset;  // 2j
    if (twice >= 0 && twice % 2 == 0 && twice / 2 >= first && twice / 2 <= last) return static_cast<int>(twice / 2);
  }
  return -1;
}

// A block on its way: which multiplication and pair, and when its transfer ends.
struct InFlight {
  std::uint32_t m, j;
  Time end;
};

struct NodeState {
  explicit NodeState(const timing::PortState& p) : ports(p) {}
  Time clock = 0, last_send = 0;
  timing::PortState ports;  // all-port: input 0 the link from the left, 1 the link from above
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

std::optional<Time> outer_products_longest_chain(const Ports& ports, std::int64_t overlap, std::uint32_t s,
                                                 int products, Time w, Time tc, Time td) {
  const auto K = static_cast<std::uint32_t>(products);
  if (static_cast<double>(K) * s * s * s > kMostProducts) return std::nullopt;
  std::vector<NodeState> nodes(static_cast<std::size_t>(s) * s, NodeState(timing::PortState(ports, 2, overlap)));
  const auto receive = [](NodeState& x, int link, Time end, Time hold) {
    x.clock = std::max(x.clock, x.ports.take_input(end, hold, link));
  };
  const auto send = [](NodeState& x, Time& link, Time hold) {
    const timing::PortState::Slot slot = x.ports.output_slot();
    const Time start = std::max({x.clock, link, slot.channel >= 0 ? slot.free : Time{0}});
    const Time end = start + hold;
    x.ports.take_output(slot.channel, start, end);
    link = end;
    x.last_send = std::max(x.last_send, end);
    return end;
  };

  // Steps 0 .. (K + 1)s: in each, every node's products of that step, the earlier multiplication first.
  const std::uint32_t last_step = (K + 1) * s;
  for (std::uint32_t step = 0; step <= last_step; ++step)
    for (std::uint32_t row = 0; row < s; ++row)
      for (std::uint32_t column = 0; column < s; ++column) {
        NodeState& x = nodes[row * s + column];
        for (std::uint32_t m = step > 2 * s ? (step - 2 * s + s - 1) / s : 0; m < K && m * s <= step; ++m) {
          const int pair = pair_at(s, row, column, step - m * s);
          if (pair < 0) continue;
          const auto j = static_cast<std::uint32_t>(pair);
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
