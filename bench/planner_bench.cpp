// How long planning takes (Bokhari 1993 §4: fast enough to choose the partition at run time).
#include <benchmark/benchmark.h>

#include "hcemu/model/planner.hpp"

namespace {

using namespace hcemu;
using namespace hcemu::model;

ExchangeParams ipsc860_params(int d) {
  ExchangeParams params;
  params.d = d;
  params.lambda = 95;
  params.delta = 10.3;
  params.tau = 0.394;
  params.rho = 0.54;
  return params;
}

MachineConfig ipsc860(int d) {
  MachineConfig config;
  config.d = d;
  config.lambda = 95;
  config.tau = 0.394;
  config.delta_msg = 10.3;
  config.rho = 0.54;
  return config;
}

// Bokhari 1993 §3.5: the hull from its Θ(√d) candidates.
void BM_BuildHull(benchmark::State& state) {
  const ExchangeParams params = ipsc860_params(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(build_hull(params));
}
BENCHMARK(BM_BuildHull)->Arg(13)->Arg(64);

// Θ(log d) binary search of a built hull.
void BM_HullLookup(benchmark::State& state) {
  const Hull hull = build_hull(ipsc860_params(static_cast<int>(state.range(0))));
  double m = 1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(hull.face_at(m));
    m = m < 1e6 ? m * 1.1 : 1;
  }
}
BENCHMARK(BM_HullLookup)->Arg(64);

// Building and searching the hull from scratch for each query: planning at d = 64 in one call.
void BM_PlanFromScratch(benchmark::State& state) {
  const ExchangeParams params = ipsc860_params(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(build_hull(params).face_at(100).partition);
}
BENCHMARK(BM_PlanFromScratch)->Arg(64);

// The emulator's planner on a 13-cube: exact hull (per-message δ) and exact enumeration (per-hop δ).
void BM_OptimalPartitionHull(benchmark::State& state) {
  const MachineConfig config = ipsc860(13);
  for (auto _ : state) benchmark::DoNotOptimize(optimal_partition(config, 100));
}
BENCHMARK(BM_OptimalPartitionHull);

void BM_OptimalPartitionEnumeration(benchmark::State& state) {
  MachineConfig config = ipsc860(13);
  config.delta_msg = 0;
  config.delta_hop = 5.15;
  for (auto _ : state) benchmark::DoNotOptimize(optimal_partition(config, 100));
}
BENCHMARK(BM_OptimalPartitionEnumeration);

}  // namespace
