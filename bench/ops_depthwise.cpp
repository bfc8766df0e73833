// DEPTHWISE_CONV_2D benchmarks, each timed through a prepared model (Execution::run(request),
// like bench/ops_f32.cpp), on the peers' shapes and conventions (../shared/peers: NHWC, batch 1,
// stride 1, SAME padding, bias, no activation, depth multiplier 1): a 3x3 depthwise layer on
// MobileNet's 112x112x32 stage, float32 and TENSOR_QUANT8_ASYMM. Filter and bias are constants
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
/// padding, stride 1, multiplier 1, no activation. Quantized: input scale 0.02 / zero point 128,
/// filter 0.01 / 120, bias 0.0002, output 0.05 / 128.
nb::OwnedModel depthwise3x3_model(OperandType type, std::uint32_t h, std::uint32_t w, std::uint32_t c) {
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
  const auto stride_w = nb::add_int32_constant(m, 1);
  const auto stride_h = nb::add_int32_constant(m, 1);
  const auto multiplier = nb::add_int32_constant(m, 1);
  const auto act = nb::add_int32_constant(m, 0);
  const auto out = nb::add_operand(m, type, {1, h, w, c}, OperandLifeTime::SUBGRAPH_OUTPUT);
  if (quant) {
    m.main.operands[in].scale = 0.02f, m.main.operands[in].zeroPoint = 128;
    m.main.operands[filter].scale = 0.01f, m.main.operands[filter].zeroPoint = 120;
    m.main.operands[bias].scale = 0.02f * 0.01f;
    m.main.operands[out].scale = 0.05f, m.main.operands[out].zeroPoint = 128;
  }
  nb::add_operation(m, OperationType::DEPTHWISE_CONV_2D, {in, filter, bias, scheme, stride_w, stride_h, multiplier, act},
                    {out});
  m.main.inputIndexes = {in};
  m.main.outputIndexes = {out};
  return om;
}

void run(benchmark::State& state, OperandType type, std::uint32_t h, std::uint32_t w, std::uint32_t c) {
  const auto om = depthwise3x3_model(type, h, w, c);
  nb::OwnedRequest req(om.model);
  if (!nb::run_model_loop(state, om.model, req)) return;
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * h * w * c * 9);
}

void dwconv3x3_f32_112x112x32(benchmark::State& s) { run(s, OperandType::TENSOR_FLOAT32, 112, 112, 32); }
void dwconv3x3_qu8_112x112x32(benchmark::State& s) { run(s, OperandType::TENSOR_QUANT8_ASYMM, 112, 112, 32); }

}  // namespace

BENCHMARK(dwconv3x3_f32_112x112x32);
BENCHMARK(dwconv3x3_qu8_112x112x32);
