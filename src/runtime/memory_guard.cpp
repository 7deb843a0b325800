#include "runtime/memory_guard.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

namespace hcemu::detail {

namespace {

constexpr std::size_t kNoLimit = std::numeric_limits<std::size_t>::max();

std::string in_units(std::size_t bytes) {
  char text[32];
  if (bytes >= (std::size_t{1} << 30))
    std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / (1 << 30));
  else
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return text;
}

}  // namespace

std::size_t MemoryGuard::host_available() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string key;
    std::size_t kib = 0;
    if (fields >> key >> kib && key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

std::size_t MemoryGuard::resident() {
  std::ifstream statm("/proc/self/statm");
  std::size_t size = 0, pages = 0;
  if (!(statm >> size >> pages)) return 0;
  return pages * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

MemoryGuard::MemoryGuard(std::size_t limit) : automatic_(limit == 0), baseline_(resident()), limit_(limit) {
  if (automatic_) {
    const std::size_t available = host_available();
    limit_ = available == 0 ? kNoLimit : baseline_ + available - available / 8;
  }
}

bool MemoryGuard::reserve(std::size_t bytes) {
  const std::size_t before = held_.fetch_add(bytes, std::memory_order_relaxed);
  if (limit_ == kNoLimit || (baseline_ <= limit_ && before + bytes <= limit_ - baseline_)) return true;
  held_.fetch_sub(bytes, std::memory_order_relaxed);
  refused_.store(true, std::memory_order_relaxed);
  return false;
}

std::string MemoryGuard::explain() const {
  const std::string head =
      "out of host memory: the nodes' stacks, runtimes, buffers, request slots, matching tables and groups of "
      "receives would take this process past ";
  if (automatic_)
    return head + in_units(limit_) + ", what it held before the machine's first run (" + in_units(baseline_) +
           ") and seven eighths of what the host had available then (memory_limit = 0); lower d or the message size, "
           "or spread the machine over MPI ranks";
  return head + "memory_limit = " + in_units(limit_) + " (it held " + in_units(baseline_) +
         " before the machine's first run); lower d or the message size, spread the machine over MPI ranks, or raise "
         "memory_limit";
}

}  // namespace hcemu::detail
