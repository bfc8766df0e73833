// CONV_2D benchmarks, timed through a prepared model (Execution::run(request)), single thread,
// on the peers' shapes and conventions (../shared/peers: NHWC, batch 1, stride 1, SAME
// padding, bias, no activation): a 3x3 convolution 56x56x64 -> 64 and a 1x1 convolution
// 56x56x64 -> 128, in FLOAT32, TENSOR_QUANT8_ASYMM (qu8) and TENSOR_QUANT8_ASYMM_SIGNED (qs8);
// and MobileNet v1's other pointwise shapes in qu8 and qs8 and its first layer (3x3 stride 2,
// 224x224x3 -> 32) in f32, qu8 and qs8 (no peer case).
// Filter and bias are CONSTANT_REFERENCE operands (packed once at prepare). Quantization as the
// peers' XNNPACK cases: input scale 0.02, filter 0.01, output 1.0; zero points 128 for qu8 and
// 0 for qs8. Counter FLOPS: 2 * out_h * out_w * out_c * k * k * in_c per run.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "bench_models.hpp"

namespace {

using nnhal::Model;
using nnhal::OperandLifeTime;
using nnhal::OperandType;
using nnhal::OperationType;
namespace nb = nnhal::bench;

/// CONV_2D of a [1, h, w, ic] input of `type` with a [oc, k, k, ic] filter, SAME padding,
/// stride 1, activation NONE.
nb::OwnedModel conv_model(OperandType type, std::uint32_t h, std::uint32_t w, std::uint32_t ic, std::uint32_t oc,
                          std::uint32_t k, std::int32_t stride = 1) {
  nb::OwnedModel om;
  Model& m = om.model;
  const bool is_float = type == OperandType::TENSOR_FLOAT32;
  const std::size_t elem = is_float ? 4 : 1;
  const std::size_t w_count = std::size_t{oc} * k * k * ic;
  const std::size_t w_floats = (w_count * elem + 63) / 64 * 16;  // bias at a 64-byte boundary
  auto pool = std::make_unique<nb::AlignedFloats>(w_floats + oc);
  if (is_float) {
    nb::fill_uniform(pool->span().subspan(0, w_count), -1.0f, 1.0f, 1);
    nb::fill_uniform(pool->span().subspan(w_floats, oc), -1.0f, 1.0f, 2);
  } else {
    std::mt19937 gen(1);
    auto* bytes = reinterpret_cast<std::uint8_t*>(pool->data());
    for (std::size_t i = 0; i < w_count; ++i) bytes[i] = static_cast<std::uint8_t>(gen());
    std::uniform_int_distribution<std::int32_t> dist(-1000, 1000);
    auto* bias = reinterpret_cast<std::int32_t*>(pool->data() + w_floats);
    for (std::uint32_t i = 0; i < oc; ++i) bias[i] = dist(gen);
  }
  m.pools.push_back(pool->memory());
  om.pools.push_back(std::move(pool));

  const std::int32_t zp = type == OperandType::TENSOR_QUANT8_ASYMM ? 128 : 0;
  const auto x = nb::add_operand(m, type, {1, h, w, ic}, OperandLifeTime::SUBGRAPH_INPUT);
  const auto f = nb::add_operand(m, type, {oc, k, k, ic}, OperandLifeTime::CONSTANT_REFERENCE);
  m.main.operands[f].location = {0, 0, static_cast<std::uint32_t>(w_count * elem)};
  const OperandType bias_type = is_float ? OperandType::TENSOR_FLOAT32 : OperandType::TENSOR_INT32;
  const auto b = nb::add_operand(m, bias_type, {oc}, OperandLifeTime::CONSTANT_REFERENCE);
  m.main.operands[b].location = {0, static_cast<std::uint32_t>(w_floats * 4), oc * 4};
  const auto pad = nb::add_int32_constant(m, 1);  // SAME
  const auto sw = nb::add_int32_constant(m, stride), sh = nb::add_int32_constant(m, stride);
  const auto act = nb::add_int32_constant(m, 0);
  const auto st = static_cast<std::uint32_t>(stride);
  const auto y = nb::add_operand(m, type, {1, (h + st - 1) / st, (w + st - 1) / st, oc}, OperandLifeTime::SUBGRAPH_OUTPUT);
  if (!is_float) {
    m.main.operands[x].scale = 0.02f, m.main.operands[x].zeroPoint = zp;
    m.main.operands[f].scale = 0.01f, m.main.operands[f].zeroPoint = zp;
    m.main.operands[b].scale = 0.02f * 0.01f;
    m.main.operands[y].scale = 1.0f, m.main.operands[y].zeroPoint = zp;
  }
  nb::add_operation(m, OperationType::CONV_2D, {x, f, b, pad, sw, sh, act}, {y});
  m.main.inputIndexes = {x};
  m.main.outputIndexes = {y};
  return om;
}

void conv(benchmark::State& state, OperandType type, std::uint32_t k, std::uint32_t oc, std::uint32_t h = 56,
          std::uint32_t w = 56, std::uint32_t ic = 64, std::int32_t stride = 1) {
  const nb::OwnedModel om = conv_model(type, h, w, ic, oc, k, stride);
  nb::OwnedRequest req(om.model);
  if (!nb::run_model_loop(state, om.model, req)) return;
  const auto st = static_cast<std::uint32_t>(stride);
  const double outputs = 1.0 * ((h + st - 1) / st) * ((w + st - 1) / st) * oc;
  state.counters["FLOPS"] = benchmark::Counter(2.0 * outputs * k * k * ic, benchmark::Counter::kIsIterationInvariantRate,
                                               benchmark::Counter::kIs1000);
}

void conv3x3_f32_56x56x64to64(benchmark::State& s) { conv(s, OperandType::TENSOR_FLOAT32, 3, 64); }
void conv1x1_f32_56x56x64to128(benchmark::State& s) { conv(s, OperandType::TENSOR_FLOAT32, 1, 128); }
void conv3x3_qu8_56x56x64to64(benchmark::State& s) { conv(s, OperandType::TENSOR_QUANT8_ASYMM, 3, 64); }
void conv3x3_qs8_56x56x64to64(benchmark::State& s) { conv(s, OperandType::TENSOR_QUANT8_ASYMM_SIGNED, 3, 64); }
void conv1x1_qu8_56x56x64to128(benchmark::State& s) { conv(s, OperandType::TENSOR_QUANT8_ASYMM, 1, 128); }

// MobileNet v1's pointwise shapes (no activation, as the cases above), uint8 and int8.
constexpr OperandType kQu8 = OperandType::TENSOR_QUANT8_ASYMM, kQs8 = OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
void conv1x1_qs8_56x56x64to128(benchmark::State& s) { conv(s, kQs8, 1, 128); }
void conv1x1_qu8_28x28x256to256(benchmark::State& s) { conv(s, kQu8, 1, 256, 28, 28, 256); }
void conv1x1_qs8_28x28x256to256(benchmark::State& s) { conv(s, kQs8, 1, 256, 28, 28, 256); }
void conv1x1_qu8_14x14x512to512(benchmark::State& s) { conv(s, kQu8, 1, 512, 14, 14, 512); }
void conv1x1_qs8_14x14x512to512(benchmark::State& s) { conv(s, kQs8, 1, 512, 14, 14, 512); }
void conv1x1_qu8_7x7x1024to1024(benchmark::State& s) { conv(s, kQu8, 1, 1024, 7, 7, 1024); }
void conv1x1_qs8_7x7x1024to1024(benchmark::State& s) { conv(s, kQs8, 1, 1024, 7, 7, 1024); }
// MobileNet's first layer: 3x3 stride 2, 3 input channels.
void conv3x3s2_f32_224x224x3to32(benchmark::State& s) { conv(s, OperandType::TENSOR_FLOAT32, 3, 32, 224, 224, 3, 2); }
void conv3x3s2_qu8_224x224x3to32(benchmark::State& s) { conv(s, kQu8, 3, 32, 224, 224, 3, 2); }
void conv3x3s2_qs8_224x224x3to32(benchmark::State& s) { conv(s, kQs8, 3, 32, 224, 224, 3, 2); }

}  // namespace

BENCHMARK(conv3x3_f32_56x56x64to64)->Unit(benchmark::kMicrosecond);
BENCHMARK(conv1x1_f32_56x56x64to128)->Unit(benchmark::kMicrosecond);
BENCHMARK(conv3x3_qu8_56x56x64to64)->Unit(benchmark::kMicrosecond);
BENCHMARK(conv3x3_qs8_56x56x64to64)->Unit(benchmark::kMicrosecond);
BENCHMARK(conv1x1_qu8_56x56x64to128)->Unit(benchmark::kMicrosecond);
BENCHMARK(conv1x1_qs8_56x56x64to128)->Unit(benchmark::kMicrosecond);
BENCHMARK(conv1x1_qu8_28x28x256to256)->Unit(benchmark::kMicrosecond);
BENCHMARK(conv1x1_qs8_28x28x256to256)->Unit(benchmark::kMicrosecond);
BENCHMARK(conv1x1_qu8_14x14x512to512)->Unit(benchmark::kMicrosecond);
BENCHMARK(conv1x1_qs8_14x14x512to512)->Unit(benchmark::kMicrosecond);
BENCHMARK(conv1x1_qu8_7x7x1024to1024)->Unit(benchmark::kMicrosecond);
BENCHMARK(conv1x1_qs8_7x7x1024to1024)->Unit(benchmark::kMicrosecond);
BENCHMARK(conv3x3s2_f32_224x224x3to32)->Unit(benchmark::kMicrosecond);
BENCHMARK(conv3x3s2_qu8_224x224x3to32)->Unit(benchmark::kMicrosecond);
BENCHMARK(conv3x3s2_qs8_224x224x3to32)->Unit(benchmark::kMicrosecond);
