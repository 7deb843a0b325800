#pragma once
// What the Johnsson & Ho primitives share: resolving a Subcube against the node, and the node-to-node moves of
// whole blocks inside one.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include "hcemu/errors.hpp"
#include "hcemu/kernels/subcube.hpp"
#include "hcemu/node.hpp"

namespace hcemu::kernels::detail {

// A subcube as one node sees it: its dimensions, this node's coordinate and its neighbours inside it.
struct CubeView {
  int first = 0;
  int dims = 0;
  std::uint32_t coordinate = 0;

  int size() const { return 1 << dims; }
  // The neighbour across the subcube's dimension i.
  int neighbor(const Node& node, int i) const { return node.id() ^ (1 << (first + i)); }
  // The node of this subcube with coordinate c.
  int node_of(const Node& node, std::uint32_t c) const {
    const int mask = (size() - 1) << first;
    return (node.id() & ~mask) | static_cast<int>(c << first);
  }
};

inline CubeView view(const Node& node, Subcube cube, const char* kernel) {
  const int dims = cube.dims < 0 ? node.dim() - cube.first : cube.dims;
  if (cube.first < 0 || dims < 0 || cube.first + dims > node.dim())
    throw UsageError(std::string(kernel) + ": the subcube of dimensions [" + std::to_string(cube.first) + ", " +
                     std::to_string(cube.first + dims) + ") does not fit a " + std::to_string(node.dim()) + "-cube");
  CubeView v;
  v.first = cube.first;
  v.dims = dims;
  v.coordinate = static_cast<std::uint32_t>(node.id() >> cube.first) & ((std::uint32_t{1} << dims) - 1);
  return v;
}

inline void check_blocks(std::size_t have, std::size_t blocks, std::size_t block, const char* what,
                         const char* kernel) {
  if (have != blocks * block)
    throw UsageError(std::string(kernel) + ": `" + what + "` must hold " + std::to_string(blocks) + " blocks of " +
                     std::to_string(block) + ", it holds " + std::to_string(have));
}

// What every all-to-all personalized kernel does first: checks that `send` and `recv` hold one m-byte block per node,
// and copies the node's own block across, uncharged as in exchange.hpp.
inline void start_personalized(Node& node, std::span<const std::byte> send, std::span<std::byte> recv, std::size_t m,
                               const char* kernel) {
  const auto nodes = static_cast<std::size_t>(node.size());
  check_blocks(send.size(), nodes, m, "send", kernel);
  check_blocks(recv.size(), nodes, m, "recv", kernel);
  const auto self = static_cast<std::size_t>(node.id());
  if (m > 0) std::memcpy(recv.data() + self * m, send.data() + self * m, m);
}

// The pieces a message is pipelined in: chunks of at most `chunk` bytes (0: the whole message), at least one (an
// empty message is one empty chunk).
inline std::size_t chunk_count(std::size_t m, std::size_t chunk) {
  if (chunk == 0 || m == 0) return 1;
  return (m + chunk - 1) / chunk;
}
inline std::span<std::byte> chunk_of(std::span<std::byte> message, std::size_t chunk, std::size_t j) {
  if (chunk == 0) return message;
  const std::size_t at = j * chunk;
  return message.subspan(at, std::min(chunk, message.size() - at));
}

}  // namespace hcemu::kernels::detail
