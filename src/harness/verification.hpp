#pragma once
// What every family's harness shares when it verifies a run.
#include <mutex>
#include <string>

#include "harness/algorithm.hpp"
#include "hcemu/machine.hpp"

namespace hcemu::harness {

// The first verification failure that any node reports; the node threads report concurrently.
class FirstFailure {
 public:
  void report(std::string message) {
    std::lock_guard lock(mutex_);
    if (message_.empty()) message_ = std::move(message);
  }
  // Spread over MPI ranks each rank checked only its own nodes: every rank then records the first rank's failure.
  void record_into(KernelResult& result, const Machine& machine) const {
    result.verify_message = machine.first_of_ranks(message_);
    result.verified = result.verify_message.empty();
  }

 private:
  std::mutex mutex_;
  std::string message_;
};

}  // namespace hcemu::harness
