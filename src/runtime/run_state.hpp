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
#include "runtime/block_pool.hpp"
#include "runtime/coordinator.hpp"
#include "runtime/engine.hpp"
#include "runtime/memory_guard.hpp"
#include "runtime/transport.hpp"
#include "timing/timing_model.hpp"

namespace hcemu::detail {

class NodeRuntime;

class RunState {
 public:
  RunState(const MachineConfig& config, const EmulatorSettings& settings, Transport* transport = nullptr);
  ~RunState();
  RunState(const RunState&) = delete;
  RunState& operator=(const RunState&) = delete;

  // Runs `kernel` on every node. Throws KernelError, DeadlockError, or hcemu::Error when the engine cannot start.
  RunReport run(const Kernel& kernel);

  const MachineConfig config;
  const EmulatorSettings settings;
  // Spread over MPI ranks (docs/mpi.md): this process runs the nodes [first_node, first_node + local_nodes), a block
  // of consecutive ids, and holds nullptr for the others in `nodes`. In one process: every node, transport nullptr.
  Transport* const transport;
  const int first_node;
  const int local_nodes;
  bool distributed() const { return transport != nullptr; }
  bool is_local(int id) const { return id >= first_node && id - first_node < local_nodes; }
  int rank_of(int id) const;
  timing::TimingModel timing;  // before `ordered`, which it answers
  // Transfers that may contend are placed in the model-time order of docs/model.md §7, under virtual and wall
  // timing alike (a node's wall clock is its own time, timing/clock.hpp). Native timing injects no delay: its
  // transfers hold nothing and are placed as they are issued.
  const bool ordered;
  std::unique_ptr<Engine> engine;
  GlobalBarrier barrier;
  Coordinator coordinator;
  // Before the nodes, which free into them as they go: how much of the host's memory the nodes may take, the arenas'
  // large blocks (handed out afresh after every run), and what the nodes keep from run to run, their request slots
  // and matching tables.
  MemoryGuard memory_guard;
  BlockPool blocks;
  BlockPool kept_blocks;
  std::vector<std::unique_ptr<NodeRuntime>> nodes;
  const Kernel* kernel = nullptr;
  std::chrono::steady_clock::time_point origin;  // of native clocks

  // The first failure wins; every node is woken and unwinds.
  void fail(int node, std::exception_ptr error, const std::string& what);
  // Spread over ranks: the failure every rank reports (the first rank's that failed), in place of its own.
  void fail_as(int node, const std::string& what);
  bool failed_here(int* node, std::string* what);
  void deadlock(std::vector<BlockedOperation> blocked);
  void abort();
  bool aborted() const { return aborted_.load(std::memory_order_acquire); }

 private:
  RunReport collect_report(std::chrono::steady_clock::time_point wall_start);
  // Spread over ranks: every rank's part of the report, merged in node order; every rank gets the whole.
  // `error_node` and `error`: this rank's first error in, the first rank's that has one out (-1: none).
  void merge_ranks(RunReport& report, std::vector<double>& lateness, int& error_node, std::string& error);

  std::atomic<bool> aborted_{false};
  std::mutex failure_mutex_;
  bool failed_ = false;
  int failed_node_ = -1;
  std::exception_ptr failure_;
  std::string failure_what_;
  std::vector<BlockedOperation> blocked_;
};

}  // namespace hcemu::detail
