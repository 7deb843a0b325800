#pragma once
// Every error hcemu raises derives from hcemu::Error and says in one sentence what went wrong.
#include <cstddef>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace hcemu {

struct RunReport;

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A machine config that cannot be used: names the key, and the file and line when it came from a file.
struct ConfigError : Error {
  ConfigError(std::string key, const std::string& message, std::string file = {}, int line = 0);
  std::string key;
  std::string file;
  int line = 0;
};

// A kernel used the node API wrongly: a node that does not exist, a bad length, a message longer than the
// buffer posted for it, a request that is not pending...
struct UsageError : Error {
  using Error::Error;
};

// A node's arena cannot satisfy a request.
struct ArenaExhausted : Error {
  ArenaExhausted(int node, std::size_t capacity, std::size_t in_use, std::size_t request);
  int node;
  std::size_t capacity, in_use, request;
};

// What one node was blocked on when a deadlock was detected.
struct BlockedOperation {
  int node = 0;
  std::string operation;  // "recv", "wait", "wait_all", "barrier", "exchange"...
  int peer = -1;          // the source waited for (the destination of a send), -1 when not one node
  int tag = 0;
  std::string detail;     // e.g. "its message was discarded under FORCED"
  bool sending = false;   // a send waits: `peer` is where it goes
};

// Every unfinished node is blocked and nothing in flight can wake one.
// The message lists the blocked nodes grouped by what they wait for, the first few of them, and the nodes that had
// finished (a barrier they never reached is often the cause); `blocked` has every one.
struct DeadlockError : Error {
  explicit DeadlockError(std::vector<BlockedOperation> blocked, std::shared_ptr<const RunReport> report = {},
                         std::vector<int> finished = {});
  std::vector<BlockedOperation> blocked;
  std::vector<int> finished;  // nodes whose kernel had returned
  // What the run did until it stuck: clocks, messages, and the FORCED discards that are often the cause.
  std::shared_ptr<const RunReport> report;
};

// A model time past kTimeLimit (time.hpp): the run would leave the range that exact picoseconds can hold.
struct TimeOverflow : Error {
  using Error::Error;
};

// An exception escaped a node's kernel. The run was stopped and every thread ended; cause() is the original.
struct KernelError : Error {
  KernelError(int node, std::exception_ptr cause, const std::string& what);
  int node;
  std::exception_ptr cause;
};

}  // namespace hcemu
