#pragma once
// How a run ends early: the first failure wins, and every node is woken and unwinds; or a deadlock, reported with what
// each node waits for. Any thread may fail the run; the nodes ask aborted() at every call of the node API.
#include <atomic>
#include <exception>
#include <mutex>
#include <string>
#include <vector>

#include "hcemu/report.hpp"
#include "runtime/placer.hpp"

namespace hcemu::detail {

class Engine;

class RunControl {
 public:
  // `nodes`: by id, null for another rank's; both outlive the control.
  RunControl(Engine& engine, const std::vector<Parking*>& nodes) : engine_(engine), nodes_(nodes) {}

  void start();  // before a run
  // The run's failure, unless it failed already: true when this one is kept.
  bool fail(int node, std::exception_ptr error, const std::string& what);
  // Spread over ranks: the failure every rank reports (Coordinator::RoundHeads), in place of its own.
  void fail_as(int node, const std::string& what);
  bool failed_here(int* node, std::string* what);
  void deadlock(std::vector<BlockedOperation> blocked);
  void abort();
  bool aborted() const { return aborted_.load(std::memory_order_acquire); }

  // After the run (the nodes' threads have ended).
  bool failed() const { return failed_; }
  int failed_node() const { return failed_node_; }
  std::exception_ptr failure() const { return failure_; }
  const std::string& failure_what() const { return failure_what_; }
  std::vector<BlockedOperation> take_blocked() { return std::move(blocked_); }

 private:
  Engine& engine_;
  const std::vector<Parking*>& nodes_;
  std::atomic<bool> aborted_{false};
  std::mutex mutex_;
  bool failed_ = false;
  int failed_node_ = -1;
  std::exception_ptr failure_;
  std::string failure_what_;
  std::vector<BlockedOperation> blocked_;
};

}  // namespace hcemu::detail
