// Stout & Wagar (1990) §2, BROADCAST 3A, 3B and 4. (docs/kernels/broadcast.md)
//
// C_j is the set of nodes at distance j from the root; W_n and Z_n the 1- and 0-bit positions of n; next_n(z) the
// first 1-bit of n after z, circularly. BROADCAST 3A cuts the message into P_0 .. P_{d-1} and runs d + 1 stages:
//   stage k: only C_k sends, one packet on each link:
//     the root sends P_z across every dimension z;
//     n in C_k sends P_w down across w for each w in W_n, and P_{next_n(z)} up across z for each z in Z_n.
// C_k receives its P_w (w in W_n) in stage k-1 and its P_z (z in Z_n) in stage k+1. BROADCAST 3B drops stage d
// and instead starts a second wave on Q_x = P_{(x+1) mod d} one stage behind, whose stages 0..d-2 give every node
// of C_{d-1} its missing packet. BROADCAST 4 cuts the message into g groups of d packets: in stage k a node of C_j
// does stage j for group k - j; groups 0..g-2 run 3A, group g-1 runs 3B, and its second wave takes, for C_j, the
// stage g + j that the non-existent group g would have used. Each node then sends at most one packet per link per
// stage, and d + g - 1 stages of one packet time each broadcast the message: (d + g - 1)(τm/(dg) + β).
//
// BROADCAST 3A on its own is one group whose wave keeps its stage d: d + 1 stages, (d + 1)(τm/d + β) (for d >= 2;
// at d = 1 the one send of stage 1 would go back to the root, so it is one stage).
//
// Two choices of ours, neither of which changes the time on an all-port machine:
// - A packet is sent to a node only the first time the schedule delivers it there. 3A's stage-1 sends back to the
//   root and the second wave's sends down are such repeats, and some first-wave sends of group g-1 arrive after
//   the second wave has delivered the packet. The filter is computed, not hand-listed: every node evaluates the
//   schedule of the links into itself and into its neighbours.
// - Every packet is s = ⌈m/(dg)⌉ bytes (the fixed-packet-size form the paper proves optimal); the packets past the
//   end of the message carry zeros. Only the straddling packet is copied, through a small padded buffer, without a
//   ρ charge: the padding is bookkeeping of this implementation, not part of the algorithm.
#include <algorithm>
#include <climits>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "broadcast4_schedule.hpp"
#include "broadcast_cube.hpp"
#include "hcemu/kernels/broadcast.hpp"
#include "hcemu/model/collectives.hpp"

namespace hcemu::kernels {
namespace {

struct Send {
  int dim;
  int packet;
};

using Step = detail::Broadcast4Step;
using Arrival = detail::Broadcast4Arrival;

// BROADCAST 4 with `groups` groups, the last ending as `last` says.
void wave_broadcast(Node& node, std::span<std::byte> message, int root, int groups, detail::LastWave last,
                    const char* kernel) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  detail::check_root(root, node.size(), kernel);
  if (groups < 1) throw UsageError(std::string(kernel) + ": groups must be >= 1, got " + std::to_string(groups));
  const int d = node.dim();
  if (d == 0) return;
  // Packet p travels with tag p, so the d·groups packets must be numbered by an int.
  if (groups > std::numeric_limits<int>::max() / d)
    throw UsageError(std::string(kernel) + ": " + std::to_string(groups) + " groups of d = " + std::to_string(d) +
                     " packets are too many to number");
  const int g = groups;
  const std::size_t m = message.size();
  const std::size_t s = model::pipelined_broadcast_packet_bytes(d, m, g);
  const auto count = static_cast<std::size_t>(d * g);
  const std::size_t whole = s == 0 ? count : std::min(count, m / s);  // packets lying wholly inside the message
  Buffer<std::byte> tail = node.allocate<std::byte>((count - whole) * s);
  auto packet = [&](int p) {
    const auto up = static_cast<std::size_t>(p);
    return up < whole ? message.subspan(up * s, s) : tail.span().subspan((up - whole) * s, s);
  };
  const auto relative = static_cast<std::uint32_t>(node.id() ^ root);
  const int last_stage = detail::broadcast4_stages(d, g, last) - 1;

  if (relative == 0) {
    std::fill(tail.begin(), tail.end(), std::byte{0});
    if (m > whole * s) std::memcpy(tail.data(), message.data() + whole * s, m - whole * s);
  }

  // Receives: the first delivery of every packet, all posted up front.
  const std::vector<Arrival> first = detail::broadcast4_first_arrivals(relative, d, g, last);
  std::vector<std::vector<Request>> arriving(static_cast<std::size_t>(last_stage + 1));
  for (int p = 0; p < d * g && relative != 0; ++p) {
    const Arrival& a = first[static_cast<std::size_t>(p)];
    if (a.dim < 0 || a.stage > last_stage)
      throw std::logic_error(std::string(kernel) + ": the schedule never delivers packet " + std::to_string(p));
    arriving[static_cast<std::size_t>(a.stage)].push_back(node.post_recv(node.neighbor(a.dim), packet(p), p));
  }

  // Sends: this node's part of the schedule, less what the neighbour already has by then.
  std::vector<std::vector<Send>> sending(static_cast<std::size_t>(last_stage + 1));
  std::vector<Step> steps;
  for (int e = 0; e < d; ++e) {
    const std::vector<Arrival> theirs = detail::broadcast4_first_arrivals(relative ^ detail::dim_bit(e), d, g, last);
    detail::broadcast4_sends(relative, e, d, g, steps, last);
    for (const Step& st : steps) {
      const Arrival& a = theirs[static_cast<std::size_t>(st.packet)];
      if (a.stage == st.stage && a.dim == e) sending[static_cast<std::size_t>(st.stage)].push_back({e, st.packet});
    }
  }

  std::vector<Request> sends;
  for (int k = 0; k <= last_stage; ++k) {
    if (k > 0) node.wait_all(arriving[static_cast<std::size_t>(k - 1)]);
    for (const Send& st : sending[static_cast<std::size_t>(k)]) {
      if (relative != 0 && first[static_cast<std::size_t>(st.packet)].stage >= k)
        throw std::logic_error(std::string(kernel) + ": packet " + std::to_string(st.packet) +
                               " sent before it arrived");
      sends.push_back(node.isend(node.neighbor(st.dim), std::span<const std::byte>(packet(st.packet)), st.packet));
    }
  }
  node.wait_all(arriving[static_cast<std::size_t>(last_stage)]);
  node.wait_all(sends);

  if (relative != 0 && m > whole * s) std::memcpy(message.data() + whole * s, tail.data(), m - whole * s);
}

}  // namespace

void pipelined_broadcast(Node& node, std::span<std::byte> message, int root, int groups) {
  wave_broadcast(node, message, root, groups, detail::LastWave::b3, "pipelined_broadcast");
}

void systolic_broadcast(Node& node, std::span<std::byte> message, int root) {
  wave_broadcast(node, message, root, 1, detail::LastWave::a3, "systolic_broadcast");
}

}  // namespace hcemu::kernels
