#pragma once
// Everything one machine's runs share, kept from run to run so that a run reuses the memory of the last: the timing
// model and its links, the engine and its stacks, the nodes with their queues and tables, the barrier, and the
// coordinator that places transfers in model-time order.
#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "hcemu/config.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/report.hpp"
#include "runtime/barrier.hpp"
#include "runtime/coordinator.hpp"
#include "runtime/engine.hpp"
#include "timing/timing_model.hpp"

namespace hcemu::detail {

class NodeRuntime;

class RunState {
 public:
  RunState(const MachineConfig& config, const EmulatorSettings& settings);
  ~RunState();
  RunState(const RunState&) = delete;
  RunState& operator=(const RunState&) = delete;

  // Runs `kernel` on every node. Throws KernelError, DeadlockError, or hcemu::Error when the engine cannot start.
  RunReport run(const Kernel& kernel);

  const MachineConfig config;
  const EmulatorSettings settings;
  // Transfers that may contend are placed in the model-time order of MODEL.md section 7, under virtual and wall
  // timing alike (a node's wall clock is its own time, timing/clock.hpp). Native timing injects no delay: its
  // transfers hold nothing and are placed as they are issued.
  const bool ordered;
  timing::TimingModel timing;
  std::unique_ptr<Engine> engine;
  GlobalBarrier barrier;
  Coordinator coordinator;
  std::vector<std::unique_ptr<NodeRuntime>> nodes;
  const Kernel* kernel = nullptr;
  std::chrono::steady_clock::time_point origin;  // of native clocks

  // The first failure wins; every node is woken and unwinds.
  void fail(int node, std::exception_ptr error, const std::string& what);
  void deadlock(std::vector<BlockedOperation> blocked);
  void abort();
  bool aborted() const { return aborted_.load(std::memory_order_acquire); }

 private:
  RunReport collect_report(std::chrono::steady_clock::time_point wall_start);

  std::atomic<bool> aborted_{false};
  std::mutex failure_mutex_;
  bool failed_ = false;
  int failed_node_ = -1;
  std::exception_ptr failure_;
  std::string failure_what_;
  std::vector<BlockedOperation> blocked_;
};

}  // namespace hcemu::detail
