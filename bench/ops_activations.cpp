// Activations, QUANTIZE / DEQUANTIZE and MAXIMUM / MINIMUM on 64Ki elements (a [1024, 64]
// tensor, 256 KiB of float32), each timed through a prepared model, Execution::run(request),
// like bench/ops_elementwise.cpp. The peers have no cases for these operations, so the names are
// nnhal's own: <op>_<type>_64k. Float inputs are uniform in [-8, 8] (both sides of every
// activation's knee), 8-bit inputs uniform random bytes. Quantization: inputs scale 1/16 zero
// point 128 (qu8) or 0 (qs8); LOGISTIC / TANH outputs have the fixed scale NNAPI requires; the
// other quantized outputs keep the input's. Counters: bytes_per_second (inputs read + output
// written) and items_per_second (output elements).

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "bench_models.hpp"

namespace {

using nnhal::OperandLifeTime;
using nnhal::OperandType;
using nnhal::OperationType;
namespace nb = nnhal::bench;

constexpr std::uint32_t kRows = 1024, kCols = 64;
constexpr std::int64_t kElements = std::int64_t{kRows} * kCols;
constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto QU8 = OperandType::TENSOR_QUANT8_ASYMM;
constexpr auto QS8 = OperandType::TENSOR_QUANT8_ASYMM_SIGNED;

bool quantized(OperandType t) { return t == QU8 || t == QS8; }
std::int64_t bytes_of(OperandType t) { return quantized(t) ? 1 : 4; }

/// The benchmarks' input quantization of type t (none for float).
nb::Quant input_quant(OperandType t) {
  if (t == QU8) return {1.0f / 16, 128};
  if (t == QS8) return {1.0f / 16, 0};
  return {};
}

/// Appends a tensor operand with quantization q.
std::uint32_t tensor(nnhal::Model& m, OperandType type, nnhal::Vector<std::uint32_t> dims, OperandLifeTime life,
                     nb::Quant q) {
  const auto index = nb::add_operand(m, type, std::move(dims), life);
  m.main.operands[index].scale = q.scale;
  m.main.operands[index].zeroPoint = q.zero_point;
  return index;
}

/// Runs `om` with float inputs refilled in [-8, 8].
void run(benchmark::State& state, const nb::OwnedModel& om, std::int64_t bytes) {
  nb::OwnedRequest req(om.model);
  for (std::size_t i = 0; i < om.model.main.inputIndexes.size(); ++i) {
    const auto& operand = om.model.main.operands[om.model.main.inputIndexes[i]];
    if (operand.type == F32)
      nb::fill_uniform(req.pool(i).span().subspan(0, nb::element_count(operand.dimensions)), -8.0f, 8.0f,
                       static_cast<std::uint32_t>(100 + i));
  }
  if (!nb::run_model_loop(state, om.model, req)) return;
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * kElements);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * bytes);
}

/// y = op(x) on [kRows, kCols]: input type `in`, output type `out` with quantization `qout`.
void unary(benchmark::State& state, OperationType op, OperandType in, OperandType out, nb::Quant qout) {
  nb::OwnedModel om;
  nnhal::Model& m = om.model;
  const auto x = tensor(m, in, {kRows, kCols}, OperandLifeTime::SUBGRAPH_INPUT, input_quant(in));
  nnhal::Vector<std::uint32_t> inputs{x};
  if (op == OperationType::ELU) inputs.push_back(nb::add_float32_constant(m, 1.0f));
  const auto y = tensor(m, out, {kRows, kCols}, OperandLifeTime::SUBGRAPH_OUTPUT, qout);
  nb::add_operation(m, op, inputs, {y});
  m.main.inputIndexes = {x};
  m.main.outputIndexes = {y};
  run(state, om, kElements * (bytes_of(in) + bytes_of(out)));
}

/// A same-type activation whose output keeps the input's quantization.
void activation(benchmark::State& state, OperationType op, OperandType t) {
  unary(state, op, t, t, input_quant(t));
}

/// LOGISTIC or TANH with the output quantization NNAPI fixes.
void sigmoid_like(benchmark::State& state, OperationType op, OperandType t) {
  nb::Quant q;
  if (quantized(t)) {
    const bool tanh = op == OperationType::TANH;
    q.scale = tanh ? 1.0f / 128 : 1.0f / 256;
    q.zero_point = t == QS8 ? (tanh ? 0 : -128) : (tanh ? 128 : 0);
  }
  unary(state, op, t, t, q);
}

/// out = op(a, b) of type t: b has shape [kRows, kCols] (same shape), [kCols] (`alpha_row`,
/// repeated along the rows) or [1] (a scalar), and is a model input.
enum class Second { kSame, kRow, kScalar };
void binary(benchmark::State& state, OperationType op, OperandType t, Second second) {
  nb::OwnedModel om;
  nnhal::Model& m = om.model;
  const nb::Quant q = input_quant(t);
  const auto a = tensor(m, t, {kRows, kCols}, OperandLifeTime::SUBGRAPH_INPUT, q);
  nnhal::Vector<std::uint32_t> b_dims{kRows, kCols};
  if (second == Second::kRow) b_dims = {kCols};
  if (second == Second::kScalar) b_dims = {1};
  const std::int64_t b_count = second == Second::kSame ? kElements : second == Second::kRow ? kCols : 1;
  const auto b = tensor(m, t, b_dims, OperandLifeTime::SUBGRAPH_INPUT, q);
  const auto o = tensor(m, t, {kRows, kCols}, OperandLifeTime::SUBGRAPH_OUTPUT, q);
  nb::add_operation(m, op, {a, b}, {o});
  m.main.inputIndexes = {a, b};
  m.main.outputIndexes = {o};
  run(state, om, (2 * kElements + b_count) * bytes_of(t));
}

void relu_f32_64k(benchmark::State& s) { activation(s, OperationType::RELU, F32); }
void relu6_f32_64k(benchmark::State& s) { activation(s, OperationType::RELU6, F32); }
void logistic_f32_64k(benchmark::State& s) { sigmoid_like(s, OperationType::LOGISTIC, F32); }
void tanh_f32_64k(benchmark::State& s) { sigmoid_like(s, OperationType::TANH, F32); }
void elu_f32_64k(benchmark::State& s) { activation(s, OperationType::ELU, F32); }
void hard_swish_f32_64k(benchmark::State& s) { activation(s, OperationType::HARD_SWISH, F32); }
void prelu_f32_64k(benchmark::State& s) { binary(s, OperationType::PRELU, F32, Second::kRow); }
void maximum_f32_64k(benchmark::State& s) { binary(s, OperationType::MAXIMUM, F32, Second::kSame); }
void minimum_f32_scalar_64k(benchmark::State& s) { binary(s, OperationType::MINIMUM, F32, Second::kScalar); }
void quantize_qu8_64k(benchmark::State& s) { unary(s, OperationType::QUANTIZE, F32, QU8, input_quant(QU8)); }
void quantize_qs8_64k(benchmark::State& s) { unary(s, OperationType::QUANTIZE, F32, QS8, input_quant(QS8)); }
void dequantize_qu8_64k(benchmark::State& s) { unary(s, OperationType::DEQUANTIZE, QU8, F32, {}); }
void dequantize_qs8_64k(benchmark::State& s) { unary(s, OperationType::DEQUANTIZE, QS8, F32, {}); }
void relu6_qu8_64k(benchmark::State& s) { activation(s, OperationType::RELU6, QU8); }
void logistic_qu8_64k(benchmark::State& s) { sigmoid_like(s, OperationType::LOGISTIC, QU8); }
void logistic_qs8_64k(benchmark::State& s) { sigmoid_like(s, OperationType::LOGISTIC, QS8); }
void tanh_qu8_64k(benchmark::State& s) { sigmoid_like(s, OperationType::TANH, QU8); }
void hard_swish_qs8_64k(benchmark::State& s) { activation(s, OperationType::HARD_SWISH, QS8); }
void maximum_qu8_64k(benchmark::State& s) { binary(s, OperationType::MAXIMUM, QU8, Second::kSame); }

}  // namespace

BENCHMARK(relu_f32_64k);
BENCHMARK(relu6_f32_64k);
BENCHMARK(logistic_f32_64k);
BENCHMARK(tanh_f32_64k);
BENCHMARK(elu_f32_64k);
BENCHMARK(hard_swish_f32_64k);
BENCHMARK(prelu_f32_64k);
BENCHMARK(maximum_f32_64k);
BENCHMARK(minimum_f32_scalar_64k);
BENCHMARK(quantize_qu8_64k);
BENCHMARK(quantize_qs8_64k);
BENCHMARK(dequantize_qu8_64k);
BENCHMARK(dequantize_qs8_64k);
BENCHMARK(relu6_qu8_64k);
BENCHMARK(logistic_qu8_64k);
BENCHMARK(logistic_qs8_64k);
BENCHMARK(tanh_qu8_64k);
BENCHMARK(hard_swish_qs8_64k);
BENCHMARK(maximum_qu8_64k);
