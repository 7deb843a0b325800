#pragma once
// What a run did: docs/model.md §5, §7 and §8 made visible.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "hcemu/config.hpp"
#include "hcemu/errors.hpp"
#include "hcemu/time.hpp"

namespace hcemu {

struct NodeStats {
  Time final_clock = 0;
  std::uint64_t messages_sent = 0, bytes_sent = 0;
  std::uint64_t messages_received = 0, bytes_received = 0;
  std::size_t arena_high_water = 0;  // bytes
  Time host_time = 0;  // wall timing: how much of final_clock is the node's own running time on the host
};

// One directed link.
struct LinkStats {
  int from = 0;
  int dim = 0;  // the dimension it crosses on a cube; its direction on a torus (0..3: +x, -x, +y, -y)
  Time busy = 0;                      // total time held by transfers
  std::uint64_t contention_events = 0;  // transfers delayed by another sender's transfer on this link
  Time contention_delay = 0;
  int destination = 0;
  int to() const { return destination; }
};

// A message lost under FORCED (docs/model.md §5): its first byte arrived before a matching receive was posted.
struct ForcedDiscard {
  int source = 0, destination = 0, tag = 0;
  std::size_t bytes = 0;
  Time arrival = 0;                // first byte at the receiver
  std::optional<Time> post_time;  // of the receive that came too late; empty if none was ever posted
};

// Wall timing only: how late the injected waits woke, in microseconds of real time.
struct Lateness {
  std::size_t samples = 0;
  double p50_us = 0, p99_us = 0, max_us = 0;
};

// One span of a node's activity, for traces. "send" and "recv" are the node's ports at work (a transfer leaving,
// one arriving; several at once on a k-port or all-port node); the other kinds are the node's program, one after
// another on its clock.
struct TraceSpan {
  int node = 0;
  std::string kind;  // "send", "recv", "wait", "barrier", "copy", "compute", "elapse"
  Time start = 0, end = 0;
  int peer = -1;
  std::size_t bytes = 0;
  int tag = 0;
  std::uint64_t message = 0;  // send, recv: the message's number (the same on both sides); 0 otherwise
  // "wait": the blocking call, "send", "recv", "exchange" or "wait_all", and for wait and wait_any the kind of request
  // it completed: "wait send", "wait recv", "wait_any send", "wait_any recv"
  std::string call;
};

// One booking of a directed link, for traces: who held it when, and how long it waited for the link.
struct LinkSpan {
  int from = 0, to = 0, dim = 0;
  Time start = 0, end = 0;
  int source = 0;          // the node whose transfer held it
  Time delay = 0;          // how long that transfer waited for this link, held by another's
};

// How the engine spent the host's time on a run, for seeing where a run's wall-clock goes and how it would scale
// (EmulatorSettings::engine_stats, `--stats`; docs/engine.md, "Engine statistics"). Host seconds, never model time.
struct WorkerStats {
  double running_seconds = 0;  // in node slices: kernels and the runtime under them, placing excluded
  double placing_seconds = 0;  // placing transfers: the placer runs on the worker of the node that parked last
  double idle_seconds = 0;     // looking for a node to run (the turn between two slices too), or asleep
  std::uint64_t slices = 0;    // how many times it resumed a node
};

struct EngineStats {
  std::string engine;                   // "tasks" or "os_threads"
  int workers = 0;                      // host threads that run nodes (os_threads: one per node)
  std::uint64_t placement_passes = 0;   // passes of the placer: each places what it may, then lets go
  // Windows: the batches the passes placed at once, transfers ready closer together than anything any of them brings
  std::uint64_t batches = 0;
  // Of those, steps of pairs taken whole: the placer did not look at their transfers (docs/engine.md)
  std::uint64_t steps_whole = 0;
  std::uint64_t transfers_placed = 0;   // by the placer: transfers it brought to their receivers
  std::uint64_t transfers_shared = 0;   // of those, placed in levels shared among workers (docs/engine.md)
  std::uint64_t shared_levels = 0;      // those levels: each a meeting of the workers that join it
  // Placed at once by their senders, outside the placer, as nothing could contend with them (docs/engine.md)
  std::uint64_t placed_by_senders = 0;
  std::uint64_t horizons_answered = 0;  // nodes told that every transfer up to a time has been placed
  double placing_seconds = 0;           // host time inside the placer, all passes
  double shared_seconds = 0;            // of which in levels shared among workers, with whoever joined
  double wall_seconds = 0;              // the run's real duration (RunReport::wall_seconds)
  // The lookahead used: the least time from a placed transfer's ready time to anything its placing brings
  // (docs/engine.md). Zero: some transfer had none, and the placer placed it alone, in a batch of one.
  Time lookahead = 0;
  // The cap EmulatorSettings::placing_lookahead_limit put on every lead, in picoseconds; 0: none.
  Time lookahead_limit = 0;
  std::vector<WorkerStats> per_worker;  // the tasks engine's workers; empty for os_threads
  // Spread over MPI ranks (this rank's): the rounds of placing with every rank, the phases of those in which two
  // ranks booked one shared link (docs/mpi.md), and the host time this rank waited on the others in the rounds'
  // collectives and exchanges, part of placing_seconds.
  std::uint64_t rounds = 0;
  std::uint64_t phases = 0;
  double waiting_seconds = 0;
  // Spread over MPI ranks in model time: every rank placed every transfer, each round up to the earliest event it
  // brought, without batches or lookahead (the torus: docs/mpi.md); false where the links were shared out
  // among the ranks, and in one process.
  bool whole_queue = false;
  // Of the passes, those that placed while other workers still ran nodes (EmulatorSettings::placing_early), and their
  // host time, part of placing_seconds.
  std::uint64_t early_passes = 0;
  double early_seconds = 0;

  // The share of the run's wall-clock the placer spent alone, with no other worker placing beside it and none
  // running nodes (early passes left out; and, spread over ranks, not waiting on another rank): what more workers
  // cannot shorten.
  double serial_fraction() const {
    return wall_seconds > 0
               ? std::max(0.0, placing_seconds - shared_seconds - waiting_seconds - early_seconds) / wall_seconds
               : 0;
  }

  void print(std::ostream& out) const;  // a few readable lines and a table per worker
};

struct RunReport {
  MachineConfig config;
  EmulatorSettings settings;
  Time makespan = 0;  // the largest final clock
  std::vector<NodeStats> nodes;
  std::vector<LinkStats> links;  // only links that carried something, ordered by (from, dim)
  std::vector<ForcedDiscard> forced_discards;
  std::vector<BlockedOperation> blocked;  // a deadlocked run: every blocked node's operation
  std::vector<std::string> unreceived;  // UNFORCED messages nobody received, one line each
  int ranks = 1;                         // how many MPI processes ran it (hcemu/mpi.hpp); 1: this process alone
  std::uint64_t rounds = 0;              // spread over ranks: the rounds of placing with every rank (docs/mpi.md)
  double wall_seconds = 0;               // real duration of the run
  std::optional<Lateness> lateness;     // wall timing only
  std::vector<TraceSpan> trace;         // when settings.trace
  std::vector<LinkSpan> link_trace;     // when settings.trace
  std::optional<EngineStats> engine_stats;  // when settings.engine_stats (spread over ranks: rank 0's own)

  double makespan_us() const { return to_us(makespan); }
  std::uint64_t messages() const;
  std::uint64_t bytes() const;
  std::uint64_t contention_events() const;
  Time contention_delay() const;

  void print(std::ostream& out) const;  // a readable table (ConsoleReporter, hcemu/reporter.hpp)
};

// JSON and the Chrome trace are in hcemu/report_json.hpp, which includes nlohmann/json; hcemu/reporter.hpp writes
// reports in each format.

}  // namespace hcemu
