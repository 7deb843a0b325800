#include "hcemu/errors.hpp"

#include <algorithm>
#include <sstream>

namespace hcemu {

namespace {
std::string config_message(const std::string& key, const std::string& message, const std::string& file, int line) {
  std::ostringstream out;
  if (!file.empty()) out << file << ":" << (line > 0 ? std::to_string(line) + ": " : std::string(" "));
  out << "key '" << key << "': " << message;
  return out.str();
}

// "0-3, 7, 9-12": node ids as ranges.
std::string ranges(const std::vector<int>& ids) {
  std::string out;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(ids[i]) + (j > i ? "-" + std::to_string(ids[j]) : "");
    i = j + 1;
  }
  return out;
}

std::string deadlock_message(const std::vector<BlockedOperation>& blocked, const std::vector<int>& finished) {
  constexpr std::size_t kListed = 8;
  std::ostringstream out;
  out << "deadlock: " << blocked.size() << " node(s) blocked with nothing in flight that could wake them";
  // How many wait in each operation, in order of first appearance.
  std::vector<std::pair<std::string, std::size_t>> kinds;
  for (const auto& b : blocked) {
    auto it = std::find_if(kinds.begin(), kinds.end(), [&](const auto& k) { return k.first == b.operation; });
    if (it == kinds.end()) kinds.emplace_back(b.operation, 1);
    else ++it->second;
  }
  if (blocked.size() > 1) {
    out << " (";
    for (std::size_t i = 0; i < kinds.size(); ++i) out << (i ? ", " : "") << kinds[i].second << " in " << kinds[i].first;
    out << ")";
  }
  for (std::size_t i = 0; i < blocked.size() && i < kListed; ++i) {
    const auto& b = blocked[i];
    out << "\n  node " << b.node << ": " << b.operation;
    if (b.peer >= 0) out << (b.sending ? " to " : " from ") << b.peer;
    if (b.operation != "barrier") out << " tag " << b.tag;
    if (!b.detail.empty()) out << " (" << b.detail << ")";
  }
  if (blocked.size() > kListed) out << "\n  ... and " << blocked.size() - kListed << " more (every one in the report)";
  if (!finished.empty()) out << "\n  finished, so never to come: node" << (finished.size() > 1 ? "s " : " ") << ranges(finished);
  return out.str();
}
}  // namespace

ConfigError::ConfigError(std::string key_, const std::string& message, std::string file_, int line_)
    : Error(config_message(key_, message, file_, line_)), key(std::move(key_)), file(std::move(file_)), line(line_) {}

ArenaExhausted::ArenaExhausted(int node_, std::size_t capacity_, std::size_t in_use_, std::size_t request_)
    : Error("node " + std::to_string(node_) + ": arena of " + std::to_string(capacity_) + " bytes exhausted (" +
            std::to_string(in_use_) + " in use, " + std::to_string(request_) + " requested)"),
      node(node_), capacity(capacity_), in_use(in_use_), request(request_) {}

DeadlockError::DeadlockError(std::vector<BlockedOperation> blocked_, std::shared_ptr<const RunReport> report_,
                             std::vector<int> finished_)
    : Error(deadlock_message(blocked_, finished_)),
      blocked(std::move(blocked_)),
      finished(std::move(finished_)),
      report(std::move(report_)) {}

namespace {
// The cause's message with the node in front, once: the runtime's own errors name their node already.
std::string on_node(int node, const std::string& what) {
  const std::string prefix = "node " + std::to_string(node) + ": ";
  return what.rfind(prefix, 0) == 0 ? what : prefix + what;
}
}  // namespace

KernelError::KernelError(int node_, std::exception_ptr cause_, const std::string& what)
    : Error(on_node(node_, what)), node(node_), cause(std::move(cause_)) {}

}  // namespace hcemu
