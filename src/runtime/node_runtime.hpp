#pragma once
// One node of the in-process runtime: the node API (hcemu::detail::NodeBackend) over the node's parts; the placer
// brings its events to the node's Parking (runtime/placer.hpp). The parts, each owning its state, depending one way
// (docs/engine.md, "A node's parts"): Completion -> SendSide -> NodeCore -> {Parking, HostHints, Matcher,
// RequestTable, Arena, clock, ports}.
#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

#include "hcemu/detail/node_backend.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/report.hpp"
#include "runtime/completion.hpp"
#include "runtime/node_core.hpp"
#include "runtime/placer.hpp"
#include "runtime/send_side.hpp"

namespace hcemu::detail {

class NodeRuntime final : public NodeBackend, public BlockedDescriber {
 public:
  NodeRuntime(const NodeContext& context, int id);
  ~NodeRuntime() override = default;

  // --- the run ---
  void start_run();  // before the run: everything back to its initial state
  // The node's thread of control; `origin`: of native and wall clocks.
  void run_kernel(const Kernel& kernel, std::chrono::steady_clock::time_point origin);
  void finish_run(RunReport& report);  // after the run: stats, leftovers, trace into the report
  // Shortly before the engine resumes it (runtime/engine.hpp; any worker): starts loading what it touches first.
  void warm(int stage) const { core_.hints().warm(stage); }
  const std::vector<ForcedDiscard>& discards() const { return core_.matcher().discards(); }
  const std::vector<double>& lateness_us() const { return core_.clock().lateness_us(); }

  // --- the node API (include/hcemu/node.hpp) ---
  int id() const override { return core_.id(); }
  int dim() const override { return core_.context().config.d; }
  int size() const override { return core_.nodes(); }
  int neighbor(int k) const override;
  const MachineConfig& config() const override { return core_.context().config; }
  Coordinates coordinates() const override;
  int neighbor(Direction direction) const override;
  int rows() const override { return rows_; }
  int cols() const override { return cols_; }
  void route_ways(Way x, Way y) override;
  Request isend(int dest, std::span<const std::byte> data, int tag) override { return sends_.isend(dest, data, tag); }
  Request post_recv(int source, std::span<std::byte> buffer, int tag) override {
    return completion_.post_recv(source, buffer, tag);
  }
  Status wait(Request& request, const char* operation) override { return completion_.wait(request, operation); }
  void wait_all(std::span<Request> requests) override { completion_.wait_all(requests); }
  std::size_t wait_any(std::span<Request> requests, Status* status) override {
    return completion_.wait_any(requests, status);
  }
  bool test(Request& request) override { return completion_.test(request); }
  RecvGroup post_recvs(std::span<const int> sources, std::span<std::byte> buffer, std::size_t block,
                       int tag) override {
    return completion_.post_recvs(sources, buffer, block, tag);
  }
  Status wait(RecvGroup& group, std::size_t k) override { return completion_.wait(group, k); }
  void wait_all(RecvGroup& group) override { completion_.wait_all(group); }
  void post_send(int dest, std::span<const std::byte> data, int tag) override { sends_.post_send(dest, data, tag); }
  void wait_sends() override { sends_.wait_sends(); }
  void barrier() override;
  void copy(std::span<const std::byte> from, std::span<std::byte> to) override;
  void permute(std::span<const std::byte> from, std::span<std::byte> to, std::size_t block_bytes,
               std::span<const std::uint32_t> order) override;
  void compute(std::uint64_t flops) override;
  void elapse(Time t) override;
  Time clock() override { return core_.clock().now(); }
  void* allocate(std::size_t bytes, std::size_t alignment) override {
    return core_.arena().allocate(bytes, alignment);
  }
  void deallocate(void* p, std::size_t bytes) override { core_.arena().deallocate(p, bytes); }
  std::uint32_t enter_collective() override;
  void leave_collective(std::uint32_t previous) override { core_.set_collective(previous); }

  // What the placer tells it (runtime/placer.hpp) goes to its parking.
  Parking& parking() { return core_.parking(); }
  // Its pending operation, for a deadlock report (BlockedDescriber).
  BlockedOperation blocked_operation() const override;

 private:
  model::TorusShape grid(const char* operation) const;  // throws UsageError on a cube

  // The parts above the core first: with the core's hot parts after them, what a resume touches lies on the
  // object's first lines. Each keeps only a reference to the core until it is used.
  SendSide sends_;
  Completion completion_;
  NodeCore core_;
  int rows_ = 1, cols_ = 1;             // the grid (1 x 2^d on a cube)
  std::uint32_t contexts_entered_ = 0;  // collective scopes entered so far: the next one's context
  Time final_clock_ = 0;
};

}  // namespace hcemu::detail
