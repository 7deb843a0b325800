#include "runtime/run_state.hpp"

#include <unistd.h>

#include <algorithm>

#include "hcemu/errors.hpp"
#include "runtime/node_runtime.hpp"
#include "runtime/run_control.hpp"
#include "runtime/stack_overflow.hpp"

namespace hcemu::detail {

namespace {

int cores_of_host() { return std::max(1, static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN))); }

// `memory_guard`: made after the engine, and used only once a run starts.
std::unique_ptr<Engine> make_engine(const EmulatorSettings& settings, const Transport* transport, int first_node,
                                    int nodes, MemoryGuard* memory_guard) {
  stack_overflow::install();
  EngineOptions options;
  options.first_node = first_node;
  options.memory_guard = memory_guard;
  options.workers = settings.workers;
  // MPI ranks on one host that mpirun has not bound each to cores of its own (it binds none when there are more
  // ranks than cores, or under --bind-to none) would each start a worker per core of the host, and spin for work on
  // cores that another rank's workers need. By default they share the host's cores out instead. Either way, once the
  // ranks' workers outnumber the cores, an idle worker gives its core away rather than spin.
  if (const int sharing = transport != nullptr ? transport->ranks_on_host() : 1; sharing > 1) {
    const int mine = cores_of_this_process(), host = cores_of_host();
    if (options.workers == 0 && mine >= host) options.workers = std::max(1, host / sharing);
    options.cores_shared = static_cast<std::int64_t>(sharing) * (options.workers > 0 ? options.workers : mine) > host;
  }
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

RunState::RunState(const MachineConfig& config, const EmulatorSettings& settings, Transport* transport)
    : config_(config),
      settings_(settings),
      transport_(spread_over(transport, config, settings)),
      first_node_(transport_ ? block_start(transport_->rank(), transport_->ranks(), config.nodes()) : 0),
      local_nodes_(transport_ ? block_start(transport_->rank() + 1, transport_->ranks(), config.nodes()) - first_node_
                              : config.nodes()),
      timing_(config, settings.timing),
      engine_(make_engine(settings, transport_, first_node_, local_nodes_, &memory_guard_)),
      barrier_(local_nodes_),
      events_(static_cast<std::size_t>(config.nodes()), nullptr),
      control_(*engine_, events_),
      // Whether transfers that may contend are placed in the model-time order of docs/model.md §7: the timing
      // model's answer (native timing injects no delay, so its transfers are placed as they are issued).
      placer_context_{timing_, *engine_, barrier_, control_, events_, transport_, first_node_, local_nodes_,
                      timing_.orders_in_model_time(), settings.placing_early && settings.timing == Timing::virtual_time,
                      settings.engine_stats, settings.placing_share_from,
                      settings.placing_lookahead_limit > 0
                          ? std::max<Time>(1, from_us(settings.placing_lookahead_limit))  // at least 1 ps
                          : kNever,
                      settings.model_time_placed},
      coordinator_(placer_context_),
      memory_guard_(settings.memory_limit),
      blocks_(settings.huge_pages),
      kept_blocks_(settings.huge_pages),
      node_context_{config_,   settings_, timing_,         *engine_,     barrier_,    coordinator_,
                    control_,  memory_guard_, blocks_,     kept_blocks_, first_node_} {
  timing_.record_links(settings_.trace);
  nodes_.resize(static_cast<std::size_t>(config_.nodes()));
  // The nodes' runtimes themselves, held as long as the machine; what they allocate they count as they go.
  if (!memory_guard_.reserve(sizeof(NodeRuntime) * static_cast<std::size_t>(local_nodes_)))
    throw Error(memory_guard_.explain());
  try {
    for (int i = first_node_; i < first_node_ + local_nodes_; ++i) {
      nodes_[static_cast<std::size_t>(i)] = std::make_unique<NodeRuntime>(node_context_, i);
      events_[static_cast<std::size_t>(i)] = &nodes_[static_cast<std::size_t>(i)]->parking();
    }
  } catch (const std::bad_alloc&) {
    if (memory_guard_.refused()) throw Error(memory_guard_.explain());
    throw;
  }
  engine_->set_dry([](void* context, int w) { static_cast<Coordinator*>(context)->worker_dry(w); }, &coordinator_);
  engine_->set_warm(
      [](void* context, int i, int stage) {
        auto& run = *static_cast<RunState*>(context);
        run.nodes_[static_cast<std::size_t>(run.first_node_ + i)]->warm(stage);
      },
      this);
}

RunState::~RunState() = default;

RunReport RunState::run(const Kernel& k) {
  const auto wall_start = std::chrono::steady_clock::now();
  control_.start();
  memory_guard_.forget_refusal();  // a bad_alloc in this run is the guard's only if the guard refused in this run
  timing_.reset();
  barrier_.reset();
  coordinator_.start(local_nodes_);
  engine_->record_stats(settings_.engine_stats);
  for (auto& n : nodes_)
    if (n) n->start_run();
  if (distributed()) {
    transport_->set_timeout(settings_.mpi_timeout_seconds);
    transport_->barrier();  // native clocks start together
  }

  std::chrono::steady_clock::time_point origin;
  engine_->run(
      local_nodes_, [&](int i) { nodes_[static_cast<std::size_t>(first_node_ + i)]->run_kernel(k, origin); },
      [&] {
        origin = std::chrono::steady_clock::now();
        coordinator_.set_origin(origin);
      });
  coordinator_.discard_pending();

  if (control_.failed()) throw KernelError(control_.failed_node(), control_.failure(), control_.failure_what());
  RunReport report = collect_report(wall_start);
  std::vector<BlockedOperation> blocked = control_.take_blocked();
  if (!blocked.empty()) {
    std::vector<bool> is_blocked(nodes_.size(), false);
    for (const BlockedOperation& b : blocked) is_blocked[static_cast<std::size_t>(b.node)] = true;
    std::vector<int> finished;
    for (std::size_t i = 0; i < nodes_.size(); ++i)
      if (!is_blocked[i]) finished.push_back(static_cast<int>(i));
    report.blocked = blocked;
    throw DeadlockError(std::move(blocked), std::make_shared<const RunReport>(std::move(report)), finished);
  }
  return report;
}

RunReport RunState::collect_report(std::chrono::steady_clock::time_point wall_start) {
  RunReport report;
  report.config = config_;
  report.settings = settings_;
  report.ranks = distributed() ? transport_->ranks() : 1;
  report.rounds = coordinator_.rounds();
  std::vector<double> lateness;
  std::string error;  // spread over ranks: the first node's error, as every rank must report the same
  int error_node = -1;
  std::exception_ptr error_cause;
  for (auto& n : nodes_) {
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
  report.links = timing_.link_stats();
  if (settings_.trace) report.link_trace = timing_.link_history();
  if (distributed() && coordinator_.partitioned()) merge_links(report);
  if (settings_.timing == Timing::wall) report.lateness = summarize(std::move(lateness));
  report.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (settings_.engine_stats) {
    EngineStats& s = report.engine_stats.emplace();
    s.engine = settings_.engine == EngineKind::tasks ? "tasks" : "os_threads";
    s.workers = engine_->workers() > 0 ? engine_->workers() : local_nodes_;
    s.placement_passes = coordinator_.passes();
    s.batches = coordinator_.batches();
    s.steps_whole = coordinator_.steps_whole();
    s.transfers_placed = coordinator_.transfers_placed();
    s.transfers_shared = coordinator_.transfers_shared();
    s.shared_levels = coordinator_.shared_levels();
    s.lookahead = coordinator_.least_lead() == kNever ? 0 : coordinator_.least_lead();
    s.lookahead_limit = placer_context_.lead_limit == kNever ? 0 : placer_context_.lead_limit;
    // Every transfer reaches its receiver once; those the placer did not bring, their senders placed. Spread over
    // ranks, of this rank's senders' transfers, when each rank places its own (coordinator_.partitioned()).
    std::uint64_t sent = report.messages();
    if (distributed() && coordinator_.partitioned()) {
      sent = 0;
      for (int i = first_node_; i < first_node_ + local_nodes_; ++i)
        sent += report.nodes[static_cast<std::size_t>(i)].messages_sent;
    }
    s.placed_by_senders = sent - std::min(sent, s.transfers_placed);
    s.horizons_answered = coordinator_.horizons_answered();
    s.placing_seconds = coordinator_.placing_seconds();
    s.rounds = coordinator_.rounds();
    s.phases = coordinator_.phases();
    s.waiting_seconds = coordinator_.waiting_seconds();
    s.whole_queue = coordinator_.whole_queue();
    s.early_passes = coordinator_.early_passes();
    s.early_seconds = coordinator_.early_seconds();
    s.shared_seconds = coordinator_.shared_seconds();
    s.wall_seconds = report.wall_seconds;
    s.per_worker = engine_->worker_stats();
  }
  return report;
}

}  // namespace hcemu::detail
