#pragma once
// What every family's harness shares when it verifies a run.
#include <mutex>
#include <string>

#include "harness/algorithm.hpp"

namespace hcemu::harness {

// The first verification failure that any node reports; the node threads report concurrently.
class FirstFailure {
 public:
  void report(std::string message) {
    std::lock_guard lock(mutex_);
    if (message_.empty()) message_ = std::move(message);
  }
  void record_into(KernelResult& result) const {
    result.verified = message_.empty();
    result.verify_message = message_;
  }

 private:
  std::mutex mutex_;
  std::string message_;
};

}  // namespace hcemu::harness
