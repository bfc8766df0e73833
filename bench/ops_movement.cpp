// Data-movement and reduction benchmarks: TRANSPOSE, PAD, GATHER, REDUCE_SUM / REDUCE_MAX and
// MEAN, each timed through a prepared model (Execution::run(request), like bench/ops_f32.cpp).
// These operations do next to no arithmetic, so what matters is the memory bandwidth they
// reach: bytes_per_second counts the bytes the operation must read and write (its input, or the
// part of it an output element needs, plus its output; constant operands such as indices and
// permutations are counted too). The peers have no cases for these operations.
//
// To print the share of the machine's memory roof, set NNHAL_BENCH_ROOF to the roof line of
// `../shared/peers/peers --impl limit` ("... GB/s: L1=250.4 L2=159.5 L3=74.0 DRAM=25.5"): each
// case then reports roof_gbps (the level its working set fits in, with the peers' thresholds:
// 32 KiB, 512 KiB, 24 MiB) and roof_pct.
//
// Shapes: 1x112x112x64 float32 is MobileNet's 112x112 stage with 64 channels (3.2 MB, an
// L3-sized activation): the NHWC -> NCHW transpose a layout change needs, and a PAD of 1 on H
// and W, the explicit padding graphs put in front of a 3x3 convolution (TensorFlow's SAME
// padding of stride-2 convolutions and every "pad then VALID conv" export). GATHER: an
// embedding lookup (4096 rows of a [8192, 256] table, 1 KiB per row, random indices) and a
// gather along the innermost axis (all 64 channels of the 112x112x64 tensor in reversed
// order, one element per index). Reductions over the last axis: per pixel over 64 channels,
// and a [1024, 1024] matrix's rows.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bench_models.hpp"

namespace {

using nnhal::Model;
using nnhal::OperandType;
using nnhal::OperationType;
namespace nb = nnhal::bench;

constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto QU8 = OperandType::TENSOR_QUANT8_ASYMM;
constexpr auto I32 = OperandType::TENSOR_INT32;

/// The memory roof (GB/s) of a working set of `bytes` from NNHAL_BENCH_ROOF, or 0.
double roof_gbps(double bytes) {
  const char* env = std::getenv("NNHAL_BENCH_ROOF");
  if (env == nullptr) return 0.0;
  const char* level = bytes <= 32.0 * 1024 ? "L1=" : bytes <= 512.0 * 1024 ? "L2=" : bytes <= 24.0 * 1024 * 1024 ? "L3=" : "DRAM=";
  const char* at = std::strstr(env, level);
  return at == nullptr ? 0.0 : std::strtod(at + std::strlen(level), nullptr);
}

/// Runs `om` and reports `bytes` moved per run (and the roof share when known); `working_set`
/// is the bytes the run touches (for the roof level).
void run(benchmark::State& state, const nb::OwnedModel& om, double bytes, double working_set) {
  nb::OwnedRequest req(om.model);
  if (!nb::run_model_loop(state, om.model, req)) return;
  state.SetBytesProcessed(static_cast<std::int64_t>(static_cast<double>(state.iterations()) * bytes));
  if (const double roof = roof_gbps(working_set); roof > 0.0) {
    state.counters["roof_gbps"] = roof;
    state.counters["roof_pct"] = benchmark::Counter(bytes * 100.0 / (roof * 1e9), benchmark::Counter::kIsIterationInvariantRate);
  }
}

double bytes_of(const nnhal::Vector<std::uint32_t>& dims, std::size_t elem) {
  return static_cast<double>(nb::element_count(dims) * elem);
}

void transpose_f32_112x112x64_nhwc_to_nchw(benchmark::State& s) {
  const nnhal::Vector<std::uint32_t> in{1, 112, 112, 64}, out{1, 64, 112, 112};
  const auto om = nb::unary_model(OperationType::TRANSPOSE, F32, in, out, [](Model& m) {
    return nnhal::Vector<std::uint32_t>{nb::add_int32_values(m, I32, {4}, {0, 3, 1, 2})};
  });
  const double b = bytes_of(in, 4) + bytes_of(out, 4);
  run(s, om, b, b);
}

void pad_f32_112x112x64_hw1(benchmark::State& s) {
  const nnhal::Vector<std::uint32_t> in{1, 112, 112, 64}, out{1, 114, 114, 64};
  const auto om = nb::unary_model(OperationType::PAD, F32, in, out, [](Model& m) {
    return nnhal::Vector<std::uint32_t>{nb::add_int32_values(m, I32, {4, 2}, {0, 0, 1, 1, 1, 1, 0, 0})};
  });
  const double b = bytes_of(in, 4) + bytes_of(out, 4);
  run(s, om, b, b);
}

/// GATHER of `count` random rows of a [rows, width] float table along axis 0.
void gather_rows(benchmark::State& s, std::uint32_t rows, std::uint32_t width, std::uint32_t count) {
  std::vector<std::int32_t> idx(count);
  std::mt19937 gen(3);
  for (std::int32_t& i : idx) i = static_cast<std::int32_t>(gen() % rows);
  const auto om = nb::unary_model(OperationType::GATHER, F32, {rows, width}, {count, width}, [&](Model& m) {
    const auto axis = nb::add_int32_constant(m, 0);
    return nnhal::Vector<std::uint32_t>{axis, nb::add_int32_values(m, I32, {count}, idx)};
  });
  const double moved = 2.0 * count * width * 4 + count * 4.0;  // rows read + written, indices
  run(s, om, moved, moved);
}

void gather_f32_8192x256_axis0_idx4096(benchmark::State& s) { gather_rows(s, 8192, 256, 4096); }

void gather_f32_112x112x64_axis3_rev64(benchmark::State& s) {
  const nnhal::Vector<std::uint32_t> dims{1, 112, 112, 64};
  std::vector<std::int32_t> idx(64);
  for (std::int32_t i = 0; i < 64; ++i) idx[static_cast<std::size_t>(i)] = 63 - i;
  const auto om = nb::unary_model(OperationType::GATHER, F32, dims, dims, [&](Model& m) {
    const auto axis = nb::add_int32_constant(m, 3);
    return nnhal::Vector<std::uint32_t>{axis, nb::add_int32_values(m, I32, {64}, idx)};
  });
  const double b = 2.0 * bytes_of(dims, 4) + 64 * 4;
  run(s, om, b, b);
}

/// Reduction `op` of a `type` tensor of shape `in` over its last axis (keep_dims false).
void reduce_last(benchmark::State& s, OperationType op, OperandType type, const nnhal::Vector<std::uint32_t>& in) {
  nnhal::Vector<std::uint32_t> out(in.begin(), in.end() - 1);
  const auto last = static_cast<std::int32_t>(in.size() - 1);
  const auto om = nb::unary_model(
      op, type, in, out,
      [&](Model& m) {
        const auto axes = nb::add_int32_values(m, I32, {1}, {last});
        const auto keep = op == OperationType::MEAN ? nb::add_int32_constant(m, 0) : nb::add_bool_constant(m, false);
        return nnhal::Vector<std::uint32_t>{axes, keep};
      },
      type == QU8 ? nb::Quant{0.05f, 128} : nb::Quant{});
  const std::size_t elem = type == QU8 ? 1 : 4;
  const double b = bytes_of(in, elem) + bytes_of(out, elem);
  run(s, om, b, b);
}

void reduce_sum_f32_112x112x64_axis3(benchmark::State& s) { reduce_last(s, OperationType::REDUCE_SUM, F32, {1, 112, 112, 64}); }
void reduce_sum_f32_1024x1024_axis1(benchmark::State& s) { reduce_last(s, OperationType::REDUCE_SUM, F32, {1024, 1024}); }
void reduce_max_f32_1024x1024_axis1(benchmark::State& s) { reduce_last(s, OperationType::REDUCE_MAX, F32, {1024, 1024}); }
void mean_f32_112x112x64_axis3(benchmark::State& s) { reduce_last(s, OperationType::MEAN, F32, {1, 112, 112, 64}); }
void mean_f32_1024x1024_axis1(benchmark::State& s) { reduce_last(s, OperationType::MEAN, F32, {1024, 1024}); }
void mean_qu8_1024x1024_axis1(benchmark::State& s) { reduce_last(s, OperationType::MEAN, QU8, {1024, 1024}); }

}  // namespace

BENCHMARK(transpose_f32_112x112x64_nhwc_to_nchw);
BENCHMARK(pad_f32_112x112x64_hw1);
BENCHMARK(gather_f32_8192x256_axis0_idx4096);
BENCHMARK(gather_f32_112x112x64_axis3_rev64);
BENCHMARK(reduce_sum_f32_112x112x64_axis3);
BENCHMARK(reduce_sum_f32_1024x1024_axis1);
BENCHMARK(reduce_max_f32_1024x1024_axis1);
BENCHMARK(mean_f32_112x112x64_axis3);
BENCHMARK(mean_f32_1024x1024_axis1);
BENCHMARK(mean_qu8_1024x1024_axis1);
