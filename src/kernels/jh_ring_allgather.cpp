// All-to-all broadcast along Gray-code Hamiltonian circuits: Johnsson & Ho (1987) §4.2.1, CRA(1,N) and CRA(n,N).
//
// The paper's INIT_CRA: gid = IG(pid), outport = the rightmost 0-bit of gid (towards G(gid + 1)) and inport = the
// rightmost 0-bit of (gid - 1) mod N (from G(gid - 1)). (The paper prints (gid + 1) for the inport, which would not
// even be a ring neighbour for gid = 0; docs/kernels/allgather.md.) CRA(buf) = SEND(outport); RECV(inport): every
// step a node passes on what it received in the step before, so after step i it holds the block of ring position
// gid - i, as in the paper's Figure 7.
#include <vector>

#include "broadcast_cube.hpp"
#include "hcemu/kernels/primitives.hpp"
#include "hcemu/model/spanning_trees.hpp"
#include "jh_cube.hpp"

namespace hcemu::kernels {
namespace {

// Ring k: the circuit whose dimensions are those of the Gray-code circuit rotated by k (k = 0: the circuit itself).
struct Ring {
  std::uint32_t position;  // IG(rot_{-k}(id))
  int successor, predecessor;
  std::uint32_t source_after(int step, int k, int d) const {  // whose part k a node holds after `step` steps
    const auto n = std::uint32_t{1} << d;
    return detail::rotate_left(model::gray((position + n - static_cast<std::uint32_t>(step) % n) % n), k, d);
  }
};

Ring ring(const Node& node, int k) {
  const int d = node.dim();
  const auto n = static_cast<std::uint32_t>(node.size());
  const auto self = static_cast<std::uint32_t>(node.id());
  Ring r{};
  r.position = model::inverse_gray(detail::rotate_left(self, d - k, d));
  r.successor = static_cast<int>(detail::rotate_left(model::gray((r.position + 1) % n), k, d));
  r.predecessor = static_cast<int>(detail::rotate_left(model::gray((r.position + n - 1) % n), k, d));
  return r;
}

}  // namespace

void cra_allgather(Node& node, std::span<std::byte> all, std::size_t m) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const int n = node.size();
  detail::check_blocks(all.size(), static_cast<std::size_t>(n), m, "all", "cra_allgather");
  if (n == 1) return;
  const Ring r = ring(node, 0);
  auto block = [&](std::uint32_t source) { return all.subspan(source * m, m); };

  // Every receive is posted up front, each into its own block: the predecessor sends in step order.
  std::vector<Request> arriving;
  for (int i = 1; i < n; ++i)
    arriving.push_back(node.post_recv(r.predecessor, block(r.source_after(i, 0, node.dim()))));
  std::vector<Request> sends;
  for (int i = 1; i < n; ++i) {
    if (i > 1) node.wait(arriving[static_cast<std::size_t>(i - 2)]);
    sends.push_back(node.isend(r.successor, std::span<const std::byte>(block(r.source_after(i - 1, 0, node.dim())))));
  }
  node.wait(arriving.back());
  node.wait_all(sends);
}

void rotated_cra_allgather(Node& node, std::span<std::byte> all, std::size_t m) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const int n = node.size(), d = node.dim();
  detail::check_blocks(all.size(), static_cast<std::size_t>(n), m, "all", "rotated_cra_allgather");
  if (n == 1) return;
  const auto parts = static_cast<std::size_t>(d);
  std::vector<Ring> rings;
  for (int k = 0; k < d; ++k) rings.push_back(ring(node, k));
  auto part = [&](std::uint32_t source, int k) {
    const auto uk = static_cast<std::size_t>(k);
    return all.subspan(source * m + detail::part_offset(m, parts, uk), detail::part_bytes(m, parts, uk));
  };

  std::vector<std::vector<Request>> arriving(static_cast<std::size_t>(n));
  for (int i = 1; i < n; ++i)
    for (int k = 0; k < d; ++k) {
      const Ring& r = rings[static_cast<std::size_t>(k)];
      arriving[static_cast<std::size_t>(i)].push_back(
          node.post_recv(r.predecessor, part(r.source_after(i, k, d), k), k));
    }
  std::vector<Request> sends;
  for (int i = 1; i < n; ++i) {
    if (i > 1) node.wait_all(arriving[static_cast<std::size_t>(i - 1)]);  // lock step
    for (int k = 0; k < d; ++k) {
      const Ring& r = rings[static_cast<std::size_t>(k)];
      sends.push_back(node.isend(r.successor, std::span<const std::byte>(part(r.source_after(i - 1, k, d), k)), k));
    }
  }
  node.wait_all(arriving[static_cast<std::size_t>(n - 1)]);
  node.wait_all(sends);
}

}  // namespace hcemu::kernels
