// The readable table of a run: its machine, makespan, messages, contention and discards, then per node and per
// contended link (the first 16 of each).
#include <iomanip>
#include <ostream>

#include "hcemu/reporter.hpp"

namespace hcemu {

namespace {

constexpr std::size_t kRows = 16;

void summary(std::ostream& out, const RunReport& run) {
  const MachineConfig& c = run.config;
  out << "machine   " << c.name << ", d = " << c.d << " (" << run.nodes.size() << " nodes";
  if (c.topology.grid()) {
    const auto [rows, cols] = c.topology.sides(c.d);
    out << ", " << (c.topology.kind == Topology::Kind::torus ? "torus " : "mesh ") << rows << " x " << cols;
  }
  out << "), " << to_string(c.switching) << ", ports " << c.ports.str() << ", " << to_string(c.protocol) << ", "
      << to_string(run.settings.timing) << " timing\n";
  if (run.ranks > 1) out << "ranks     " << run.ranks << " MPI processes, " << run.rounds << " rounds of placing\n";
  out << "makespan  " << run.makespan_us() << " us\n";
  out << "messages  " << run.messages() << " (" << run.bytes() << " bytes)\n";
  out << "contention " << run.contention_events() << " events, " << to_us(run.contention_delay()) << " us of delay\n";
  out << "forced discards " << run.forced_discards.size() << "\n";
  for (const auto& d : run.forced_discards) {
    out << "  " << d.source << " -> " << d.destination << " tag " << d.tag << ", " << d.bytes
        << " bytes, first byte at " << to_us(d.arrival) << " us, ";
    if (d.post_time)
      out << "receive posted at " << to_us(*d.post_time) << " us\n";
    else
      out << "no receive posted\n";
  }
  for (const auto& u : run.unreceived) out << "  " << u << "\n";
  if (run.lateness)
    out << "lateness  p50 " << run.lateness->p50_us << " us, p99 " << run.lateness->p99_us << " us, max "
        << run.lateness->max_us << " us over " << run.lateness->samples << " waits\n";
  out << "wall      " << run.wall_seconds << " s\n";
}

void node_table(std::ostream& out, const RunReport& run) {
  out << "\n  node  final clock (us)  sent msgs  sent bytes  recv msgs  recv bytes  arena peak\n";
  for (std::size_t i = 0; i < run.nodes.size() && i < kRows; ++i) {
    const auto& s = run.nodes[i];
    out << std::setw(6) << i << std::setw(18) << to_us(s.final_clock) << std::setw(11) << s.messages_sent
        << std::setw(12) << s.bytes_sent << std::setw(11) << s.messages_received << std::setw(12) << s.bytes_received
        << std::setw(12) << s.arena_high_water << "\n";
  }
  if (run.nodes.size() > kRows) out << "  ... " << run.nodes.size() - kRows << " more nodes (see --json)\n";
}

void contended_links(std::ostream& out, const RunReport& run) {
  std::size_t contended = 0;
  for (const auto& l : run.links) contended += l.contention_events > 0;
  if (contended == 0) return;
  out << "\n  link (from -> to)  busy (us)  contention events  delay (us)\n";
  std::size_t shown = 0;
  for (const auto& l : run.links) {
    if (l.contention_events == 0 || shown++ == kRows) continue;
    out << std::setw(8) << l.from << " -> " << std::setw(6) << l.to() << std::setw(11) << to_us(l.busy) << std::setw(19)
        << l.contention_events << std::setw(12) << to_us(l.contention_delay) << "\n";
  }
}

}  // namespace

void EngineStats::print(std::ostream& out) const {
  const auto flags = out.flags();
  const auto precision = out.precision();
  out << std::fixed << std::setprecision(3);
  out << "engine    " << engine << ", " << workers << (engine == "tasks" ? " workers" : " threads") << ", wall "
      << wall_seconds << " s\n";
  out << "placing   " << placement_passes << " passes, " << batches << " batches (" << steps_whole
      << " steps of pairs taken whole), placed " << transfers_placed << " transfers and answered " << horizons_answered
      << " horizons in " << placing_seconds << " s\n";
  if (early_passes > 0)
    out << "early     " << early_passes << " of the passes placed while other workers ran nodes, in " << early_seconds
        << " s (not serial)\n";
  out << "shared    " << transfers_shared << " transfers placed by several workers at once, in " << shared_levels
      << " levels and " << shared_seconds << " s: serial fraction " << std::setprecision(1) << 100 * serial_fraction()
      << "%\n";
  if (rounds > 0)
    out << std::setprecision(3) << "rounds    " << rounds << " with the other ranks ("
        << (whole_queue ? "the whole queue on each" : "the links shared out") << "), " << phases << " phases; waited "
        << waiting_seconds << " s on them (part of placing)\n";
  out << std::setprecision(3) << "senders   placed " << placed_by_senders
      << " transfers themselves, at once (nothing could contend)\n";
  out << "lookahead ";
  if (whole_queue)
    out << "not used: every rank placed the whole queue, each round up to the earliest event it brought\n";
  else if (lookahead > 0)
    out << to_us(lookahead) << " us: transfers ready within it of each other are placed in one batch"
        << (lookahead_limit > 0 && lookahead == lookahead_limit ? " (capped: placing_lookahead_limit)" : "") << "\n";
  else
    out << "none: some transfer has no lead known before it is placed (no costs), and goes alone\n";
  if (!per_worker.empty()) {
    out << std::setprecision(3) << "worker  running s  placing s     idle s     slices\n";
    for (std::size_t w = 0; w < per_worker.size(); ++w) {
      const WorkerStats& s = per_worker[w];
      out << std::setw(6) << w << std::setw(11) << s.running_seconds << std::setw(11) << s.placing_seconds
          << std::setw(11) << s.idle_seconds << std::setw(11) << s.slices << '\n';
    }
  }
  out.flags(flags);
  out.precision(precision);
}

void ConsoleReporter::report(std::string_view label, const RunReport& run) {
  if (!first_) out_ << '\n';
  first_ = false;
  if (!label.empty()) out_ << label << '\n';
  const auto flags = out_.flags();
  out_ << std::fixed << std::setprecision(3);
  summary(out_, run);
  node_table(out_, run);
  contended_links(out_, run);
  out_.flags(flags);
  if (run.engine_stats) run.engine_stats->print(out_);
}

}  // namespace hcemu
