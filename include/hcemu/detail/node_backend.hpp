#pragma once
// What hcemu::Node forwards to: one node of a running machine. The in-process runtime implements it; a transport
// that spreads the nodes over MPI ranks can sit beside it without a kernel noticing. Not for kernel authors: they
// use hcemu::Node.
#include <cstddef>
#include <cstdint>
#include <span>

#include "hcemu/config.hpp"
#include "hcemu/node.hpp"
#include "hcemu/time.hpp"

namespace hcemu::detail {

// The one friend of Request: how a backend reads and makes request handles.
struct RequestAccess {
  static std::uint32_t slot(const Request& r) { return r.slot_; }
  static std::uint32_t generation(const Request& r) { return r.generation_; }
  static Request make(std::uint32_t slot, std::uint32_t generation) {
    Request r;
    r.slot_ = slot;
    r.generation_ = generation;
    return r;
  }
  static std::uint32_t index(const RecvGroup& g) { return g.index_; }
  static std::uint32_t generation(const RecvGroup& g) { return g.generation_; }
  static RecvGroup make_group(std::uint32_t index, std::uint32_t generation) {
    RecvGroup g;
    g.index_ = index;
    g.generation_ = generation;
    return g;
  }
};

class NodeBackend {
 public:
  virtual ~NodeBackend() = default;
  Node& node() { return node_; }

  virtual int id() const = 0;
  virtual int dim() const = 0;
  virtual int size() const = 0;
  virtual int neighbor(int k) const = 0;
  virtual const MachineConfig& config() const = 0;
  virtual Coordinates coordinates() const = 0;
  virtual int neighbor(Direction direction) const = 0;
  virtual int rows() const = 0;
  virtual int cols() const = 0;
  virtual void route_ways(Way x, Way y) = 0;

  virtual Request isend(int dest, std::span<const std::byte> data, int tag) = 0;
  virtual Request post_recv(int source, std::span<std::byte> buffer, int tag) = 0;
  // `operation` names the node API call for errors and deadlock reports ("wait", "recv", "send", "exchange").
  virtual Status wait(Request& request, const char* operation) = 0;
  virtual void wait_all(std::span<Request> requests) = 0;
  virtual std::size_t wait_any(std::span<Request> requests, Status* status) = 0;
  virtual bool test(Request& request) = 0;
  virtual RecvGroup post_recvs(std::span<const int> sources, std::span<std::byte> buffer, std::size_t block,
                               int tag) = 0;
  virtual Status wait(RecvGroup& group, std::size_t k) = 0;
  virtual void wait_all(RecvGroup& group) = 0;
  virtual void post_send(int dest, std::span<const std::byte> data, int tag) = 0;
  virtual void wait_sends() = 0;
  virtual void barrier() = 0;

  virtual void copy(std::span<const std::byte> from, std::span<std::byte> to) = 0;
  virtual void permute(std::span<const std::byte> from, std::span<std::byte> to, std::size_t block_bytes,
                       std::span<const std::uint32_t> order) = 0;
  virtual void compute(std::uint64_t flops) = 0;
  virtual void elapse(Time t) = 0;
  virtual Time clock() = 0;

  virtual void* allocate(std::size_t bytes, std::size_t alignment) = 0;
  virtual void deallocate(void* p, std::size_t bytes) = 0;

  virtual std::uint32_t enter_collective() = 0;
  virtual void leave_collective(std::uint32_t previous) = 0;

 protected:
  NodeBackend() : node_(*this) {}
  NodeBackend(const NodeBackend&) = delete;
  NodeBackend& operator=(const NodeBackend&) = delete;

 private:
  Node node_;
};

}  // namespace hcemu::detail
