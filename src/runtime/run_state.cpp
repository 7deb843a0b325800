#include "runtime/run_state.hpp"

#include <algorithm>

#include "hcemu/errors.hpp"
#include "runtime/node_runtime.hpp"
#include "runtime/stack_overflow.hpp"

namespace hcemu::detail {

namespace {

// `memory_guard`: made after the engine, and used only once a run starts.
std::unique_ptr<Engine> make_engine(const EmulatorSettings& settings, int first_node, int nodes,
                                    MemoryGuard* memory_guard) {
  stack_overflow::install();
  EngineOptions options;
  options.first_node = first_node;
  options.memory_guard = memory_guard;
  options.workers = settings.workers;
  // A worker beyond the nodes would find nothing to run but still be a host thread that starts, spins and is
  // waited for: --workers 1000 on 32 nodes took 7.3 s instead of 0.02 s.
  options.nodes = nodes;
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

int block_start(int rank, int ranks, int nodes) {
  return static_cast<int>(static_cast<std::int64_t>(rank) * nodes / ranks);
}

Transport* spread_over(Transport* t, const MachineConfig& config, const EmulatorSettings& settings) {
  const int ranks = t == nullptr ? 1 : t->ranks();
  if (ranks > config.nodes())
    throw UsageError("a machine of " + std::to_string(config.nodes()) + " nodes cannot be spread over " +
                     std::to_string(ranks) + " MPI ranks: every rank needs a node at least (run fewer ranks, or "
                     "a larger d)");
  // The largest block a rank holds, against what the engine runs in one process.
  const std::int64_t most = (static_cast<std::int64_t>(config.nodes()) + ranks - 1) / ranks;
  const int limit = max_dimension(settings.engine);
  if (most > (std::int64_t{1} << limit))
    throw UsageError("a machine of 2^" + std::to_string(config.d) + " nodes over " + std::to_string(ranks) +
                     (ranks == 1 ? " process" : " MPI ranks") + " puts " + std::to_string(most) +
                     " nodes in one process, and the " + std::string(to_string(settings.engine)) +
                     " engine runs at most 2^" + std::to_string(limit) + " there: spread it over more ranks");
  return t;
}

}  // namespace

RunState::RunState(const MachineConfig& config_, const EmulatorSettings& settings_, Transport* transport_)
    : config(config_),
      settings(settings_),
      transport(spread_over(transport_, config_, settings_)),
      first_node(transport ? block_start(transport->rank(), transport->ranks(), config_.nodes()) : 0),
      local_nodes(transport ? block_start(transport->rank() + 1, transport->ranks(), config_.nodes()) - first_node
                            : config_.nodes()),
      timing(config_, settings_.timing),
      ordered(timing.orders_in_model_time()),
      engine(make_engine(settings_, first_node, local_nodes, &memory_guard)),
      barrier(local_nodes),
      coordinator(*this),
      memory_guard(settings_.memory_limit),
      blocks(settings_.huge_pages),
      kept_blocks(settings_.huge_pages) {
  timing.record_links(settings.trace);
  nodes.resize(static_cast<std::size_t>(config.nodes()));
  // The nodes' runtimes themselves, held as long as the machine; what they allocate they count as they go.
  if (!memory_guard.reserve(sizeof(NodeRuntime) * static_cast<std::size_t>(local_nodes)))
    throw Error(memory_guard.explain());
  try {
    for (int i = first_node; i < first_node + local_nodes; ++i)
      nodes[static_cast<std::size_t>(i)] = std::make_unique<NodeRuntime>(*this, i);
  } catch (const std::bad_alloc&) {
    if (memory_guard.refused()) throw Error(memory_guard.explain());
    throw;
  }
  engine->set_warm(
      [](void* context, int i, int stage) {
        auto& run = *static_cast<RunState*>(context);
        run.nodes[static_cast<std::size_t>(run.first_node + i)]->warm(stage);
      },
      this);
}

int RunState::rank_of(int id) const {
  if (transport == nullptr) return 0;
  const std::int64_t r = transport->ranks(), n = config.nodes();
  return static_cast<int>(((static_cast<std::int64_t>(id) + 1) * r - 1) / n);
}

RunState::~RunState() = default;

RunReport RunState::run(const Kernel& k) {
  const auto wall_start = std::chrono::steady_clock::now();
  aborted_.store(false, std::memory_order_relaxed);
  failed_ = false;
  failed_node_ = -1;
  failure_ = nullptr;
  memory_guard.forget_refusal();  // a bad_alloc in this run is the guard's only if the guard refused in this run
  failure_what_.clear();
  blocked_.clear();
  kernel = &k;
  timing.reset();
  barrier.reset();
  coordinator.start(local_nodes);
  engine->record_stats(settings.engine_stats);
  for (auto& n : nodes)
    if (n) n->start_run();
  if (distributed()) {
    transport->set_timeout(settings.mpi_timeout_seconds);
    transport->barrier();  // native clocks start together
  }

  engine->run(
      local_nodes, [this](int i) { nodes[static_cast<std::size_t>(first_node + i)]->run_kernel(); },
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
  report.ranks = distributed() ? transport->ranks() : 1;
  report.rounds = coordinator.rounds();
  std::vector<double> lateness;
  std::string error;  // spread over ranks: the first node's error, as every rank must report the same
  int error_node = -1;
  std::exception_ptr error_cause;
  for (auto& n : nodes) {
    if (!n) continue;
    try {
      n->finish_run(report);
    } catch (const std::exception& e) {
      // A message that arrived after its receiver finished and is longer than the receive posted for it.
      if (!distributed()) throw KernelError(n->id(), std::current_exception(), e.what());
      if (error_node < 0) error_node = n->id(), error = e.what(), error_cause = std::current_exception();
    }
    lateness.insert(lateness.end(), n->lateness_us().begin(), n->lateness_us().end());
  }
  if (distributed()) {
    const int here = error_node;
    merge_ranks(report, lateness, error_node, error);  // every rank then has the first rank's error
    if (error_node >= 0)
      throw KernelError(error_node, error_node == here ? error_cause : std::make_exception_ptr(Error(error)), error);
  }
  for (const NodeStats& s : report.nodes) report.makespan = std::max(report.makespan, s.final_clock);
  std::sort(report.forced_discards.begin(), report.forced_discards.end(),
            [](const ForcedDiscard& a, const ForcedDiscard& b) {
              return std::tie(a.destination, a.source, a.tag, a.arrival) <
                     std::tie(b.destination, b.source, b.tag, b.arrival);
            });
  report.links = timing.link_stats();
  if (settings.trace) report.link_trace = timing.link_history();
  if (settings.timing == Timing::wall) report.lateness = summarize(std::move(lateness));
  report.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (settings.engine_stats) {
    EngineStats& s = report.engine_stats.emplace();
    s.engine = settings.engine == EngineKind::tasks ? "tasks" : "os_threads";
    s.workers = engine->workers() > 0 ? engine->workers() : local_nodes;
    s.placement_passes = coordinator.passes();
    s.transfers_placed = coordinator.transfers_placed();
    // Every transfer reaches its receiver once; those the placer did not bring, their senders placed.
    s.placed_by_senders = report.messages() - std::min(report.messages(), s.transfers_placed);
    s.horizons_answered = coordinator.horizons_answered();
    s.placing_seconds = coordinator.placing_seconds();
    s.wall_seconds = report.wall_seconds;
    s.per_worker = engine->worker_stats();
  }
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

void RunState::fail_as(int node, const std::string& what) {
  {
    std::lock_guard lock(failure_mutex_);
    if (!(failed_ && failed_node_ == node && failure_what_ == what)) {
      failed_ = true;
      failed_node_ = node;
      failure_ = std::make_exception_ptr(Error(what));
      failure_what_ = what;
    }
  }
  abort();
}

bool RunState::failed_here(int* node, std::string* what) {
  std::lock_guard lock(failure_mutex_);
  if (!failed_) return false;
  *node = failed_node_;
  *what = failure_what_;
  return true;
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
  for (auto& n : nodes)
    if (n) n->notify();
}

}  // namespace hcemu::detail
