#include "hcemu/errors.hpp"

#include <sstream>

namespace hcemu {

namespace {
std::string config_message(const std::string& key, const std::string& message, const std::string& file, int line) {
  std::ostringstream out;
  if (!file.empty()) out << file << ":" << (line > 0 ? std::to_string(line) + ": " : std::string(" "));
  out << "key '" << key << "': " << message;
  return out.str();
}

std::string deadlock_message(const std::vector<BlockedOperation>& blocked) {
  std::ostringstream out;
  out << "deadlock: " << blocked.size() << " node(s) blocked with nothing in flight that could wake them";
  for (const auto& b : blocked) {
    out << "\n  node " << b.node << ": " << b.operation;
    if (b.peer >= 0) out << " from " << b.peer;
    if (b.operation != "barrier") out << " tag " << b.tag;
    if (!b.detail.empty()) out << " (" << b.detail << ")";
  }
  return out.str();
}
}  // namespace

ConfigError::ConfigError(std::string key_, const std::string& message, std::string file_, int line_)
    : Error(config_message(key_, message, file_, line_)), key(std::move(key_)), file(std::move(file_)), line(line_) {}

ArenaExhausted::ArenaExhausted(int node_, std::size_t capacity_, std::size_t in_use_, std::size_t request_)
    : Error("node " + std::to_string(node_) + ": arena of " + std::to_string(capacity_) + " bytes exhausted (" +
            std::to_string(in_use_) + " in use, " + std::to_string(request_) + " requested)"),
      node(node_), capacity(capacity_), in_use(in_use_), request(request_) {}

DeadlockError::DeadlockError(std::vector<BlockedOperation> blocked_, std::shared_ptr<const RunReport> report_)
    : Error(deadlock_message(blocked_)), blocked(std::move(blocked_)), report(std::move(report_)) {}

KernelError::KernelError(int node_, std::exception_ptr cause_, const std::string& what)
    : Error("node " + std::to_string(node_) + ": " + what), node(node_), cause(std::move(cause_)) {}

}  // namespace hcemu
