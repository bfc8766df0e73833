// nnhal_bench entry point: prints the Highway target nnhal's SIMD kernels run on (the one
// simd::chosen() picked for this CPU, among those compiled in) and records it in the
// benchmark context, so JSON reports carry it; then runs the benchmarks.

#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

#include "nnhal/simd/dispatch.hpp"

int main(int argc, char** argv) {
  const nnhal::simd::TargetInfo& chosen = nnhal::simd::chosen();
  const std::string target = chosen.name;
  const std::string lanes = std::to_string(chosen.lanes_f32());
  std::string compiled;
  for (const nnhal::simd::TargetInfo& t : nnhal::simd::compiled_targets())
    compiled += (compiled.empty() ? "" : " ") + std::string(t.name);
  // stderr, like Google Benchmark's own context lines, so --benchmark_format=json on stdout
  // stays valid JSON.
  std::fprintf(stderr, "highway_target: %s (%s float lanes; this CPU runs: %s)\n", target.c_str(),
               lanes.c_str(), compiled.c_str());
  benchmark::AddCustomContext("highway_target", target);
  benchmark::AddCustomContext("highway_f32_lanes", lanes);
  benchmark::AddCustomContext("highway_targets_supported", compiled);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
