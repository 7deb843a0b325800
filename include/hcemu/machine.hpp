#pragma once
// The emulated hypercube: 2^d node threads running one kernel (docs/model.md §1).
#include <functional>
#include <memory>
#include <string>

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
  // Validates both; throws ConfigError. Runs in this process alone, unless settings.spread is an
  // hcemu::mpi::Session's (Session::spread, or made by Session::machine): then it is spread over the session's ranks
  // (hcemu/mpi.hpp), and the session must outlive it.
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
  // Spread over ranks, a collective (every rank calls it): the first non-empty text among the ranks' `mine`, in rank
  // order, such as the first failure a check of each rank's own nodes found. In one process: `mine`.
  std::string first_of_ranks(const std::string& mine) const;

 private:
  MachineConfig config_;
  EmulatorSettings settings_;
  detail::Transport* transport_ = nullptr;
  std::unique_ptr<detail::RunState> state_;
};

}  // namespace hcemu
