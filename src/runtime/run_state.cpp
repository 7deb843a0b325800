#include "runtime/run_state.hpp"

#include "runtime/node_runtime.hpp"

namespace hcemu::detail {

RunState::RunState(const MachineConfig& config_, const EmulatorSettings& settings_, const Kernel& kernel_)
    : config(config_),
      settings(settings_),
      kernel(kernel_),
      timing(config_, settings_.timing),
      barrier(config_.nodes(), timing.barrier()),
      origin(std::chrono::steady_clock::now()) {
  nodes.reserve(static_cast<std::size_t>(config.nodes()));
  for (int i = 0; i < config.nodes(); ++i) nodes.push_back(std::make_unique<NodeRuntime>(*this, i));
}

RunState::~RunState() = default;

void RunState::fail(int node, std::exception_ptr error, const std::string& what) {
  bool expected = false;
  if (failed_.compare_exchange_strong(expected, true, std::memory_order_acq_rel)) {
    failed_node_ = node;
    failure_ = std::move(error);
    failure_what_ = what;
  }
  abort();
}

void RunState::abort() {
  aborted.store(true, std::memory_order_release);
  for (auto& n : nodes) n->wake();
  barrier.wake_all();
}

}  // namespace hcemu::detail
