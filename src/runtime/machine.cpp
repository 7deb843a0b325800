#include "hcemu/machine.hpp"

#include <pthread.h>

#include <algorithm>
#include <cstring>
#include <thread>

#include "runtime/futex.hpp"
#include "runtime/node_runtime.hpp"
#include "runtime/run_state.hpp"

namespace hcemu {

using detail::NodeRuntime;
using detail::NodeState;
using detail::RunState;

namespace {

void* node_thread(void* arg) {
  static_cast<NodeRuntime*>(arg)->run_kernel();
  return nullptr;
}

// Every unfinished node is asleep with nothing delivered since, and nothing moved between two looks.
bool all_stuck(const RunState& run, std::uint64_t& activity) {
  std::uint64_t sum = 0;
  bool stuck = true;
  for (const auto& n : run.nodes) {
    sum += n->activity();
    if (n->state() != NodeState::done && !n->stuck()) stuck = false;
  }
  activity = sum;
  return stuck && run.finished.load(std::memory_order_acquire) < static_cast<int>(run.nodes.size());
}

// Watches the run until every node has finished; returns the blocked operations if the nodes deadlocked.
std::vector<BlockedOperation> watch(RunState& run) {
  using namespace std::chrono;
  const auto poll = duration<double>(std::min(0.02, run.settings.deadlock_seconds / 4));
  const int nodes = static_cast<int>(run.nodes.size());
  std::uint64_t last_activity = 0;
  auto stuck_since = steady_clock::time_point::max();
  while (run.finished.load(std::memory_order_acquire) < nodes) {
    std::this_thread::sleep_for(poll);
    Time horizon = kNever;
    for (const auto& n : run.nodes) horizon = std::min(horizon, n->published_clock());
    run.timing.set_horizon(horizon);
    if (run.aborted.load(std::memory_order_acquire)) continue;  // an exception: threads are unwinding
    std::uint64_t activity = 0;
    if (!all_stuck(run, activity) || activity != last_activity) {
      stuck_since = steady_clock::time_point::max();
      last_activity = activity;
      continue;
    }
    const auto now = steady_clock::now();
    if (stuck_since == steady_clock::time_point::max()) stuck_since = now;
    if (duration<double>(now - stuck_since).count() < run.settings.deadlock_seconds) continue;
    std::vector<BlockedOperation> blocked;
    for (const auto& n : run.nodes)
      if (n->state() == NodeState::blocked) blocked.push_back(n->blocked_operation());
    // A receive whose message was lost under FORCED can never complete: say so.
    for (auto& b : blocked)
      for (const auto& d : run.nodes[static_cast<std::size_t>(b.node)]->discards())
        if (d.source == b.peer && d.tag == b.tag) b.detail = "its message was discarded under FORCED";
    run.abort();
    return blocked;
  }
  return {};
}

Lateness summarize(std::vector<double> samples) {
  Lateness l;
  l.samples = samples.size();
  if (samples.empty()) return l;
  std::sort(samples.begin(), samples.end());
  auto at = [&](double q) { return samples[static_cast<std::size_t>(q * static_cast<double>(samples.size() - 1))]; };
  l.p50_us = at(0.5);
  l.p99_us = at(0.99);
  l.max_us = samples.back();
  return l;
}

RunReport collect_report(RunState& run, std::chrono::steady_clock::time_point wall_start) {
  const MachineConfig& config = run.config;
  RunReport report;
  report.config = config;
  report.settings = run.settings;
  std::vector<double> lateness;
  for (auto& n : run.nodes) {
    report.nodes.push_back(n->stats());
    report.makespan = std::max(report.makespan, report.nodes.back().final_clock);
    report.forced_discards.insert(report.forced_discards.end(), n->discards().begin(), n->discards().end());
    n->drain_leftovers(report.forced_discards, report.unreceived);
    lateness.insert(lateness.end(), n->lateness_us().begin(), n->lateness_us().end());
    if (run.settings.trace) {
      auto& t = n->trace();
      report.trace.insert(report.trace.end(), std::make_move_iterator(t.begin()), std::make_move_iterator(t.end()));
    }
  }
  std::sort(report.forced_discards.begin(), report.forced_discards.end(),
            [](const ForcedDiscard& a, const ForcedDiscard& b) {
              return std::tie(a.destination, a.source, a.tag, a.arrival) <
                     std::tie(b.destination, b.source, b.tag, b.arrival);
            });
  report.links = run.timing.link_stats();
  if (run.settings.timing == Timing::wall) report.lateness = summarize(std::move(lateness));
  report.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return report;
}

}  // namespace

Machine::Machine(MachineConfig config, EmulatorSettings settings)
    : config_(std::move(config)), settings_(std::move(settings)) {
  config_.validate();
  settings_.validate();
}

RunReport Machine::run(const Kernel& kernel) {
  const auto wall_start = std::chrono::steady_clock::now();
  RunState run(config_, settings_, kernel);

  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, settings_.stack_bytes);
  std::vector<pthread_t> threads;
  threads.reserve(run.nodes.size());
  for (auto& n : run.nodes) {
    pthread_t t;
    if (const int err = pthread_create(&t, &attr, node_thread, n.get()); err != 0) {
      pthread_attr_destroy(&attr);
      run.abort();
      run.go.store(1, std::memory_order_release);
      detail::futex_wake_all(run.go);
      for (pthread_t started : threads) pthread_join(started, nullptr);
      throw Error("could not start the thread of node " + std::to_string(threads.size()) + " of " +
                  std::to_string(run.nodes.size()) + ": " + std::strerror(err) +
                  " (try a smaller stack_bytes or dimension)");
    }
    threads.push_back(t);
  }
  pthread_attr_destroy(&attr);
  run.origin = std::chrono::steady_clock::now();
  for (auto& n : run.nodes) n->reset_clock(run.origin);
  run.go.store(1, std::memory_order_release);
  detail::futex_wake_all(run.go);

  std::vector<BlockedOperation> deadlock = watch(run);
  for (pthread_t t : threads) pthread_join(t, nullptr);

  if (run.failed()) throw KernelError(run.failed_node(), run.failure(), run.failure_what());
  RunReport report = collect_report(run, wall_start);
  if (!deadlock.empty())
    throw DeadlockError(std::move(deadlock), std::make_shared<const RunReport>(std::move(report)));
  return report;
}

}  // namespace hcemu

#if defined(__SANITIZE_THREAD__)
// Boost.Lockfree's queue reads the link of a node that another thread may just have put on its freelist, and then
// discards the stale value when its tagged pointer check fails: correct by design, but a race in ThreadSanitizer's
// eyes (boostorg/lockfree#78). Only these frames are suppressed; the rest of the runtime is checked. It lives
// here, in a file every program that runs a machine links.
extern "C" const char* __tsan_default_suppressions() {
  return "race:boost::lockfree::queue\n"
         "race:boost::lockfree::detail::freelist_stack\n";
}
#endif
