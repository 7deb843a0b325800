// The runtime's own costs: how fast the host moves messages between node threads (native timing), and how many
// emulated messages per second the virtual-time emulator sustains on an all-to-all.
#include <benchmark/benchmark.h>

#include <vector>

#include "hcemu/hcemu.hpp"

namespace {

using hcemu::Machine;
using hcemu::MachineConfig;
using hcemu::Node;
using hcemu::Request;

// One run = `round_trips` ping-pongs of `bytes` between nodes 0 and 1; reports the one-way latency and the
// bandwidth of the host's thread-to-thread path (native timing: no injected delay).
void BM_NativePingPong(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  constexpr int round_trips = 2000;
  MachineConfig config;
  config.d = 1;
  hcemu::EmulatorSettings settings;
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
  state.counters["one_way_us"] = benchmark::Counter(messages / 1e6, benchmark::Counter::kIsRate |
                                                                         benchmark::Counter::kInvert);
  state.SetBytesProcessed(static_cast<int64_t>(messages * static_cast<double>(bytes)));
}
BENCHMARK(BM_NativePingPong)->Arg(8)->Arg(1024)->Arg(64 << 10)->Arg(1 << 20)->Unit(benchmark::kMillisecond)->UseRealTime();

MachineConfig virtual_machine(int d) {
  MachineConfig config;
  config.d = d;
  config.lambda = 95;
  config.tau = 0.394;
  config.delta_msg = 5.15 * d;
  return config;
}

// All-to-all, one blocking pairwise exchange per step of the XOR schedule.
void BM_VirtualAllToAllBlocking(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0));
  Machine machine(virtual_machine(d));
  std::uint64_t messages = 0;
  for (auto _ : state) {
    const auto report = machine.run([](Node& node) {
      std::vector<std::byte> out(64), in(64);
      for (int k = 1; k < node.size(); ++k) node.exchange(node.id() ^ k, out, in);
    });
    messages += report.messages();
  }
  state.counters["messages_per_second"] = benchmark::Counter(static_cast<double>(messages), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_VirtualAllToAllBlocking)->Arg(8)->Arg(10)->Unit(benchmark::kMillisecond)->UseRealTime();

// All-to-all with every receive posted up front, then all sends, then one wait_all.
void BM_VirtualAllToAllPosted(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0));
  Machine machine(virtual_machine(d));
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
  state.counters["messages_per_second"] = benchmark::Counter(static_cast<double>(messages), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_VirtualAllToAllPosted)->Arg(8)->Arg(10)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
