#pragma once
// One machine: its dimension and the communication parameters of docs/model.md §2 (MachineConfig), apart from how
// the emulator runs it (EmulatorSettings), so that a kernel's node.config() shows the machine of the papers and
// nothing of the emulator's internals. Each field is a key of hcemu/config_keys.hpp, which holds its range, unit and
// documentation; a field's initializer here is its default.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "hcemu/time.hpp"

namespace hcemu {

namespace detail {
class Transport;
struct SpreadAccess;
}  // namespace detail

// How a message crosses the machine: docs/model.md §3 (circuit, store-and-forward) or §12 (LogGP).
enum class Switching { circuit, store_and_forward, loggp };
enum class Protocol { forced, unforced };
enum class Timing { virtual_time, wall, native };  // "virtual" in configs and on the command line
// How node threads run: lightweight threads on oneTBB's worker pool, or one OS thread each.
enum class EngineKind { tasks, os_threads };
inline constexpr EngineKind kEngineKinds[] = {EngineKind::tasks, EngineKind::os_threads};
// The largest cube an engine runs in one process; without an argument, the largest any engine runs there.
int max_dimension(EngineKind engine);
int max_dimension();
// The largest cube a machine may be, in one process (ranks = 1) or spread over `ranks` MPI ranks (hcemu/mpi.hpp):
// each rank holds at most 2^max_dimension(engine) nodes, up to 2^kMaxSpreadDimension in all, the range of the key `d`.
int max_spread_dimension(EngineKind engine, int ranks);
inline constexpr int kMaxSpreadDimension = 20;

// Where a machine's nodes run (docs/mpi.md): in this process alone, the default, or over the MPI ranks of an
// hcemu::mpi::Session, which hands them out (Session::spread, Session::machine). Nothing else spreads a machine.
class Spread {
 public:
  Spread() = default;
  int ranks() const { return ranks_; }

 private:
  friend struct detail::SpreadAccess;
  detail::Transport* transport_ = nullptr;
  int ranks_ = 1;
};

// docs/model.md §1: the 2^d-node hypercube (e-cube routing), or an R x C torus, or a mesh (the torus without its
// wrap-around links), routed x first, then y (Suh, Shin & An). Spelt `cube`, `torus`, `torus:RxC`, `mesh:RxC`;
// without sides, a torus or mesh is square: 2^(d/2) x 2^(d/2).
struct Topology {
  enum class Kind { cube, torus, mesh };
  Kind kind = Kind::cube;
  int rows = 0, cols = 0;  // torus, mesh; 0: square

  static Topology parse(std::string_view text);  // throws ConfigError("topology", ...)
  std::string str() const;
  bool grid() const { return kind != Kind::cube; }
  // The sides for a machine of 2^d nodes; throws ConfigError("topology", ...) when they do not fit it.
  std::pair<int, int> sides(int d) const;
  friend bool operator==(const Topology&, const Topology&) = default;
};

// docs/model.md §4: `one` (full duplex), `half` (one-port half duplex), `k:N`, `all` (n-port).
struct Ports {
  enum class Kind { one, half, k, all };
  Kind kind = Kind::one;
  int n = 1;  // for Kind::k: at most n transfers out and n in at a time

  static Ports parse(std::string_view text);  // throws ConfigError("ports", ...)
  std::string str() const;
  friend bool operator==(const Ports&, const Ports&) = default;
};

std::string_view to_string(Switching);
std::string_view to_string(Protocol);
std::string_view to_string(Timing);
Switching parse_switching(std::string_view);  // throws ConfigError naming the key
Protocol parse_protocol(std::string_view);
Timing parse_timing(std::string_view);
std::string_view to_string(EngineKind);
EngineKind parse_engine(std::string_view);
// The engine a default EmulatorSettings gets: `tasks`, unless the environment variable HCEMU_ENGINE names another
// (so that a whole test suite can be run again on the other engine).
EngineKind default_engine();

struct MachineConfig {
  std::string name = "custom";  // preset name, for reports
  int d = 0;                    // 2^d nodes, 0..max_spread_dimension(settings.engine, settings.spread.ranks())

  // docs/model.md §2. Times in microseconds, sizes in bytes.
  double lambda = 0;                // λ: start-up of one transfer (one packet)
  std::optional<double> lambda0;    // λ0: start-up of a zero-byte message; unset means λ
  double tau = 0;                   // τ: per byte on a link
  double delta_hop = 0;             // δ: circuit set-up per hop
  double delta_msg = 0;             // δ': circuit set-up per message
  double rho = 0;                   // ρ: local copy or permutation, per byte
  double barrier_a = 0;             // Q(d) = barrier_a + barrier_b * d
  double barrier_b = 0;
  std::size_t packet = 0;           // B_m: largest packet, 0 = no limit
  double flop = 0;                  // t_a: per floating-point operation
  double sys_copy = 0;              // per byte out of the system buffer, UNFORCED late receive
  // docs/model.md §13, the short-message protocol (Nicol & Bokhari 1994 §4): a packet of 1..short_limit bytes
  // starts up in lambda_short and moves at tau_short per byte; 0 = no such protocol.
  std::size_t short_limit = 0;
  std::optional<double> lambda_short;  // unset means λ
  std::optional<double> tau_short;     // unset means τ
  // docs/model.md §14, the overheads Johnsson & Ho (1987) measured on the Intel iPSC (§1.3, §5.1): a fixed time per
  // Node::compute call, a per-byte copy for every byte of a message longer than `packet`, and the fraction of a
  // transfer's hold of a node's port that the node's next transfer, on another link, may overlap.
  double compute_overhead = 0;      // per Node::compute call (a multiplication step's loop overhead)
  double split_copy = 0;            // per byte of a message the system splits into packets
  double port_overlap = 0;          // 0 .. 1: 0 = a port holds each transfer whole
  std::size_t element = 8;          // bytes of the programs' floating-point element: 8 double, 4 float
  Switching switching = Switching::circuit;
  // docs/model.md §12, used when switching is loggp (Alexandrov, Ionescu, Schauser & Scheiman 1995): L, o, g, G.
  double loggp_latency = 0;         // L: from the last byte's injection to its arrival at the receiver
  double loggp_overhead = 0;        // o: the sender's, and again the receiver's, processing of one message
  double loggp_gap = 0;             // g: least time between two messages' injections, or receptions, at a node
  double loggp_gap_per_byte = 0;    // G: per byte of a message after the first
  Topology topology;
  Ports ports;
  Protocol protocol = Protocol::unforced;

  int nodes() const { return 1 << d; }
  void validate() const;  // throws ConfigError naming the first key out of its range
};

// How the emulator runs a machine (docs/model.md §8): none of this changes the model's results in virtual time.
struct EmulatorSettings {
  Timing timing = Timing::virtual_time;
  double time_scale = 1;                       // wall timing: real seconds per model second, >= 1
  EngineKind engine = default_engine();        // how node threads run
  int workers = 0;                             // tasks engine: host threads that run nodes; 0 = one per core
  std::size_t arena_bytes = 64u << 20;         // per node
  std::size_t stack_bytes = 256u << 10;        // per node thread
  bool huge_pages = false;                     // the nodes' large blocks in transparent huge pages (docs/engine.md)
  std::size_t memory_limit = 0;                // bytes the process may hold; 0 = the host's available memory
  unsigned yield_seed = 0;                     // != 0: random thread yields in the runtime, to shake out races
  bool trace = false;                          // record spans for a Chrome trace
  bool engine_stats = false;                   // RunReport::engine_stats: where the host's time went
  // Tasks engine: a level of at least this many transfers that share no link, sender or receiver is placed by every
  // worker that is free at once (docs/engine.md, "Placing in parallel"); 0: the placer places alone.
  std::size_t placing_share_from = 64;
  // Tasks engine, virtual timing: a worker whose nodes have all stopped places what no running node can still come
  // before, without waiting for every node to stop (docs/engine.md, "Placing while others run").
  bool placing_early = false;
  // The widest lookahead the placer uses, in µs: no transfer's lead counts for more (docs/engine.md, "Placing in
  // parallel"), so batches, and spread over MPI ranks the rounds' windows, are at most this wide; 0 = the model's own.
  // Narrower windows only place the same transfers in more, smaller batches: the results are the same.
  double placing_lookahead_limit = 0;
  double mpi_timeout_seconds = 60;             // spread over MPI ranks: the longest wait for the others; 0 = forever
  Spread spread;                               // where the nodes run: this process (default), or a session's ranks
  // Where a run counts its nodes whose kernels have returned (Machine::run adds one each, relaxed), for a progress
  // display to read while the run goes on; null: not counted. Not a key: it says nothing of the machine.
  std::atomic<std::uint64_t>* nodes_done = nullptr;
  // Where a run writes the model time up to which the placer has placed transfers (the ready time of the latest it
  // placed, stored relaxed after each pass), for a progress display to set beside the case's predicted time; null:
  // not written. Transfers that cannot contend, which their senders place, and native timing leave it as it is.
  std::atomic<Time>* model_time_placed = nullptr;

  void validate() const;  // throws ConfigError naming the first key out of its range
  // What only the pair can tell: the dimension the engine supports, over spread.ranks() processes.
  void validate_for(const MachineConfig& config) const;
};

}  // namespace hcemu
