// Stout & Wagar (1990) §4, ARBITRARY SEND 2: BROADCAST 4 (§2) from the source, with "the last d - 2 - n stages
// deleted", stages only needed to reach nodes farther than n. The BROADCAST 4 schedule (broadcast4_schedule.hpp) is
// run in the pair's virtual coordinates (pair_frame.hpp), where the destination is 2^n - 1, and only the transfers
// that lead to it are made: for every packet, the first delivery to the destination, the first delivery to the node
// it comes from, and so on back to the source. The destination has every packet after stage n + g (n <= d - 2) or
// d + g - 2; since every link carries at most one packet of s = ⌈m/(dg)⌉ bytes per stage, each stage lasts one
// packet time. Sends that lead elsewhere would not change that time on an all-port machine; leaving them out only
// saves traffic.
#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "broadcast4_schedule.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/kernels/long_send.hpp"
#include "hcemu/model/collectives.hpp"
#include "pair_frame.hpp"

namespace hcemu::kernels {
namespace {

struct Transfer {
  std::uint32_t from, to;  // virtual addresses
  int packet;
  int stage;
  int dim;  // virtual
};

// The transfers that bring every packet to `target`, each the first delivery of its packet to its receiver.
std::vector<Transfer> transfers_to(std::uint32_t target, int d, int g) {
  std::map<std::uint32_t, std::vector<detail::Broadcast4Arrival>> first;
  auto arrivals = [&](std::uint32_t v) -> const std::vector<detail::Broadcast4Arrival>& {
    auto it = first.find(v);
    if (it == first.end()) it = first.emplace(v, detail::broadcast4_first_arrivals(v, d, g)).first;
    return it->second;
  };
  std::vector<Transfer> needed;
  std::set<std::pair<std::uint32_t, int>> seen;
  std::vector<std::pair<std::uint32_t, int>> todo;
  for (int p = 0; p < d * g; ++p) todo.emplace_back(target, p);
  while (!todo.empty()) {
    const auto [v, p] = todo.back();
    todo.pop_back();
    if (v == 0 || !seen.emplace(v, p).second) continue;
    const detail::Broadcast4Arrival a = arrivals(v)[static_cast<std::size_t>(p)];
    if (a.dim < 0) throw std::logic_error("arbitrary_send_2: the schedule never delivers packet " + std::to_string(p));
    const std::uint32_t u = v ^ detail::dim_bit(a.dim);
    needed.push_back({u, v, p, a.stage, a.dim});
    todo.emplace_back(u, p);
  }
  return needed;
}

}  // namespace

void arbitrary_send_2(Node& node, std::span<std::byte> message, int groups, int src, int dst) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  if (groups < 1) throw UsageError("arbitrary_send_2: groups must be >= 1, got " + std::to_string(groups));
  dst = detail::resolve_destination(src, dst, node.dim());
  const detail::PairFrame frame(node.dim(), src, dst, "arbitrary_send_2");
  const int d = frame.d(), n = frame.n(), g = groups;
  if (n == 0) return;
  const std::vector<Transfer> plan = transfers_to((std::uint32_t{1} << n) - 1, d, g);
  const std::uint32_t me = frame.to_virtual(node.id());
  const bool involved =
      std::any_of(plan.begin(), plan.end(), [me](const Transfer& t) { return t.from == me || t.to == me; });
  if (!involved) return;

  // Packets of s bytes; at the source and destination those wholly inside the message are the message itself, the
  // others a zero-padded tail (bookkeeping, copied without a ρ charge, as in BROADCAST 4).
  const std::size_t m = message.size();
  const std::size_t s = model::pipelined_broadcast_packet_bytes(d, m, g);
  const auto count = static_cast<std::size_t>(d * g);
  const bool end = node.id() == src || node.id() == dst;
  const std::size_t whole = !end ? 0 : (s == 0 ? count : std::min(count, m / s));
  Buffer<std::byte> scratch = node.allocate<std::byte>((count - whole) * s);
  auto packet = [&](int p) {
    const auto up = static_cast<std::size_t>(p);
    return up < whole ? message.subspan(up * s, s) : scratch.span().subspan((up - whole) * s, s);
  };
  if (node.id() == src) {
    std::fill(scratch.begin(), scratch.end(), std::byte{0});
    if (m > whole * s) std::memcpy(scratch.data(), message.data() + whole * s, m - whole * s);
  }

  int last = 0;
  for (const Transfer& t : plan) last = std::max(last, t.stage);
  std::vector<std::vector<Request>> arriving(static_cast<std::size_t>(last) + 1);
  std::vector<std::vector<const Transfer*>> sending(static_cast<std::size_t>(last) + 1);
  for (const Transfer& t : plan) {
    if (t.to == me)
      arriving[static_cast<std::size_t>(t.stage)].push_back(
          node.post_recv(node.neighbor(frame.dim(t.dim)), packet(t.packet), t.packet));
    if (t.from == me) sending[static_cast<std::size_t>(t.stage)].push_back(&t);
  }

  std::vector<Request> sends;
  for (int k = 0; k <= last; ++k) {
    if (k > 0) node.wait_all(arriving[static_cast<std::size_t>(k - 1)]);
    for (const Transfer* t : sending[static_cast<std::size_t>(k)])
      sends.push_back(
          node.isend(node.neighbor(frame.dim(t->dim)), std::span<const std::byte>(packet(t->packet)), t->packet));
  }
  node.wait_all(arriving[static_cast<std::size_t>(last)]);
  node.wait_all(sends);

  if (node.id() == dst && m > whole * s) std::memcpy(message.data() + whole * s, scratch.data(), m - whole * s);
}

}  // namespace hcemu::kernels
