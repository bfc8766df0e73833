// DEPTHWISE_CONV_2D benchmarks, each timed through a prepared model (Execution::run(request),
// like bench/ops_f32.cpp), on the peers' shapes and conventions (../shared/peers: NHWC, batch 1,
// stride 1, SAME padding, bias, no activation, depth multiplier 1): a 3x3 depthwise layer on
// MobileNet's 112x112x32 stage, float32 and TENSOR_QUANT8_ASYMM; and MobileNet v1's 8-bit
// depthwise layers (strides 1 and 2, RELU6, uint8 and int8; no peer case). Filter and bias are constants
// (CONSTANT_REFERENCE in one pool), the input is the model input. items_per_second counts
// multiply-adds (out_h * out_w * channels * 9 per run, padding taps included, as the peers count).

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

/// DEPTHWISE_CONV_2D of a [1, h, w, c] input of `type` with a 3x3 filter, implicit SAME
/// padding, stride `stride`, multiplier 1, activation `act` (0: none, 3: RELU6). Quantized
/// uint8: input scale 0.02 / zero point 128, filter 0.01 / 120, bias 0.0002, output 0.05 / 128;
/// int8: the same scales, zero points 0 (input, filter) and -1 (output).
nb::OwnedModel depthwise3x3_model(OperandType type, std::uint32_t h, std::uint32_t w, std::uint32_t c,
                                  std::int32_t stride = 1, std::int32_t act = 0) {
  const bool quant = type != OperandType::TENSOR_FLOAT32;
  nb::OwnedModel om;
  Model& m = om.model;
  const std::size_t filter_bytes = std::size_t{9} * c * (quant ? 1 : 4);
  const std::size_t bias_offset = (filter_bytes + 63) / 64 * 64;
  auto pool = std::make_unique<nb::AlignedFloats>((bias_offset + std::size_t{4} * c) / 4 + 16);
  auto* bytes = reinterpret_cast<unsigned char*>(pool->data());
  std::mt19937 gen(3);
  if (quant) {
    for (std::size_t i = 0; i < filter_bytes; ++i) bytes[i] = static_cast<unsigned char>(gen() & 0xff);
    for (std::size_t i = 0; i < c; ++i) {
      const std::int32_t b = static_cast<std::int32_t>(gen() % 2001) - 1000;
      std::memcpy(bytes + bias_offset + 4 * i, &b, 4);
    }
  } else {
    nb::fill_uniform(pool->span().subspan(0, 9 * std::size_t{c}), -1.0f, 1.0f, 1);
    nb::fill_uniform(pool->span().subspan(bias_offset / 4, c), -1.0f, 1.0f, 2);
  }
  m.pools.push_back(pool->memory());
  om.pools.push_back(std::move(pool));

  const auto in = nb::add_operand(m, type, {1, h, w, c}, OperandLifeTime::SUBGRAPH_INPUT);
  const auto filter = nb::add_operand(m, type, {1, 3, 3, c}, OperandLifeTime::CONSTANT_REFERENCE);
  m.main.operands[filter].location = {0, 0, static_cast<std::uint32_t>(filter_bytes)};
  const auto bias = nb::add_operand(m, quant ? OperandType::TENSOR_INT32 : type, {c}, OperandLifeTime::CONSTANT_REFERENCE);
  m.main.operands[bias].location = {0, static_cast<std::uint32_t>(bias_offset), 4 * c};
  const auto scheme = nb::add_int32_constant(m, 1);  // SAME
  const auto stride_w = nb::add_int32_constant(m, stride);
  const auto stride_h = nb::add_int32_constant(m, stride);
  const auto multiplier = nb::add_int32_constant(m, 1);
  const auto fuse = nb::add_int32_constant(m, act);
  const auto s = static_cast<std::uint32_t>(stride);
  const auto out = nb::add_operand(m, type, {1, (h + s - 1) / s, (w + s - 1) / s, c}, OperandLifeTime::SUBGRAPH_OUTPUT);
  if (quant) {
    const bool u8 = type == OperandType::TENSOR_QUANT8_ASYMM;
    m.main.operands[in].scale = 0.02f, m.main.operands[in].zeroPoint = u8 ? 128 : 0;
    m.main.operands[filter].scale = 0.01f, m.main.operands[filter].zeroPoint = u8 ? 120 : 0;
    m.main.operands[bias].scale = 0.02f * 0.01f;
    m.main.operands[out].scale = 0.05f, m.main.operands[out].zeroPoint = u8 ? 128 : -1;
  }
  nb::add_operation(m, OperationType::DEPTHWISE_CONV_2D, {in, filter, bias, scheme, stride_w, stride_h, multiplier, fuse},
                    {out});
  m.main.inputIndexes = {in};
  m.main.outputIndexes = {out};
  return om;
}

void run(benchmark::State& state, OperandType type, std::uint32_t h, std::uint32_t w, std::uint32_t c,
         std::int32_t stride = 1, std::int32_t act = 0) {
  const auto om = depthwise3x3_model(type, h, w, c, stride, act);
  nb::OwnedRequest req(om.model);
  if (!nb::run_model_loop(state, om.model, req)) return;
  const auto s = static_cast<std::uint32_t>(stride);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * ((h + s - 1) / s) * ((w + s - 1) / s) * c * 9);
}

void dwconv3x3_f32_112x112x32(benchmark::State& s) { run(s, OperandType::TENSOR_FLOAT32, 112, 112, 32); }
void dwconv3x3_qu8_112x112x32(benchmark::State& s) { run(s, OperandType::TENSOR_QUANT8_ASYMM, 112, 112, 32); }

// MobileNet v1's depthwise layers (RELU6), uint8 and int8: input shape, stride.
constexpr OperandType kQu8 = OperandType::TENSOR_QUANT8_ASYMM, kQs8 = OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
#define NNHAL_DW_MOBILENET(T, TYPE)                                                                            \
  void dwconv3x3_##T##_relu6_112x112x32(benchmark::State& s) { run(s, TYPE, 112, 112, 32, 1, 3); }          \
  void dwconv3x3s2_##T##_relu6_112x112x64(benchmark::State& s) { run(s, TYPE, 112, 112, 64, 2, 3); }        \
  void dwconv3x3_##T##_relu6_56x56x128(benchmark::State& s) { run(s, TYPE, 56, 56, 128, 1, 3); }            \
  void dwconv3x3s2_##T##_relu6_56x56x128(benchmark::State& s) { run(s, TYPE, 56, 56, 128, 2, 3); }          \
  void dwconv3x3_##T##_relu6_28x28x256(benchmark::State& s) { run(s, TYPE, 28, 28, 256, 1, 3); }            \
  void dwconv3x3s2_##T##_relu6_28x28x256(benchmark::State& s) { run(s, TYPE, 28, 28, 256, 2, 3); }          \
  void dwconv3x3_##T##_relu6_14x14x512(benchmark::State& s) { run(s, TYPE, 14, 14, 512, 1, 3); }            \
  void dwconv3x3s2_##T##_relu6_14x14x512(benchmark::State& s) { run(s, TYPE, 14, 14, 512, 2, 3); }          \
  void dwconv3x3_##T##_relu6_7x7x1024(benchmark::State& s) { run(s, TYPE, 7, 7, 1024, 1, 3); }
NNHAL_DW_MOBILENET(qu8, kQu8)
NNHAL_DW_MOBILENET(qs8, kQs8)
#undef NNHAL_DW_MOBILENET

}  // namespace

BENCHMARK(dwconv3x3_f32_112x112x32);
BENCHMARK(dwconv3x3_qu8_112x112x32);
#define NNHAL_DW_MOBILENET(T)                                                                                 \
  BENCHMARK(dwconv3x3_##T##_relu6_112x112x32)->Unit(benchmark::kMicrosecond);                                \
  BENCHMARK(dwconv3x3s2_##T##_relu6_112x112x64)->Unit(benchmark::kMicrosecond);                              \
  BENCHMARK(dwconv3x3_##T##_relu6_56x56x128)->Unit(benchmark::kMicrosecond);                                 \
  BENCHMARK(dwconv3x3s2_##T##_relu6_56x56x128)->Unit(benchmark::kMicrosecond);                               \
  BENCHMARK(dwconv3x3_##T##_relu6_28x28x256)->Unit(benchmark::kMicrosecond);                                 \
  BENCHMARK(dwconv3x3s2_##T##_relu6_28x28x256)->Unit(benchmark::kMicrosecond);                               \
  BENCHMARK(dwconv3x3_##T##_relu6_14x14x512)->Unit(benchmark::kMicrosecond);                                 \
  BENCHMARK(dwconv3x3s2_##T##_relu6_14x14x512)->Unit(benchmark::kMicrosecond);                               \
  BENCHMARK(dwconv3x3_##T##_relu6_7x7x1024)->Unit(benchmark::kMicrosecond);
NNHAL_DW_MOBILENET(qu8)
NNHAL_DW_MOBILENET(qs8)
#undef NNHAL_DW_MOBILENET
