// The baseline of the permutation family: every message straight to its image, in one piece, routed by the machine.
#include <cstring>
#include <string>

#include "hcemu/errors.hpp"
#include "hcemu/kernels/permutation.hpp"

namespace hcemu::kernels {

void ecube_permutation(Node& node, std::span<const std::byte> message, std::span<std::byte> out,
                       const Permutation& permutation) {
  CollectiveScope scope(node);  // a tag space of its own (node.hpp)
  const auto& image = permutation.image;
  if (image.size() != static_cast<std::size_t>(node.size()))
    throw UsageError("ecube_permutation: the permutation has " + std::to_string(image.size()) + " entries for " +
                     std::to_string(node.size()) + " nodes");
  const auto id = static_cast<std::uint32_t>(node.id());
  const int to = static_cast<int>(image[id]);
  if (to == node.id()) {
    if (!message.empty()) std::memcpy(out.data(), message.data(), message.size());
    return;
  }
  const std::vector<std::uint32_t> inverse = model::inverse_permutation(image);
  Request receive = node.post_recv(static_cast<int>(inverse[id]), out);
  Request send = node.isend(to, message);
  node.wait(receive);
  node.wait(send);
}

}  // namespace hcemu::kernels
