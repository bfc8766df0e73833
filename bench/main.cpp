// nnhal_bench entry point: prints the Highway target the benchmarks were compiled for (and
// records it in the benchmark context, so JSON reports carry it), then runs the benchmarks.

#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

#include "nnhal/simd/target.hpp"

int main(int argc, char** argv) {
  const std::string target = nnhal::simd::target_name();
  const std::string lanes = std::to_string(nnhal::simd::lanes_f32());
  // stderr, like Google Benchmark's own context lines, so --benchmark_format=json on stdout
  // stays valid JSON.
  std::fprintf(stderr, "highway_target: %s (%s float lanes)\n", target.c_str(), lanes.c_str());
  benchmark::AddCustomContext("highway_target", target);
  benchmark::AddCustomContext("highway_f32_lanes", lanes);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
