#pragma once
// Closed forms of Suh, Shin & An's torus complete exchange (T2, T1.1, T1.x, T1: the family of
// hcemu/model/torus_exchange.hpp), in exact time, and the choice of the best member for a machine and block size.
//
// The paper's model (Suh, Shin & An §2, §3-4, Table 1) charges every step one start-up t_s plus its largest
// message: Σ_steps (t_s + L_k·m·t_c). In the emulator's terms t_s = λ + δ' (λ0 for a zero-byte message) and a
// block of m bytes takes τ·m. torus_exchange_time adds what the emulator also charges and the paper does not:
// δ per hop of the step's longest route (torus_step_hops), ρ for the kernel's local copies, and the barrier Q of
// each step under Sync::barrier (plus a zero-byte exchange per step under Sync::pairwise). With δ = ρ = 0 and
// Sync::none it is the paper's model exactly.
#include <cstddef>
#include <string>
#include <vector>

#include "hcemu/config.hpp"
#include "hcemu/model/sync.hpp"
#include "hcemu/model/torus_exchange.hpp"
#include "hcemu/time.hpp"

namespace hcemu::model {

// The name of member x on a 2^d x 2^d torus: "t2" (x = 0; also T1 for d <= 3), "t1" (x = d - 3 >= 1), "t1.x".
std::string torus_algorithm_name(int d, int x);
// The x of a name: "t1", "t2", "t1.1", "t1.2"...; throws UsageError for another name or an x the torus lacks.
int torus_algorithm_x(int d, const std::string& name);

// Table 1 in our reading: the number of start-ups (steps) and the transmitted volume Σ_steps L_k in blocks.
// Steps: 3x + 3·2^(d-2-x) for d >= 3, 2d for d <= 2. Volume, in units of U = 2^(2d-1) blocks:
// 3·2^(d-2) + 5·2^x - 5 for d >= 3, 2d for d <= 2. T2 (3·2^(3d-3)) and T1.1 (3·2^(3d-3) + 5·2^(2d-1)) are the
// paper's; T1 is the paper's for d = 4, 5 and 11·2^(d-3) - 5 units where the paper's approximation gives
// 9·2^(d-3) + d² - 5d + 3 (d >= 6).
std::size_t torus_startups(int d, int x);
std::size_t torus_volume_blocks(int d, int x);

// The time the torus exchange kernels take (kernels/torus_exchange.hpp), exactly, for every port model and
// switching mode, with per-step synchronisation:
//   2ρ·2^(2d)·m                                  (copy the node's blocks in, gather its result out)
//   + Σ_k [ sync_k + ρ·L_k·m + T_k(L_k·m, h_k) ]  (pack the step's message, then move it)
// where L_k = torus_step_blocks, h_k = torus_step_hops, T_k = pairwise_exchange_time for an exchange step and
// message_time for a one-way step (concentration, send phase), and sync_k is Q(config.d) under Sync::barrier,
// Q(config.d) + pairwise_exchange_time(0 bytes, h_k) under Sync::pairwise, 0 under Sync::none. Under Sync::none
// this is the paper's synchronous model; the emulated run, whose steps overlap, may differ (contention included).
Time torus_exchange_time(const MachineConfig& config, int d, int x, std::size_t m, Sync sync = Sync::none);

// The fastest member for a machine and block size (Suh, Shin & An §5: T1 for small blocks, T1.1 for medium ones,
// T2 for large ones, the crossovers moving to larger blocks as a = t_s/t_c grows).
struct TorusPlan {
  int x = 0;                // the fastest member at this m; among equal times the smaller x (fewer bytes moved)
  std::string name;         // torus_algorithm_name(d, x)
  Time predicted = 0;       // torus_exchange_time of that member
  std::vector<Time> times;  // torus_exchange_time of every member, indexed by x
};

TorusPlan torus_plan(const MachineConfig& config, int d, std::size_t m, Sync sync = Sync::none);

// Where one member gives way to the next as the block size grows.
struct TorusCrossover {
  double m = 0;  // block size in bytes: above it `to_x` is faster than `from_x`
  int from_x = 0;
  int to_x = 0;
};

struct TorusEnvelope {
  std::vector<int> faces;                  // the members fastest somewhere on m >= 0, by increasing m
  std::vector<TorusCrossover> crossovers;  // crossovers[i] is between faces[i] and faces[i + 1]
};

// The lower envelope over m >= 0 of the lines time(m) = A_x + B_x·m, in exact picoseconds taken from
// torus_exchange_time at m = 1 and 2. The lines are the times exactly for m >= 1 when the machine has no packet
// limit (packet = 0); at m = 0 the time has λ0 where the line has λ.
// `candidates` restricts the family to some members (empty: every x); among members equal everywhere, the one
// listed first.
TorusEnvelope torus_envelope(const MachineConfig& config, int d, Sync sync = Sync::none,
                             const std::vector<int>& candidates = {});

}  // namespace hcemu::model
