#include "hcemu/machine.hpp"

#include "runtime/run_state.hpp"
#include "runtime/transport.hpp"

namespace hcemu {

Machine::Machine(MachineConfig config, EmulatorSettings settings)
    : config_(std::move(config)), settings_(std::move(settings)) {
  config_.validate();
  settings_.validate();
  settings_.validate_for(config_);
  transport_ = detail::SpreadAccess::transport(settings_.spread);
}

int Machine::ranks() const { return transport_ == nullptr ? 1 : transport_->ranks(); }

std::string Machine::first_of_ranks(const std::string& mine) const {
  return transport_ == nullptr ? mine : detail::first_of_ranks(*transport_, mine);
}

Machine::~Machine() = default;
Machine::Machine(Machine&&) noexcept = default;
Machine& Machine::operator=(Machine&&) noexcept = default;

RunReport Machine::run(const Kernel& kernel) {
  // The runtime is made once and kept: a later run of the same machine reuses its threads, stacks, queues and tables.
  if (!state_) state_ = std::make_unique<detail::RunState>(config_, settings_, transport_);
  if (std::atomic<std::uint64_t>* done = settings_.nodes_done) {
    const Kernel counted = [&kernel, done](Node& node) {
      kernel(node);
      done->fetch_add(1, std::memory_order_relaxed);
    };
    return state_->run(counted);
  }
  return state_->run(kernel);
}

}  // namespace hcemu

#if defined(__SANITIZE_THREAD__)
// oneTBB's scheduler synchronises its task queues in ways ThreadSanitizer cannot see, Debian's oneTBB not being built
// with it: the runtime announces its own hand-offs (engine_tasks.cpp), and these suppressions cover only the frames
// of oneTBB's inline task code, which runs on both sides of such a hand-off. They are named by header as well as by
// function, since a program built without full debug names shows those frames as `finalize` or `execute` only.
// Node kernels never run under these frames: each runs on its own stack, which the sanitizer sees as a thread.
extern "C" const char* __tsan_default_suppressions() {
  return "race:tbb::detail::d1::function_task\n"
         "race:tbb::detail::d1::task_group_base\n"
         "race:oneapi/tbb/task_group.h\n"
         // Open MPI's TCP transport takes two of its own locks in both orders while MPI_Init_thread sets it up (a
         // report of a deadlock that cannot happen there, with one thread; hcemu/mpi.hpp).
         "deadlock:mca_btl_tcp_add_procs\n";
}
#endif
