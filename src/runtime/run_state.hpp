#pragma once
// What the node threads of one run share: the timing model, the barrier, and the means to stop them all.
#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "hcemu/config.hpp"
#include "hcemu/machine.hpp"
#include "runtime/barrier.hpp"
#include "timing/transfer.hpp"

namespace hcemu::detail {

class NodeRuntime;

// Thrown inside a node's thread to unwind its kernel when the run is being stopped.
struct Aborted {};

class RunState {
 public:
  RunState(const MachineConfig& config, const EmulatorSettings& settings, const Kernel& kernel);
  ~RunState();

  const MachineConfig& config;
  const EmulatorSettings& settings;
  const Kernel& kernel;
  timing::TimingModel timing;
  GlobalBarrier barrier;
  std::chrono::steady_clock::time_point origin;
  std::vector<std::unique_ptr<NodeRuntime>> nodes;

  std::atomic<std::uint32_t> go{0};  // threads wait for it, so that wall time starts together
  std::atomic<bool> aborted{false};
  std::atomic<int> finished{0};

  // The first failure wins; every node is woken and unwinds.
  void fail(int node, std::exception_ptr error, const std::string& what);
  void abort();
  bool failed() const { return failed_.load(std::memory_order_acquire); }
  int failed_node() const { return failed_node_; }
  std::exception_ptr failure() const { return failure_; }
  const std::string& failure_what() const { return failure_what_; }

 private:
  std::atomic<bool> failed_{false};
  int failed_node_ = -1;
  std::exception_ptr failure_;
  std::string failure_what_;
};

}  // namespace hcemu::detail
