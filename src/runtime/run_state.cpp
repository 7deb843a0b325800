#include "runtime/run_state.hpp"

#include <algorithm>

#include "hcemu/errors.hpp"
#include "runtime/node_runtime.hpp"

namespace hcemu::detail {

namespace {

std::unique_ptr<Engine> make_engine(const EmulatorSettings& settings) {
  EngineOptions options;
  options.workers = settings.workers;
  options.stack_bytes = settings.stack_bytes;
  options.wall = settings.timing == Timing::wall;
  return settings.engine == EngineKind::tasks ? make_task_engine(options) : make_os_thread_engine(options);
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

}  // namespace

RunState::RunState(const MachineConfig& config_, const EmulatorSettings& settings_)
    : config(config_),
      settings(settings_),
      ordered(settings_.timing != Timing::native),
      timing(config_, settings_.timing),
      engine(make_engine(settings_)),
      barrier(config_.nodes()),
      coordinator(*this) {
  timing.record_links(settings.trace);
  nodes.reserve(static_cast<std::size_t>(config.nodes()));
  for (int i = 0; i < config.nodes(); ++i) nodes.push_back(std::make_unique<NodeRuntime>(*this, i));
}

RunState::~RunState() = default;

RunReport RunState::run(const Kernel& k) {
  const auto wall_start = std::chrono::steady_clock::now();
  aborted_.store(false, std::memory_order_relaxed);
  failed_ = false;
  failed_node_ = -1;
  failure_ = nullptr;
  failure_what_.clear();
  blocked_.clear();
  kernel = &k;
  timing.reset();
  barrier.reset();
  coordinator.start(config.nodes());
  for (auto& n : nodes) n->start_run();

  engine->run(
      config.nodes(), [this](int i) { nodes[static_cast<std::size_t>(i)]->run_kernel(); },
      [this] { origin = std::chrono::steady_clock::now(); });
  coordinator.discard_pending();

  if (failed_) throw KernelError(failed_node_, failure_, failure_what_);
  RunReport report = collect_report(wall_start);
  if (!blocked_.empty()) {
    std::vector<bool> is_blocked(nodes.size(), false);
    for (const BlockedOperation& b : blocked_) is_blocked[static_cast<std::size_t>(b.node)] = true;
    std::vector<int> finished;
    for (std::size_t i = 0; i < nodes.size(); ++i)
      if (!is_blocked[i]) finished.push_back(static_cast<int>(i));
    report.blocked = blocked_;
    throw DeadlockError(std::move(blocked_), std::make_shared<const RunReport>(std::move(report)), finished);
  }
  return report;
}

RunReport RunState::collect_report(std::chrono::steady_clock::time_point wall_start) {
  RunReport report;
  report.config = config;
  report.settings = settings;
  std::vector<double> lateness;
  for (auto& n : nodes) {
    try {
      n->finish_run(report);
    } catch (const std::exception& e) {
      // A message that arrived after its receiver finished and is longer than the receive posted for it.
      throw KernelError(n->id(), std::current_exception(), e.what());
    }
    report.makespan = std::max(report.makespan, report.nodes.back().final_clock);
    lateness.insert(lateness.end(), n->lateness_us().begin(), n->lateness_us().end());
  }
  std::sort(report.forced_discards.begin(), report.forced_discards.end(),
            [](const ForcedDiscard& a, const ForcedDiscard& b) {
              return std::tie(a.destination, a.source, a.tag, a.arrival) <
                     std::tie(b.destination, b.source, b.tag, b.arrival);
            });
  report.links = timing.link_stats();
  if (settings.trace) report.link_trace = timing.link_history();
  if (settings.timing == Timing::wall) report.lateness = summarize(std::move(lateness));
  report.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return report;
}

void RunState::fail(int node, std::exception_ptr error, const std::string& what) {
  {
    std::lock_guard lock(failure_mutex_);
    if (!failed_) {
      failed_ = true;
      failed_node_ = node;
      failure_ = std::move(error);
      failure_what_ = what;
    }
  }
  abort();
}

void RunState::deadlock(std::vector<BlockedOperation> blocked) {
  {
    std::lock_guard lock(failure_mutex_);
    blocked_ = std::move(blocked);
  }
  abort();
}

void RunState::abort() {
  if (aborted_.exchange(true, std::memory_order_acq_rel)) return;
  engine->interrupt();
  for (auto& n : nodes) n->notify();
}

}  // namespace hcemu::detail
