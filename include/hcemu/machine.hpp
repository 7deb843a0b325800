#pragma once
// The emulated hypercube: 2^d node threads running one kernel (docs/model.md §1).
#include <functional>
#include <memory>

#include "hcemu/config.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/node.hpp"
#include "hcemu/report.hpp"

namespace hcemu {

namespace detail {
class RunState;
class Transport;
}

using Kernel = std::function<void(Node&)>;

class Machine {
 public:
  // Validates both; throws ConfigError. Made while an hcemu::mpi::Session lives on more than one rank (and no
  // hcemu::mpi::InProcess on this thread), the machine is spread over the ranks (hcemu/mpi.hpp).
  explicit Machine(MachineConfig config, EmulatorSettings settings = {});
  ~Machine();
  Machine(Machine&&) noexcept;
  Machine& operator=(Machine&&) noexcept;
  const MachineConfig& config() const { return config_; }
  const EmulatorSettings& settings() const { return settings_; }

  // Runs `kernel` on every node, each as its own thread of control, and returns when all have finished.
  // Throws KernelError if a node's kernel threw, DeadlockError if the nodes deadlocked; every node has
  // ended by then. A machine runs one kernel at a time; later runs reuse the memory of the first.
  RunReport run(const Kernel& kernel);

  // How many MPI ranks it is spread over (1: this process alone).
  int ranks() const;

 private:
  MachineConfig config_;
  EmulatorSettings settings_;
  detail::Transport* transport_ = nullptr;
  std::unique_ptr<detail::RunState> state_;
};

}  // namespace hcemu
