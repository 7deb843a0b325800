#pragma once
// What every part of a node uses (runtime/node_runtime.hpp): what it knows of its run (NodeContext), and its own
// lower parts — parking and inbox, request table, matcher, arena, clock, ports, cache hints — with the calls every
// operation of the node API makes (check that it may run, drain the inbox, wait, move the clock, record the trace).
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "hcemu/config.hpp"
#include "hcemu/report.hpp"
#include "common/ports.hpp"
#include "runtime/arena.hpp"
#include "runtime/host_hints.hpp"
#include "runtime/matcher.hpp"
#include "runtime/parking.hpp"
#include "runtime/requests.hpp"
#include "runtime/run_control.hpp"
#include "timing/clock.hpp"

namespace hcemu::detail {

class BlockPool;
class Engine;
class GlobalBarrier;
class MemoryGuard;
class Placer;

// What a node knows of its run: all of it outlives the node.
struct NodeContext {
  const MachineConfig& config;
  const EmulatorSettings& settings;
  timing::TimingModel& timing;
  Engine& engine;
  GlobalBarrier& barrier;
  Placer& placer;
  RunControl& control;
  MemoryGuard& memory_guard;
  BlockPool& blocks;       // the arenas' large blocks, handed out afresh every run
  BlockPool& kept_blocks;  // what a node keeps from run to run: its request slots and matching tables
  int first_node;          // of this process (spread over MPI ranks: its rank's first)
};

// Thrown inside a node to unwind its kernel when the run is being stopped.
struct Aborted {};

class NodeCore {
 public:
  NodeCore(const NodeContext& context, int id);
  ~NodeCore();
  NodeCore(const NodeCore&) = delete;
  NodeCore& operator=(const NodeCore&) = delete;

  void start_run();
  void drain_leftovers_quietly();  // frees what a run left in the inbox and the matcher

  const NodeContext& context() const { return (*own_.context); }
  int id() const { return own_.id; }
  int nodes() const { return own_.nodes; }
  // Placer::orders_in_model_time(), asked once.
  bool ordered() const { return own_.ordered; }
  bool tracing() const { return own_.tracing; }
  Parking& parking() { return parking_; }
  const Parking& parking() const { return parking_; }
  RequestTable& requests() { return requests_; }
  timing::NodeClock& clock() { return clock_; }
  const timing::NodeClock& clock() const { return clock_; }
  timing::PortState& ports() { return ports_; }
  const timing::PortState& ports() const { return ports_; }
  Matcher& matcher() { return matcher_; }
  const Matcher& matcher() const { return matcher_; }
  Arena& arena() { return arena_; }
  HostHints& hints() { return hints_; }
  const HostHints& hints() const { return hints_; }
  // The collective scope the node is in (0: none).
  std::uint32_t collective() const { return own_.collective; }
  void set_collective(std::uint32_t c) { own_.collective = c; }

  // The node's own stack while its kernel runs, from `top` down (null: outside the run).
  void enter_kernel(const char* top) { own_.stack_top = top; }
  // Inline, with the other calls every operation makes: the slow paths apart.
  void check_running() {
    // The node API belongs to the node's own thread of control, inside Machine::run: a call whose frame lies outside
    // the node's stack comes from another thread (one the kernel started), or after the kernel returned
    // (own_.stack_top null).
    const auto* frame = static_cast<const char*>(__builtin_frame_address(0));
    if (frame > own_.stack_top || frame + own_.stack_reach < own_.stack_top) [[unlikely]]
      called_from_outside();
    if (own_.context->control.aborted()) [[unlikely]]
      throw Aborted{};
  }
  void drain() {
    if (parking_.inbox().maybe_nonempty()) parking_.inbox().drain([&](Message* m) { matcher_.arrive(m); });
  }
  void block_until(Wait& w);
  void maybe_yield() {
    if (own_.context->settings.yield_seed != 0) [[unlikely]]
      maybe_yield_now();
  }
  void advance_clock(Time target) {
    if (auto deadline = clock_.advance_to(target)) sleep_until(target, *deadline);
  }
  void charge(Time cost, const char* kind);  // local work
  void check_peer(int peer, const char* operation) const {
    if (peer < 0 || peer >= own_.nodes) no_such_peer(peer, operation);
  }
  std::string where(const char* operation) const;

  void record(const char* kind, Time start, Time end, int peer = -1, std::size_t bytes = 0, int tag = 0,
              std::uint64_t message = 0) {
    if (own_.tracing) trace_.push_back(TraceSpan{own_.id, kind, start, end, peer, bytes, tag, message, {}});
  }
  // A blocking call of the node API that advanced the clock: a "wait" span of the node's program. `call` is
  // TraceSpan::call: "send", "recv", "exchange", "wait_all", and for wait and wait_any what they waited for ("wait
  // send", "wait_any recv").
  void record_call(const char* call, Time start, Time end, int peer = -1, std::size_t bytes = 0, int tag = 0) {
    if (own_.tracing) trace_.push_back(TraceSpan{own_.id, "wait", start, end, peer, bytes, tag, 0, call});
  }
  std::vector<TraceSpan>& trace() { return trace_; }

 private:
  [[noreturn]] void called_from_outside() const;
  void maybe_yield_now();  // settings.yield_seed != 0: one call in four yields
  void sleep_until(Time target, timing::NodeClock::RealClock::time_point deadline);  // wall timing
  [[noreturn]] void no_such_peer(int peer, const char* operation) const;

  // The hot parts first, together, each registered with the hints (the constructor); what a resume does not touch
  // (the matcher's tables after its hot words, the arena, the trace) after them.
  Parking parking_;
  // What every call of the node API reads first (check_running, the trace).
  struct Own {
    const NodeContext* context;
    const char* stack_top = nullptr;
    std::size_t stack_reach = 0;
    int id;
    int nodes;  // in the whole machine
    std::uint32_t collective = 0;
    bool ordered;
    bool tracing = false;
  } own_;
  RequestTable requests_;
  timing::NodeClock clock_;
  timing::PortState ports_;
  HostHints hints_;
  Matcher matcher_;
  Arena arena_;
  std::vector<TraceSpan> trace_;
  std::vector<TraceSpan> sent_;  // the parking's
  std::minstd_rand yield_rng_;
};

}  // namespace hcemu::detail
