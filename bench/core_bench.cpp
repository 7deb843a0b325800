// The runtime's own costs: how fast the host moves messages between node threads (native timing), how many
// emulated messages per second the virtual-time emulator sustains on the Direct exchange on either engine, what the
// model-time ordering of transfers costs, and how long a trivial run takes from start to end.
//
//   build-release/bench/core_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "hcemu/hcemu.hpp"
#include "hcemu/kernels/exchange.hpp"

namespace {

using hcemu::EmulatorSettings;
using hcemu::EngineKind;
using hcemu::Machine;
using hcemu::MachineConfig;
using hcemu::Node;
using hcemu::Ports;
using hcemu::Request;
using hcemu::RunReport;

hcemu::EmulatorSettings on(EngineKind engine) {
  hcemu::EmulatorSettings s;
  s.engine = engine;
  return s;
}

EngineKind engine_of(const benchmark::State& state) {
  return state.range(1) == 0 ? EngineKind::tasks : EngineKind::os_threads;
}

// One run = `round_trips` ping-pongs of `bytes` between nodes 0 and 1; reports the one-way latency and the
// bandwidth of the host's thread-to-thread path (native timing: no injected delay).
void BM_NativePingPong(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  constexpr int round_trips = 2000;
  MachineConfig config;
  config.d = 1;
  hcemu::EmulatorSettings settings = on(engine_of(state));
  settings.timing = hcemu::Timing::native;
  Machine machine(config, settings);
  for (auto _ : state) {
    machine.run([bytes](Node& node) {
      std::vector<std::byte> buf(bytes);
      const int peer = node.neighbor(0);
      for (int i = 0; i < round_trips; ++i) {
        if (node.id() == 0) {
          node.send(peer, buf);
          node.recv(peer, buf);
        } else {
          node.recv(peer, buf);
          node.send(peer, buf);
        }
      }
    });
  }
  const auto messages = static_cast<double>(state.iterations()) * 2 * round_trips;
  state.counters["one_way_us"] =
      benchmark::Counter(messages / 1e6, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.SetBytesProcessed(static_cast<int64_t>(messages * static_cast<double>(bytes)));
}
BENCHMARK(BM_NativePingPong)
    ->ArgsProduct({{8, 64 << 10, 1 << 20}, {0, 1}})
    ->ArgNames({"bytes", "os_threads"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The iPSC/860-like machine of the issue that set the engine's targets: λ = 95 µs, τ = 0.394 µs/byte.
MachineConfig ipsc(int d) {
  MachineConfig config;
  config.d = d;
  config.lambda = 95;
  config.tau = 0.394;
  return config;
}

void count_messages(benchmark::State& state, std::uint64_t messages) {
  state.counters["messages_per_second"] = benchmark::Counter(static_cast<double>(messages), benchmark::Counter::kIsRate);
}

// The Direct exchange (XOR schedule) as a kernel is usually written: one blocking pairwise exchange per step.
void BM_DirectExchangeWaitPerStep(benchmark::State& state) {
  Machine machine(ipsc(static_cast<int>(state.range(0))), on(engine_of(state)));
  std::uint64_t messages = 0;
  for (auto _ : state) {
    const auto report = machine.run([](Node& node) {
      std::vector<std::byte> out(64), in(64);
      for (int k = 1; k < node.size(); ++k) node.exchange(node.id() ^ k, out, in);
    });
    messages += report.messages();
  }
  count_messages(state, messages);
}
BENCHMARK(BM_DirectExchangeWaitPerStep)
    ->ArgsProduct({{8, 10, 12}, {0}})
    ->ArgsProduct({{8, 10}, {1}})
    ->ArgNames({"d", "os_threads"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The library's Direct exchange (hcemu::kernels::direct_exchange), which `hcemu run exchange --algo direct` runs:
// every receive of the phase posted up front (in one group, Node::post_recvs) and a barrier, as FORCED needs (Nicol &
// Bokhari 1994 §4), then per step one send (without a handle) and a wait for that step's receive, and one wait_sends
// at the end.
void library_direct_exchange(Node& node) {
  const std::size_t bytes = 64 * static_cast<std::size_t>(node.size());
  auto out = node.allocate<std::byte>(bytes);
  auto in = node.allocate<std::byte>(bytes);
  hcemu::kernels::direct_exchange(node, out.span(), in.span(), 64, {hcemu::Sync::barrier});
}

void BM_DirectExchangeKernel(benchmark::State& state) {
  Machine machine(ipsc(static_cast<int>(state.range(0))), on(engine_of(state)));
  std::uint64_t messages = 0;
  for (auto _ : state) messages += machine.run(library_direct_exchange).messages();
  count_messages(state, messages);
}
BENCHMARK(BM_DirectExchangeKernel)
    ->ArgsProduct({{8, 10, 12}, {0}})
    ->ArgsProduct({{8, 10}, {1}})
    ->ArgNames({"d", "os_threads"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The same kernel on k:N ports (k = 1: one port), side by side: a sender waits for its transfers to be placed only to
// learn which channel frees first, and a transfer has no lead only where its sender waits so (docs/engine.md,
// "Placing in parallel"). With the placer's batches and passes per run beside the time.
void BM_DirectExchangeOnKPorts(benchmark::State& state) {
  MachineConfig config = ipsc(static_cast<int>(state.range(0)));
  const auto k = state.range(1);
  config.ports = Ports::parse(k == 1 ? "one" : "k:" + std::to_string(k));
  EmulatorSettings settings;
  settings.engine_stats = true;
  Machine machine(config, settings);
  std::uint64_t messages = 0, batches = 0, passes = 0, runs = 0;
  for (auto _ : state) {
    const RunReport report = machine.run(library_direct_exchange);
    messages += report.messages();
    batches += report.engine_stats->batches;
    passes += report.engine_stats->placement_passes;
    ++runs;
  }
  count_messages(state, messages);
  state.counters["batches"] = static_cast<double>(batches) / static_cast<double>(runs);
  state.counters["passes"] = static_cast<double>(passes) / static_cast<double>(runs);
}
BENCHMARK(BM_DirectExchangeOnKPorts)
    ->ArgsProduct({{10}, {1, 2, 4}})
    ->ArgNames({"d", "k"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The same kernel with placing shared among the workers (`shared`: placing_share_from at its default) or done by the
// placer alone (docs/engine.md, "Placing in parallel"), side by side for each worker count, with the engine's own
// serial fraction (EngineStats::serial_fraction, averaged over the runs) beside the time: on a machine with fewer
// cores than workers the wall-clock cannot show how the placing would scale, the serial fraction can.
void BM_SharedPlacing(benchmark::State& state) {
  EmulatorSettings settings;
  settings.engine = EngineKind::tasks;
  settings.workers = static_cast<int>(state.range(1));
  settings.placing_share_from = state.range(2) != 0 ? EmulatorSettings{}.placing_share_from : 0;
  settings.engine_stats = true;
  Machine machine(ipsc(static_cast<int>(state.range(0))), settings);
  std::uint64_t messages = 0, runs = 0;
  double serial = 0;
  for (auto _ : state) {
    const auto report = machine.run(library_direct_exchange);
    messages += report.messages();
    serial += report.engine_stats->serial_fraction();
    ++runs;
  }
  count_messages(state, messages);
  state.counters["serial_fraction"] = runs > 0 ? serial / static_cast<double>(runs) : 0.0;
}
BENCHMARK(BM_SharedPlacing)
    ->ArgsProduct({{10, 12}, {1, 2, 4, 8, 16}, {0, 1}})
    ->ArgNames({"d", "workers", "shared"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The same kernel placing once every node has stopped, or also while other workers run (`early`: placing_early;
// docs/engine.md, "Placing while others run"), side by side for each worker count, with the share of the passes that
// were early and the serial fraction. On the 2-core development machine early placing is slower; this is the row to
// run on a machine with many cores.
void BM_EarlyPlacing(benchmark::State& state) {
  EmulatorSettings settings;
  settings.engine = EngineKind::tasks;
  settings.workers = static_cast<int>(state.range(1));
  settings.placing_early = state.range(2) != 0;
  settings.engine_stats = true;
  Machine machine(ipsc(static_cast<int>(state.range(0))), settings);
  std::uint64_t messages = 0, runs = 0, passes = 0, early = 0;
  double serial = 0;
  for (auto _ : state) {
    const auto report = machine.run(library_direct_exchange);
    messages += report.messages();
    serial += report.engine_stats->serial_fraction();
    passes += report.engine_stats->placement_passes;
    early += report.engine_stats->early_passes;
    ++runs;
  }
  count_messages(state, messages);
  state.counters["serial_fraction"] = runs > 0 ? serial / static_cast<double>(runs) : 0.0;
  state.counters["early_share"] = passes > 0 ? static_cast<double>(early) / static_cast<double>(passes) : 0.0;
}
BENCHMARK(BM_EarlyPlacing)
    ->ArgsProduct({{10, 12}, {2, 4, 8, 16}, {0, 1}})
    ->ArgNames({"d", "workers", "early"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The same exchange with every receive posted up front, then every send, then one wait_all. On n-port nodes
// (`all_port`) every send is placed at once, so each link holds a queue of hundreds of bookings back to back, and
// each new one on it is placed after all of them: how the placing scales with a long queue per link.
void BM_DirectExchangePostedUpFront(benchmark::State& state) {
  MachineConfig config = ipsc(static_cast<int>(state.range(0)));
  if (state.range(2) != 0) config.ports.kind = hcemu::Ports::Kind::all;
  Machine machine(config, on(engine_of(state)));
  std::uint64_t messages = 0;
  for (auto _ : state) {
    const auto report = machine.run([](Node& node) {
      const auto n = static_cast<std::size_t>(node.size());
      auto in = node.allocate<std::byte>(64 * n);
      auto out = node.allocate<std::byte>(64 * n);
      std::vector<Request> requests;
      requests.reserve(2 * n);
      for (int k = 1; k < node.size(); ++k)
        requests.push_back(node.post_recv(node.id() ^ k, in.span().subspan(64 * static_cast<std::size_t>(k), 64)));
      for (int k = 1; k < node.size(); ++k)
        requests.push_back(node.isend(node.id() ^ k, out.span().subspan(64 * static_cast<std::size_t>(k), 64)));
      node.wait_all(requests);
    });
    messages += report.messages();
  }
  count_messages(state, messages);
}
BENCHMARK(BM_DirectExchangePostedUpFront)
    ->ArgsProduct({{8, 10, 12}, {0}, {0}})
    ->ArgsProduct({{8, 10}, {1}, {0}})
    ->ArgsProduct({{8, 10}, {0}, {1}})
    ->ArgNames({"d", "os_threads", "all_port"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// What the model-time ordering costs: d^2 rounds of pairwise exchanges with the neighbour across one dimension.
// Across dimension 0 a link has one possible sender, so a transfer is placed as it is issued; across dimension d - 1
// routes of other nodes may pass, so every transfer waits for its turn in the coordinator's queue. Both move the
// same messages over one hop in the same model time.
void BM_OrderingCost(benchmark::State& state) {
  const int d = 8;
  const int dim = state.range(0) == 0 ? 0 : d - 1;
  Machine machine(ipsc(d));
  std::uint64_t messages = 0;
  for (auto _ : state) {
    const auto report = machine.run([dim](Node& node) {
      std::vector<std::byte> out(64), in(64);
      for (int r = 0; r < 64; ++r) node.exchange(node.neighbor(dim), out, in);
    });
    messages += report.messages();
  }
  count_messages(state, messages);
}
BENCHMARK(BM_OrderingCost)->Arg(0)->Arg(1)->ArgName("queued")->Unit(benchmark::kMillisecond)->UseRealTime();

// A contended kernel: every node sends 4 messages to its bit reversal, routes crossing on shared links.
void BM_ContendedBitReversal(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0));
  Machine machine(ipsc(d));
  std::uint64_t messages = 0, events = 0;
  for (auto _ : state) {
    const auto report = machine.run([d](Node& node) {
      int partner = 0;
      for (int k = 0; k < d; ++k)
        if ((node.id() >> k) & 1) partner |= 1 << (d - 1 - k);
      std::vector<std::byte> out(256), in(4 * 256);
      std::vector<Request> r;
      for (int i = 0; i < 4; ++i) r.push_back(node.post_recv(partner, std::span(in).subspan(256 * static_cast<std::size_t>(i), 256), i));
      for (int i = 0; i < 4; ++i) r.push_back(node.isend(partner, out, i));
      node.wait_all(r);
    });
    messages += report.messages();
    events = report.contention_events();
  }
  count_messages(state, messages);
  state.counters["contention_events"] = static_cast<double>(events);
}
BENCHMARK(BM_ContendedBitReversal)->Arg(8)->Arg(10)->ArgName("d")->Unit(benchmark::kMillisecond)->UseRealTime();

// A trivial kernel (one pairwise exchange): the cost of a run from start to end, on a machine made once.
void BM_TrivialRun(benchmark::State& state) {
  hcemu::EmulatorSettings settings = on(engine_of(state));
  settings.stack_bytes = 64 << 10;
  settings.arena_bytes = 1 << 16;
  Machine machine(ipsc(static_cast<int>(state.range(0))), settings);
  for (auto _ : state) {
    machine.run([](Node& node) {
      std::array<std::byte, 8> out{}, in{};
      node.exchange(node.neighbor(0), out, in);
    });
  }
}
BENCHMARK(BM_TrivialRun)
    ->ArgsProduct({{6, 13, 16}, {0}})
    ->ArgsProduct({{6, 13}, {1}})
    ->ArgNames({"d", "os_threads"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The same on a fresh machine every time, as a sweep that makes one machine per case does.
void BM_TrivialRunFreshMachine(benchmark::State& state) {
  hcemu::EmulatorSettings settings;
  settings.stack_bytes = 64 << 10;
  settings.arena_bytes = 1 << 16;
  for (auto _ : state) {
    Machine machine(ipsc(static_cast<int>(state.range(0))), settings);
    machine.run([](Node& node) {
      std::array<std::byte, 8> out{}, in{};
      node.exchange(node.neighbor(0), out, in);
    });
  }
}
BENCHMARK(BM_TrivialRunFreshMachine)->Arg(6)->Arg(13)->ArgName("d")->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
