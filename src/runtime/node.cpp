// The Node handle forwards to its NodeRuntime; it exists so that the public header shows no runtime detail.
#include "hcemu/node.hpp"

#include "runtime/node_runtime.hpp"

namespace hcemu {

int Node::id() const { return rt_.id(); }
int Node::dim() const { return rt_.dim(); }
int Node::size() const { return rt_.size(); }
int Node::neighbor(int k) const { return rt_.neighbor(k); }
const MachineConfig& Node::config() const { return rt_.config(); }

void Node::send(int dest, std::span<const std::byte> data, int tag) {
  Request r = rt_.isend(dest, data, tag);
  rt_.wait(r, "send");
}

Status Node::recv(int source, std::span<std::byte> buffer, int tag) {
  Request r = rt_.post_recv(source, buffer, tag);
  return rt_.wait(r, "recv");
}

Request Node::isend(int dest, std::span<const std::byte> data, int tag) { return rt_.isend(dest, data, tag); }
Request Node::post_recv(int source, std::span<std::byte> buffer, int tag) {
  return rt_.post_recv(source, buffer, tag);
}
Status Node::wait(Request& request) { return rt_.wait(request); }
void Node::wait_all(std::span<Request> requests) { rt_.wait_all(requests); }
bool Node::test(Request& request) { return rt_.test(request); }

Status Node::exchange(int partner, std::span<const std::byte> out, std::span<std::byte> in, int tag) {
  Request r = rt_.post_recv(partner, in, tag);
  Request s = rt_.isend(partner, out, tag);
  Status status = rt_.wait(r, "exchange");
  rt_.wait(s, "exchange");
  return status;
}

void Node::barrier() { rt_.barrier(); }
std::uint32_t Node::enter_collective() { return rt_.enter_collective(); }
void Node::leave_collective(std::uint32_t previous) { rt_.leave_collective(previous); }
void Node::copy(std::span<const std::byte> from, std::span<std::byte> to) { rt_.copy(from, to); }
void Node::permute(std::span<const std::byte> from, std::span<std::byte> to, std::size_t block_bytes,
                   std::span<const std::uint32_t> order) {
  rt_.permute(from, to, block_bytes, order);
}

void Node::compute(std::uint64_t flops) { rt_.charge(rt_.timing().compute(flops), "compute"); }
void Node::elapse(double microseconds) {
  if (!(microseconds >= 0))
    throw UsageError("node " + std::to_string(id()) + ": elapse: time must be >= 0, got " +
                     std::to_string(microseconds));
  rt_.charge(rt_.timing().elapse(microseconds), "elapse");
}
void Node::elapse_time(Time t) {
  if (t < 0) throw UsageError("node " + std::to_string(id()) + ": elapse: time must be >= 0");
  rt_.charge(rt_.settings().timing == Timing::native ? 0 : t, "elapse");
}

double Node::now() const { return to_us(rt_.clock()); }
Time Node::clock() const { return rt_.clock(); }

void* Node::allocate_bytes(std::size_t bytes, std::size_t alignment) { return rt_.allocate(bytes, alignment); }
void Node::deallocate_bytes(void* p, std::size_t bytes) { rt_.deallocate(p, bytes); }

}  // namespace hcemu
