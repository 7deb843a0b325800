// Johnsson & Ho (1987) §4.1.4 and Table 1, nRSBT-b(1,1): the n rotated spanning binomial trees of nrsbt_broadcast,
// scheduled for one port (model::nrsbt_one_port_schedule). The message is cut into n parts, part k going down the
// binomial tree of dimension order k, k + 1, ..., k - 1; the steps sweep the dimensions twice, 0..n-1 then 0..n-2,
// and in step s every part that crosses dimension s mod n goes in one message. The root sends parts 0..s in step
// s < n and parts s-n+1..n-1 after: messages of 1, 2, ..., n, n - 1, ..., 1 parts, the table's Mn element transfers
// and 2Σ_{i<n} ⌈Mi/(nB_m)⌉ + ⌈M/B_m⌉ start-ups. In every step a node either sends (its bit of the step's dimension
// is 0, relative to the root) or receives, and always a run of consecutive parts: one slice of the message buffer,
// nothing copied.
#include <stdexcept>
#include <vector>

#include "broadcast_cube.hpp"
#include "hcemu/kernels/primitives.hpp"
#include "hcemu/model/spanning_trees.hpp"

namespace hcemu::kernels {

void nrsbt_one_port_broadcast(Node& node, std::span<std::byte> message, int root) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  detail::check_root(root, node.size(), "nrsbt_one_port_broadcast");
  const int n = node.dim();
  if (n == 0) return;
  const auto r = static_cast<std::uint32_t>(node.id() ^ root);
  const model::TreeSchedule schedule = model::nrsbt_one_port_schedule(n);
  const std::size_t m = message.size();
  const auto parts = static_cast<std::size_t>(n);

  // The bytes of parts first..last, which the schedule always makes consecutive.
  auto slice = [&](const std::vector<int>& run) {
    for (std::size_t i = 1; i < run.size(); ++i)
      if (run[i] != run[i - 1] + 1) throw std::logic_error("nrsbt_one_port_broadcast: parts not consecutive");
    const auto first = static_cast<std::size_t>(run.front()), last = static_cast<std::size_t>(run.back());
    const std::size_t from = detail::part_offset(m, parts, first);
    return message.subspan(from, detail::part_offset(m, parts, last) + detail::part_bytes(m, parts, last) - from);
  };

  // Every receive posted before anything is sent (FORCED loses nothing), tagged with its step.
  std::vector<Request> receives(static_cast<std::size_t>(schedule.steps));
  if (r != 0)
    for (int s = 0; s < schedule.steps; ++s) {
      std::vector<int> run;
      for (int k = 0; k < n; ++k)
        if (schedule.step(k, r) == s) run.push_back(k);
      if (!run.empty()) receives[static_cast<std::size_t>(s)] = node.post_recv(node.neighbor(s % n), slice(run), s);
    }

  for (int s = 0; s < schedule.steps; ++s) {
    const int dim = s % n;
    if (receives[static_cast<std::size_t>(s)].valid()) node.wait(receives[static_cast<std::size_t>(s)]);
    const std::uint32_t child = r ^ detail::dim_bit(dim);
    if (child == 0) continue;
    std::vector<int> run;
    for (int k = 0; k < n; ++k)
      if (schedule.parent(k, child) == r && schedule.step(k, child) == s) run.push_back(k);
    if (!run.empty()) node.send(node.neighbor(dim), slice(run), s);
  }
}

}  // namespace hcemu::kernels
