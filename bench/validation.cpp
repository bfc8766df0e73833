// Validation of untrusted input at scale: validate_request on a request that omits many inputs.
// The model is n independent TRANSPOSEs, each with its permutation as a main input; the request
// gives every data input and output and omits every permutation (TRANSPOSE's permutation may be
// omitted). Checking that an omitted input may be omitted once took a pass over all operations
// per omitted input (quadratic: 14 s for n = 50,000); the complexity fit printed by Google
// Benchmark (BigO) says whether it is linear.

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "nnhal/validate/model.hpp"
#include "nnhal/validate/request.hpp"

namespace {

using nnhal::Model;
using nnhal::Operand;
using nnhal::OperandLifeTime;
using nnhal::OperandType;

Operand tensor(OperandType type, nnhal::Vector<std::uint32_t> dims, OperandLifeTime lifetime) {
  Operand o;
  o.type = type;
  o.dimensions = std::move(dims);
  o.lifetime = lifetime;
  o.numberOfConsumers = lifetime == OperandLifeTime::SUBGRAPH_OUTPUT ? 0 : 1;
  return o;
}

Model transposes(std::uint32_t n) {
  Model m;
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto base = static_cast<std::uint32_t>(m.main.operands.size());
    m.main.operands.push_back(tensor(OperandType::TENSOR_FLOAT32, {2, 3}, OperandLifeTime::SUBGRAPH_INPUT));
    m.main.operands.push_back(tensor(OperandType::TENSOR_INT32, {2}, OperandLifeTime::SUBGRAPH_INPUT));
    m.main.operands.push_back(tensor(OperandType::TENSOR_FLOAT32, {3, 2}, OperandLifeTime::SUBGRAPH_OUTPUT));
    m.main.operations.push_back(nnhal::Operation{nnhal::OperationType::TRANSPOSE, {base, base + 1}, {base + 2}});
    m.main.inputIndexes.push_back(base);
    m.main.inputIndexes.push_back(base + 1);
    m.main.outputIndexes.push_back(base + 2);
  }
  return m;
}

void BM_validate_request_omitted_inputs(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  const Model model = transposes(n);
  if (!nnhal::validate_model(model)) {
    state.SkipWithError("the model is invalid");
    return;
  }
  std::vector<std::byte> pool(std::size_t{48} * n);
  nnhal::Request request;
  request.pools.push_back(nnhal::RequestMemoryPool{nnhal::Memory{pool.data(), pool.size()}, 0});
  for (std::uint32_t i = 0; i < n; ++i) {
    nnhal::RequestArgument in, omitted, out;
    in.location = {0, 48 * i, 24};
    omitted.hasNoValue = true;
    out.location = {0, 48 * i + 24, 24};
    request.inputs.push_back(in);
    request.inputs.push_back(omitted);
    request.outputs.push_back(out);
  }
  nnhal::detail::RequestScratch scratch;  // as an execution keeps it
  for (auto _ : state) {
    const bool ok = nnhal::validate_request(request, model, {}, &scratch).has_value();
    benchmark::DoNotOptimize(ok);
    if (!ok) state.SkipWithError("the request was refused");
  }
  state.SetComplexityN(n);
  state.counters["arguments"] = static_cast<double>(3 * n);
}
BENCHMARK(BM_validate_request_omitted_inputs)
    ->Name("validate_request_omitted_inputs")
    ->RangeMultiplier(4)
    ->Range(1 << 10, 1 << 16)
    ->Unit(benchmark::kMicrosecond)
    ->Complexity();

}  // namespace
