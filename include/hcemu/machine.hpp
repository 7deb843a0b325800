#pragma once
// The emulated hypercube: 2^d node threads running one kernel (MODEL.md section 1).
#include <functional>

#include "hcemu/config.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/node.hpp"
#include "hcemu/report.hpp"

namespace hcemu {

using Kernel = std::function<void(Node&)>;

class Machine {
 public:
  // Validates both; throws ConfigError.
  explicit Machine(MachineConfig config, EmulatorSettings settings = {});
  const MachineConfig& config() const { return config_; }
  const EmulatorSettings& settings() const { return settings_; }

  // Runs `kernel` on every node, each in its own thread, and returns when all have finished.
  // Throws KernelError if a node's kernel threw, DeadlockError if the nodes deadlocked; every thread has
  // ended by then.
  RunReport run(const Kernel& kernel);

 private:
  MachineConfig config_;
  EmulatorSettings settings_;
};

}  // namespace hcemu
