#include "runtime/run_control.hpp"

#include "hcemu/errors.hpp"
#include "runtime/engine.hpp"
#include "runtime/parking.hpp"

namespace hcemu::detail {

void RunControl::start() {
  aborted_.store(false, std::memory_order_relaxed);
  failed_ = false;
  failed_node_ = -1;
  failure_ = nullptr;
  failure_what_.clear();
  blocked_.clear();
}

bool RunControl::fail(int node, std::exception_ptr error, const std::string& what) {
  bool kept = false;
  {
    std::lock_guard lock(mutex_);
    if (!failed_) {
      failed_ = true;
      failed_node_ = node;
      failure_ = std::move(error);
      failure_what_ = what;
      kept = true;
    }
  }
  abort();
  return kept;
}

void RunControl::fail_as(int node, const std::string& what) {
  {
    std::lock_guard lock(mutex_);
    if (!(failed_ && failed_node_ == node && failure_what_ == what)) {
      failed_ = true;
      failed_node_ = node;
      failure_ = std::make_exception_ptr(Error(what));
      failure_what_ = what;
    }
  }
  abort();
}

bool RunControl::failed_here(int* node, std::string* what) {
  std::lock_guard lock(mutex_);
  if (!failed_) return false;
  *node = failed_node_;
  *what = failure_what_;
  return true;
}

void RunControl::deadlock(std::vector<BlockedOperation> blocked) {
  {
    std::lock_guard lock(mutex_);
    blocked_ = std::move(blocked);
  }
  abort();
}

void RunControl::abort() {
  if (aborted_.exchange(true, std::memory_order_acq_rel)) return;
  engine_.interrupt();
  for (Parking* n : nodes_)
    if (n != nullptr) n->notify(0);
}

}  // namespace hcemu::detail
