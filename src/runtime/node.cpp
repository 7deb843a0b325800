// The Node handle forwards to its backend; it exists so that the public header shows no runtime detail.
#include "hcemu/node.hpp"

#include <limits>
#include <string>

#include "hcemu/detail/node_backend.hpp"
#include "hcemu/errors.hpp"

namespace hcemu {

int Node::id() const { return backend_.id(); }
int Node::dim() const { return backend_.dim(); }
int Node::size() const { return backend_.size(); }
int Node::neighbor(int k) const { return backend_.neighbor(k); }
const MachineConfig& Node::config() const { return backend_.config(); }
Coordinates Node::coordinates() const { return backend_.coordinates(); }
int Node::neighbor(Direction direction) const { return backend_.neighbor(direction); }
int Node::rows() const { return backend_.rows(); }
int Node::cols() const { return backend_.cols(); }
void Node::route_ways(Way x, Way y) { backend_.route_ways(x, y); }

void Node::send(int dest, std::span<const std::byte> data, int tag) {
  Request r = backend_.isend(dest, data, tag);
  backend_.wait(r, "send");
}

Status Node::recv(int source, std::span<std::byte> buffer, int tag) {
  Request r = backend_.post_recv(source, buffer, tag);
  return backend_.wait(r, "recv");
}

Request Node::isend(int dest, std::span<const std::byte> data, int tag) { return backend_.isend(dest, data, tag); }
Request Node::post_recv(int source, std::span<std::byte> buffer, int tag) {
  return backend_.post_recv(source, buffer, tag);
}
Status Node::wait(Request& request) { return backend_.wait(request, "wait"); }
void Node::wait_all(std::span<Request> requests) { backend_.wait_all(requests); }
std::size_t Node::wait_any(std::span<Request> requests, Status* status) { return backend_.wait_any(requests, status); }
bool Node::test(Request& request) { return backend_.test(request); }
RecvGroup Node::post_recvs(std::span<const int> sources, std::span<std::byte> buffer, std::size_t block, int tag) {
  return backend_.post_recvs(sources, buffer, block, tag);
}
Status Node::wait(RecvGroup& group, std::size_t k) { return backend_.wait(group, k); }
void Node::wait_all(RecvGroup& group) { backend_.wait_all(group); }
void Node::post_send(int dest, std::span<const std::byte> data, int tag) { backend_.post_send(dest, data, tag); }
void Node::wait_sends() { backend_.wait_sends(); }

Status Node::exchange(int partner, std::span<const std::byte> out, std::span<std::byte> in, int tag) {
  Request r = backend_.post_recv(partner, in, tag);
  Request s = backend_.isend(partner, out, tag);
  Status status = backend_.wait(r, "exchange");
  backend_.wait(s, "exchange");
  return status;
}

void Node::barrier() { backend_.barrier(); }
std::uint32_t Node::enter_collective() { return backend_.enter_collective(); }
void Node::leave_collective(std::uint32_t previous) { backend_.leave_collective(previous); }

void Node::copy(std::span<const std::byte> from, std::span<std::byte> to) { backend_.copy(from, to); }
void Node::permute(std::span<const std::byte> from, std::span<std::byte> to, std::size_t block_bytes,
                   std::span<const std::uint32_t> order) {
  backend_.permute(from, to, block_bytes, order);
}

void Node::compute(std::uint64_t flops) { backend_.compute(flops); }
void Node::elapse(Time t) {
  if (t < 0)
    throw UsageError("node " + std::to_string(id()) + ": elapse: time must be >= 0, got " + std::to_string(t) + " ps");
  backend_.elapse(t);
}

Time Node::clock() const { return backend_.clock(); }

void* Node::allocate_bytes(std::size_t bytes, std::size_t alignment) { return backend_.allocate(bytes, alignment); }
void* Node::allocate_array(std::size_t count, std::size_t element_size, std::size_t alignment) {
  if (element_size != 0 && count > std::numeric_limits<std::size_t>::max() / element_size)
    throw UsageError("node " + std::to_string(id()) + ": allocate: " + std::to_string(count) + " elements of " +
                     std::to_string(element_size) + " bytes are more bytes than memory can have");
  return backend_.allocate(count * element_size, alignment);
}
void Node::deallocate_bytes(void* p, std::size_t bytes) { backend_.deallocate(p, bytes); }

}  // namespace hcemu
