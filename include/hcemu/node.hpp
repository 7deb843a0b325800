#pragma once
// The handle a kernel receives: one node of the emulated hypercube (docs/model.md §1, §5 and §6).
// Every call advances this node's model clock by the rules of the machine's timing model.
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "hcemu/config.hpp"
#include "hcemu/time.hpp"
#include "hcemu/torus_types.hpp"

namespace hcemu {

namespace detail {
class NodeBackend;
struct RequestAccess;
}  // namespace detail

// A receive from whichever node's message completes first (post_recv, recv): the earliest completion in model
// time, ties by lower source id, whatever the order in which the host's threads ran.
inline constexpr int kAnySource = -1;
// Among the sources of a group of receives (Node::post_recvs): this element's block receives nothing.
inline constexpr int kNoSource = -2;

// A pending non-blocking operation (isend or post_recv). Cheap to copy; complete it once with wait,
// wait_all, wait_any or test.
class Request {
 public:
  Request() = default;
  bool valid() const { return slot_ != kNone; }

 private:
  friend struct detail::RequestAccess;
  static constexpr std::uint32_t kNone = 0xffffffffu;
  std::uint32_t slot_ = kNone;
  std::uint32_t generation_ = 0;
};

// Receives posted together (Node::post_recvs): one handle for the whole group. Cheap to copy; each element is
// completed once, with wait(group, k) or wait_all(group), and the handle is invalid once every one has been.
class RecvGroup {
 public:
  RecvGroup() = default;
  bool valid() const { return index_ != kNone; }

 private:
  friend struct detail::RequestAccess;
  static constexpr std::uint32_t kNone = 0xffffffffu;
  std::uint32_t index_ = kNone;
  std::uint32_t generation_ = 0;
};

// What a completed operation did.
struct Status {
  int source = -1;        // for a receive: who sent it; for a send: this node
  int tag = 0;
  std::size_t bytes = 0;  // bytes moved
  Time completed = 0;     // model time at which it completed
};

class Node;

// Memory from a node's arena (docs/model.md §1). Freed when it goes out of scope.
template <class T>
class Buffer {
  static_assert(std::is_trivially_copyable_v<T>, "arena buffers hold plain data");

 public:
  Buffer() = default;
  Buffer(Buffer&& other) noexcept { swap(other); }
  Buffer& operator=(Buffer&& other) noexcept {
    Buffer(std::move(other)).swap(*this);
    return *this;
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer();

  T* data() const { return data_; }
  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) const { return data_[i]; }
  T* begin() const { return data_; }
  T* end() const { return data_ + size_; }
  std::span<T> span() const { return {data_, size_}; }  // Buffer is also a contiguous range: std::span(buffer)

 private:
  friend class Node;
  Buffer(Node* owner, T* data, std::size_t size) : owner_(owner), data_(data), size_(size) {}
  void swap(Buffer& other) noexcept {
    std::swap(owner_, other.owner_);
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
  }
  Node* owner_ = nullptr;
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

template <class R>
concept ByteViewable = std::ranges::contiguous_range<R> && std::ranges::sized_range<R> &&
                       std::is_trivially_copyable_v<std::ranges::range_value_t<R>>;

class CollectiveScope;

class Node {
 public:
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  int id() const;
  int dim() const;
  int size() const;          // 2^d
  int neighbor(int k) const;  // on a cube: id ^ (1 << k), k in [0, d)
  const MachineConfig& config() const;

  // On a torus or mesh (config().topology): this node's place, and its neighbour in `direction` (UsageError where a
  // mesh has none). rows() x cols() nodes.
  Coordinates coordinates() const;
  int neighbor(Direction direction) const;
  int rows() const;
  int cols() const;
  // On a torus: which way round its ring each leg of this node's later messages goes (default: the shorter way).
  void route_ways(Way x, Way y);

  // Blocking send: returns at the end of the transfer (store-and-forward: the end of its first hop).
  void send(int dest, std::span<const std::byte> data, int tag = 0);
  // Blocking receive of a message from `source` (or kAnySource) with `tag` into `buffer`; the message may be
  // shorter. Status::source says who sent it.
  Status recv(int source, std::span<std::byte> buffer, int tag = 0);

  // Non-blocking: returns at once. Data is copied out of `data` before isend returns.
  Request isend(int dest, std::span<const std::byte> data, int tag = 0);
  // Posts a receive now, at this node's clock: under FORCED, a message whose first byte arrives before this
  // moment is discarded. `buffer` must stay valid until the request completes.
  Request post_recv(int source, std::span<std::byte> buffer, int tag = 0);
  Status wait(Request& request);
  // Completes all; receives take the input port in order of arrival, ties by source id (docs/model.md §4).
  void wait_all(std::span<Request> requests);
  // Completes the one request among `requests` that completes first in model time (ties by lower source id, a
  // send counting as this node's), invalidates it and returns its index; the others stay pending. Invalid
  // requests are skipped; at least one must be valid.
  std::size_t wait_any(std::span<Request> requests, Status* status = nullptr);
  // True (and the request completes) if it has completed by this node's clock.
  bool test(Request& request);

  // Receives posted in bulk, for kernels that post one to each of thousands of partners (a complete exchange at
  // d = 13 posts 67 M): element k receives from sources[k] into buffer[k·block, (k+1)·block), or nothing where
  // sources[k] is kNoSource (a block that stays as it is, such as a node's own). The same as post_recv for each
  // source in turn, now, with the same tag, but about 36 bytes of the host's memory per element instead of a
  // request's 80, and no Request to keep. Each source at most once, none kAnySource, and no receive posted earlier
  // from one of them with this tag may still be waiting (UsageError: it would have to meet its message first).
  // `buffer` must stay valid until every element has completed. No sources: an invalid group.
  RecvGroup post_recvs(std::span<const int> sources, std::span<std::byte> buffer, std::size_t block, int tag = 0);
  // Completes element k, as wait on its own request would.
  Status wait(RecvGroup& group, std::size_t k);
  // Completes every element not completed yet, as wait_all on their requests would. An invalid group: nothing.
  void wait_all(RecvGroup& group);

  // A send without a handle (as MPI_Isend followed by MPI_Request_free): the data is copied out before it returns,
  // and the next wait_sends() waits for it. A kernel that sends to thousands of partners keeps no request for each.
  void post_send(int dest, std::span<const std::byte> data, int tag = 0);
  // Completes every send made with post_send since the last wait_sends, as wait_all on their requests would.
  void wait_sends();

  // Pairwise exchange with one partner: post the receive, send, wait for both.
  Status exchange(int partner, std::span<const std::byte> out, std::span<std::byte> in, int tag = 0);

  // Global barrier: every node leaves at max(entry clocks) + Q(d).
  void barrier();

  // Local data movement, charged ρ per byte.
  void copy(std::span<const std::byte> from, std::span<std::byte> to);
  // to[i-th block] = from[order[i]-th block], blocks of block_bytes; charged ρ per byte moved.
  void permute(std::span<const std::byte> from, std::span<std::byte> to, std::size_t block_bytes,
               std::span<const std::uint32_t> order);
  void compute(std::uint64_t flops);  // charges t_a per flop
  // Charges model time directly, exactly: node.elapse(cost.copy(bytes)), or node.elapse(from_us(2.5)) for 2.5 µs.
  void elapse(Time t);
  // Anything but an exact Time is refused, so that node.elapse(50) cannot silently mean 50 picoseconds.
  template <class T>
  void elapse(T) {
    static_assert(sizeof(T) == 0,
                  "Node::elapse takes an exact hcemu::Time (picoseconds): "
                  "write node.elapse(hcemu::from_us(microseconds))");
  }

  Time clock() const;  // the node's clock, exact; to_us(node.clock()) in microseconds

  // Memory from this node's arena; exhausting it is an ArenaExhausted error naming the node.
  template <class T>
  Buffer<T> allocate(std::size_t count) {
    static_assert(std::is_trivially_copyable_v<T>);
    void* p = allocate_array(count, sizeof(T), alignof(T) < 64 ? 64 : alignof(T));
    return Buffer<T>(this, static_cast<T*>(p), count);
  }
  // `alignment` a power of two. deallocate_bytes takes back what allocate_bytes gave, with the same size; any other
  // pointer is a UsageError.
  void* allocate_bytes(std::size_t bytes, std::size_t alignment = 64);
  void deallocate_bytes(void* p, std::size_t bytes);

  // Typed conveniences over the byte API: any contiguous range of plain data (std::vector, std::array, Buffer,
  // std::span...).
  template <ByteViewable R>
  void send(int dest, const R& data, int tag = 0) {
    send(dest, bytes_of(data), tag);
  }
  template <ByteViewable R>
  Status recv(int source, R&& buffer, int tag = 0) {
    return recv(source, writable_bytes_of(buffer), tag);
  }
  template <ByteViewable R>
  Request isend(int dest, const R& data, int tag = 0) {
    return isend(dest, bytes_of(data), tag);
  }
  template <ByteViewable R>
  void post_send(int dest, const R& data, int tag = 0) {
    post_send(dest, bytes_of(data), tag);
  }
  template <ByteViewable R>
  RecvGroup post_recvs(std::span<const int> sources, R&& buffer, std::size_t block, int tag = 0) {
    return post_recvs(sources, writable_bytes_of(buffer), block, tag);
  }
  template <ByteViewable R>
  Request post_recv(int source, R&& buffer, int tag = 0) {
    return post_recv(source, writable_bytes_of(buffer), tag);
  }
  template <ByteViewable R1, ByteViewable R2>
  Status exchange(int partner, const R1& out, R2&& in, int tag = 0) {
    return exchange(partner, bytes_of(out), writable_bytes_of(in), tag);
  }

  // Byte views with a dynamic extent, so that the byte overloads above are the ones called.
  template <ByteViewable R>
  static std::span<const std::byte> bytes_of(const R& data) {
    const auto s = std::span(data);
    return {reinterpret_cast<const std::byte*>(s.data()), s.size_bytes()};
  }
  template <ByteViewable R>
  static std::span<std::byte> writable_bytes_of(R& data) {
    const auto s = std::span(data);
    static_assert(!std::is_const_v<typename decltype(s)::element_type>, "a receive buffer must be writable");
    return {reinterpret_cast<std::byte*>(s.data()), s.size_bytes()};
  }

 private:
  friend class detail::NodeBackend;
  friend class CollectiveScope;
  void* allocate_array(std::size_t count, std::size_t element_size, std::size_t alignment);
  explicit Node(detail::NodeBackend& backend) : backend_(backend) {}
  std::uint32_t enter_collective();  // returns the context to restore
  void leave_collective(std::uint32_t previous);
  detail::NodeBackend& backend_;
};

// A tag space of its own for one collective call, as an MPI communicator gives each collective a context: while the
// scope lives, this node's sends and receives carry its context and match only messages of the same context, so a
// collective's tags never meet those of the caller or of another collective. Every node must enter collective scopes
// in the same order (as every MPI process calls collectives in the same order): the n-th scope a node enters is then
// the same space on every node. Scopes nest, so a collective built from others works the same way.
class CollectiveScope {
 public:
  explicit CollectiveScope(Node& node) : node_(node), previous_(node.enter_collective()) {}
  ~CollectiveScope() { node_.leave_collective(previous_); }
  CollectiveScope(const CollectiveScope&) = delete;
  CollectiveScope& operator=(const CollectiveScope&) = delete;

 private:
  Node& node_;
  std::uint32_t previous_;
};

template <class T>
Buffer<T>::~Buffer() {
  if (data_ != nullptr) owner_->deallocate_bytes(data_, size_ * sizeof(T));
}

}  // namespace hcemu
