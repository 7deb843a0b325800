#include "runtime/node_core.hpp"

#include "hcemu/errors.hpp"
#include "runtime/engine.hpp"
#include "runtime/placer.hpp"
#include "runtime/run_control.hpp"
#include "timing/checked_time.hpp"

namespace hcemu::detail {

NodeCore::NodeCore(const NodeContext& context, int id)
    : parking_(id, context.timing.topology().input_ports(), id - context.first_node, clock_, context, sent_),
      own_{&context, nullptr, 0, id, context.config.nodes(), 0, context.placer.orders_in_model_time(), false},
      requests_(&context.kept_blocks, &context.memory_guard),
      clock_(context.settings.timing, context.settings.time_scale),
      ports_(context.timing.make_ports()),
      hints_(id, own_.nodes, requests_, matcher_, parking_.inbox()),
      matcher_(id, context.timing, requests_, arena_, context.config.protocol == Protocol::forced,
               &context.kept_blocks, &context.memory_guard),
      arena_(id, context.settings.arena_bytes, &context.blocks, &context.memory_guard) {
  own_.stack_reach = context.settings.stack_bytes > 0 ? context.settings.stack_bytes : std::size_t{8} << 20;  // pthread
  hints_.keep_warm(&parking_, parking_.hot_bytes());
  hints_.keep_warm(&own_, sizeof own_);
  hints_.keep_warm(&requests_, sizeof requests_);
  hints_.keep_warm(&clock_, sizeof clock_);
  hints_.keep_warm(&ports_, sizeof ports_);
  hints_.keep_warm(&hints_, sizeof hints_);
  hints_.keep_warm(&matcher_, matcher_.hot_bytes());
}

NodeCore::~NodeCore() { drain_leftovers_quietly(); }

void NodeCore::drain_leftovers_quietly() {
  parking_.inbox().drain([](Message* m) { Message::destroy(m); });
  matcher_.clear();
}

void NodeCore::start_run() {
  drain_leftovers_quietly();
  parking_.start_run(own_.context->settings.trace);
  arena_.reset();
  requests_.clear();
  ports_.reset();
  own_.tracing = own_.context->settings.trace;
  matcher_.keep_first_bytes(own_.tracing);
  hints_.start_run();
  own_.collective = 0;
  trace_.clear();
  yield_rng_.seed(own_.context->settings.yield_seed ^ static_cast<unsigned>(own_.id * 2654435761u));
}

std::string NodeCore::where(const char* operation) const {
  return "node " + std::to_string(own_.id) + ": " + operation + ": ";
}

void NodeCore::called_from_outside() const {
  if (own_.stack_top == nullptr)
    throw UsageError("node " + std::to_string(own_.id) +
                     ": the node API was called after the node's kernel returned: a Node& is valid only inside "
                     "Machine::run, while its kernel runs");
  throw UsageError("node " + std::to_string(own_.id) +
                   ": the node API was called from a thread that is not the node's own (one the kernel started?): "
                   "only the kernel's own thread of control may use its Node& (docs/engine.md, \"What a kernel must "
                   "not do\")");
}

void NodeCore::no_such_peer(int peer, const char* operation) const {
  throw UsageError(where(operation) + "node " + std::to_string(peer) + " does not exist in a " +
                   std::to_string(own_.nodes) + "-node machine");
}

void NodeCore::block_until(Wait& w) {
  parking_.block_until(w, [this] {
    check_running();
    drain();
  });
}

void NodeCore::maybe_yield_now() {
  if ((yield_rng_() & 3) == 0) {
    clock_.pause();
    own_.context->engine.yield(own_.id - own_.context->first_node);
    clock_.resume();
  }
}

void NodeCore::sleep_until(Time target, timing::NodeClock::RealClock::time_point deadline) {
  own_.context->engine.sleep_until(own_.id - own_.context->first_node, deadline);
  clock_.reached(target);
}

void NodeCore::charge(Time cost, const char* kind) {
  const Time start = clock_.now();
  advance_clock(timing::add_time(start, cost, kind));
  if (cost > 0) record(kind, start, start + cost);
}

}  // namespace hcemu::detail
