#include "hcemu/machine.hpp"

#include "runtime/run_state.hpp"

namespace hcemu {

Machine::Machine(MachineConfig config, EmulatorSettings settings)
    : config_(std::move(config)), settings_(std::move(settings)) {
  config_.validate();
  settings_.validate();
  settings_.validate_for(config_);
}

Machine::~Machine() = default;
Machine::Machine(Machine&&) noexcept = default;
Machine& Machine::operator=(Machine&&) noexcept = default;

RunReport Machine::run(const Kernel& kernel) {
  // The runtime is made once and kept: a later run of the same machine reuses its threads, stacks, queues and tables.
  if (!state_) state_ = std::make_unique<detail::RunState>(config_, settings_);
  return state_->run(kernel);
}

}  // namespace hcemu

#if defined(__SANITIZE_THREAD__)
// oneTBB's scheduler synchronises its task queues in ways ThreadSanitizer does not see without oneTBB itself being
// built with it; these suppressions cover only oneTBB's own frames.
extern "C" const char* __tsan_default_suppressions() { return "race:tbb::detail::r1\n"; }
#endif
