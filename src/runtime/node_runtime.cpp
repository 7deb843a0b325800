#include "runtime/node_runtime.hpp"

#include <cstring>
#include <new>
#include <tuple>

#include "hcemu/errors.hpp"
#include "runtime/barrier.hpp"
#include "runtime/memory_guard.hpp"
#include "runtime/run_control.hpp"
#include "timing/timing_model.hpp"

namespace hcemu::detail {

NodeRuntime::NodeRuntime(const NodeContext& context, int id)
    : sends_(&core_), completion_(&core_, sends_), core_(context, id) {
  std::tie(rows_, cols_) = context.config.topology.sides(context.config.d);
  core_.parking().set_describer(*this);
  core_.hints().keep_warm(&sends_, sizeof sends_);
  core_.hints().keep_warm(&completion_, sizeof completion_);
}

// ---------------------------------------------------------------------------------------------------------------
// The run

void NodeRuntime::start_run() {
  core_.start_run();
  sends_.start_run();
  completion_.start_run();
  contexts_entered_ = 0;
  final_clock_ = 0;
}

void NodeRuntime::run_kernel(const Kernel& kernel, std::chrono::steady_clock::time_point origin) {
  core_.clock().start(origin);
  // Every call of the node API from the kernel has its frame below this one, within the node's stack.
  core_.enter_kernel(static_cast<const char*>(__builtin_frame_address(0)));
  RunControl& control = core_.context().control;
  try {
    core_.check_running();
    kernel(node());
  } catch (const Aborted&) {
  } catch (const std::bad_alloc&) {
    control.fail(id(), std::current_exception(),
                 core_.context().memory_guard.refused()
                     ? core_.context().memory_guard.explain()
                     : "out of host memory: the nodes' buffers and the emulator's requests and messages in flight "
                       "need more than this process can have (lower d or the message size, or spread the machine over "
                       "MPI ranks)");
  } catch (const std::exception& e) {
    control.fail(id(), std::current_exception(), e.what());
  } catch (...) {
    control.fail(id(), std::current_exception(), "unknown exception");
  }
  final_clock_ = core_.clock().now();
  core_.enter_kernel(nullptr);
  core_.parking().done();
  core_.context().placer.node_done(core_.parking().slot());
}

void NodeRuntime::finish_run(RunReport& report) {
  // Messages that arrived after the node finished wait with the others; whatever is left is reported.
  Matcher& matcher = core_.matcher();
  core_.parking().inbox().drain([&](Message* m) { matcher.arrive_after_end(m); });
  report.forced_discards.insert(report.forced_discards.end(), matcher.discards().begin(), matcher.discards().end());
  matcher.collect_leftovers(report.forced_discards, report.unreceived);
  NodeStats s;
  s.final_clock = final_clock_;
  s.messages_sent = sends_.messages_sent();
  s.bytes_sent = sends_.bytes_sent();
  s.messages_received = matcher.messages_received();
  s.bytes_received = matcher.bytes_received();
  s.arena_high_water = core_.arena().high_water();
  s.host_time = core_.clock().host_time();
  report.nodes.push_back(s);
  if (core_.tracing()) {
    for (std::vector<TraceSpan>* spans : {&core_.trace(), &core_.parking().sent()})
      report.trace.insert(report.trace.end(), std::make_move_iterator(spans->begin()),
                          std::make_move_iterator(spans->end()));
  }
}

BlockedOperation NodeRuntime::blocked_operation() const {
  const Wait* w = core_.parking().wait();
  if (w == nullptr || !w->describe) return BlockedOperation{id(), "wait", -1, 0, {}};
  BlockedOperation b = w->describe();
  const Matcher& matcher = core_.matcher();
  // A receive whose message was lost under FORCED can never complete: say so.
  for (const auto& d : matcher.discards())
    if (b.peer >= 0 && d.source == b.peer && d.tag == b.tag) b.detail = "its message was discarded under FORCED";
  // A receive that waits while a message from its source waits under another tag: a mismatch, most likely.
  if (b.peer >= 0 && !b.sending && b.detail.empty())
    if (const Message* m = matcher.first_waiting_from(b.peer);
        m != nullptr && (m->tag != b.tag || m->context != core_.collective()))
      b.detail = "a message from " + std::to_string(b.peer) + " waits unreceived under tag " + std::to_string(m->tag) +
                 (m->context != core_.collective() ? " in another collective scope" : "");
  return b;
}

// ---------------------------------------------------------------------------------------------------------------
// Where the node is

static_assert(Inbox::kMaxPorts <= 256, "a matched receive keeps its message's input port in one byte (Slot::in_port)");

model::TorusShape NodeRuntime::grid(const char* operation) const {
  if (!config().topology.grid())
    throw UsageError(core_.where(operation) + "the machine is a hypercube, not a torus or mesh");
  return model::TorusShape{rows_, cols_, config().topology.kind == Topology::Kind::torus};
}

Coordinates NodeRuntime::coordinates() const { return model::torus_coord(grid("coordinates"), id()); }

int NodeRuntime::neighbor(Direction direction) const {
  const int n = model::torus_neighbor(grid("neighbor"), id(), direction);
  if (n < 0) throw UsageError(core_.where("neighbor") + "this node of the mesh has no neighbour that way");
  return n;
}

void NodeRuntime::route_ways(Way x, Way y) {
  grid("route_ways");
  sends_.route_ways(model::TorusRoutePreference{x, y});
}

int NodeRuntime::neighbor(int k) const {
  if (config().topology.grid())
    throw UsageError(core_.where("neighbor") + "a torus or mesh has no dimension links: use neighbor(Direction)");
  if (k < 0 || k >= dim())
    throw UsageError(core_.where("neighbor") + "link " + std::to_string(k) + " does not exist in a " +
                     std::to_string(dim()) + "-cube");
  return id() ^ (1 << k);
}

// ---------------------------------------------------------------------------------------------------------------
// Barrier, collective scopes and local work

void NodeRuntime::barrier() {
  core_.check_running();
  core_.maybe_yield();
  GlobalBarrier& barrier = core_.context().barrier;
  const Time entry = core_.clock().now();
  const GlobalBarrier::Entry e = barrier.arrive(entry);
  if (!(e.last && core_.context().placer.barrier_complete(e.latest_entry))) {
    const auto ready = [&] { return barrier.released(e.generation); };
    const auto describe = [&] { return BlockedOperation{id(), "barrier", -1, 0, {}}; };
    Wait w{ready, describe, {}, false, false};
    core_.block_until(w);
  }
  const Time release = barrier.release_time();
  core_.advance_clock(release);
  core_.record("barrier", entry, release);
}

std::uint32_t NodeRuntime::enter_collective() {
  const std::uint32_t previous = core_.collective();
  core_.set_collective(++contexts_entered_);
  return previous;
}

void NodeRuntime::copy(std::span<const std::byte> from, std::span<std::byte> to) {
  core_.check_running();
  if (to.size() < from.size())
    throw UsageError(core_.where("copy") + "destination of " + std::to_string(to.size()) +
                     " bytes is shorter than the " + std::to_string(from.size()) + " bytes copied");
  if (!from.empty()) std::memmove(to.data(), from.data(), from.size());
  core_.charge(core_.context().timing.copy(from.size()), "copy");
}

void NodeRuntime::permute(std::span<const std::byte> from, std::span<std::byte> to, std::size_t block_bytes,
                          std::span<const std::uint32_t> order) {
  core_.check_running();
  const std::size_t moved = order.size() * block_bytes;
  if (to.size() < moved)
    throw UsageError(core_.where("permute") + "destination of " + std::to_string(to.size()) +
                     " bytes is shorter than the " + std::to_string(moved) + " bytes permuted");
  if (from.data() < to.data() + to.size() && to.data() < from.data() + from.size() && moved > 0)
    throw UsageError(core_.where("permute") + "source and destination overlap");
  for (std::size_t i = 0; i < order.size(); ++i) {
    if ((static_cast<std::size_t>(order[i]) + 1) * block_bytes > from.size())
      throw UsageError(core_.where("permute") + "block " + std::to_string(order[i]) + " is outside the " +
                       std::to_string(from.size()) + "-byte source");
    if (block_bytes > 0) std::memcpy(to.data() + i * block_bytes, from.data() + order[i] * block_bytes, block_bytes);
  }
  core_.charge(core_.context().timing.copy(moved), "copy");
}

void NodeRuntime::compute(std::uint64_t flops) {
  core_.check_running();
  core_.charge(core_.context().timing.compute(flops), "compute");
}

void NodeRuntime::elapse(Time t) {
  core_.check_running();
  core_.charge(core_.context().timing.elapse(t), "elapse");
}

}  // namespace hcemu::detail
