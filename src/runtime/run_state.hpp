#pragma once
// Everything one machine's runs share, kept from run to run so that a run reuses the memory of the last: the timing
// model and its links, the engine and its stacks, the nodes with their queues and tables, the barrier, and the
// coordinator that places transfers in model-time order. It makes them and hands each what it needs: the nodes and
// the placer know each other only through runtime/placer.hpp.
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "hcemu/config.hpp"
#include "hcemu/machine.hpp"
#include "hcemu/report.hpp"
#include "runtime/barrier.hpp"
#include "runtime/block_pool.hpp"
#include "runtime/coordinator.hpp"
#include "runtime/node_core.hpp"
#include "runtime/run_control.hpp"
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

 private:
  bool distributed() const { return transport_ != nullptr; }
  RunReport collect_report(std::chrono::steady_clock::time_point wall_start);
  // Spread over ranks: every rank's part of the report, merged in node order; every rank gets the whole.
  // `error_node` and `error`: this rank's first error in, the first rank's that has one out (-1: none).
  void merge_ranks(RunReport& report, std::vector<double>& lateness, int& error_node, std::string& error);
  void merge_links(RunReport& report);

  const MachineConfig config_;
  const EmulatorSettings settings_;
  // Spread over MPI ranks (docs/mpi.md): this process runs the nodes [first_node_, first_node_ + local_nodes_), a
  // block of consecutive ids, and holds nullptr for the others in `nodes_`. In one process: every node, transport
  // nullptr.
  Transport* const transport_;
  const int first_node_;
  const int local_nodes_;
  timing::TimingModel timing_;
  std::unique_ptr<Engine> engine_;
  GlobalBarrier barrier_;
  std::vector<Parking*> events_;  // nodes_ as the placer and the run's control see them
  RunControl control_;
  PlacerContext placer_context_;
  Coordinator coordinator_;
  // Before the nodes, which free into them as they go: how much of the host's memory the nodes may take, the arenas'
  // large blocks (handed out afresh after every run), and what the nodes keep from run to run, their request slots
  // and matching tables.
  MemoryGuard memory_guard_;
  BlockPool blocks_;
  BlockPool kept_blocks_;
  NodeContext node_context_;
  std::vector<std::unique_ptr<NodeRuntime>> nodes_;
};

}  // namespace hcemu::detail
