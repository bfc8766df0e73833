// Pooling benchmarks: MAX_POOL_2D and AVERAGE_POOL_2D with a 2x2 window and stride 2 over
// MobileNet's 112x112 stage with 64 channels (NHWC, batch 1, VALID padding, no activation),
// float32 and 8-bit, each timed through a prepared model (Execution::run(request), like
// bench/ops_f32.cpp). The case names are the peers' (../shared/peers/src/main.cpp), so
// `../shared/peers/compare build/bin/nnhal_bench CASE...` compares them with XNNPACK and
// oneDNN. bytes_per_second counts the input read and the output written.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "bench_models.hpp"

namespace {

using nnhal::Model;
using nnhal::OperandType;
using nnhal::OperationType;
namespace nb = nnhal::bench;

/// `op` with a filter x filter window and stride `stride` (implicit VALID padding, no
/// activation) over a [1, h, w, c] tensor of `type`.
void pool(benchmark::State& state, OperationType op, OperandType type, std::uint32_t h, std::uint32_t w,
          std::uint32_t c, std::int32_t filter, std::int32_t stride, nb::Quant q = {}) {
  const std::uint32_t oh = (h - static_cast<std::uint32_t>(filter)) / static_cast<std::uint32_t>(stride) + 1;
  const std::uint32_t ow = (w - static_cast<std::uint32_t>(filter)) / static_cast<std::uint32_t>(stride) + 1;
  const nnhal::Vector<std::uint32_t> in{1, h, w, c}, out{1, oh, ow, c};
  const auto om = nb::unary_model(
      op, type, in, out,
      [&](Model& m) {
        nnhal::Vector<std::uint32_t> scalars;
        for (std::int32_t v : {2, stride, stride, filter, filter, 0}) scalars.push_back(nb::add_int32_constant(m, v));
        return scalars;
      },
      q);
  nb::OwnedRequest req(om.model);
  if (!nb::run_model_loop(state, om.model, req)) return;
  const double elem = type == OperandType::TENSOR_FLOAT32 ? 4.0 : 1.0;
  const double bytes = (static_cast<double>(nb::element_count(in)) + static_cast<double>(nb::element_count(out))) * elem;
  state.SetBytesProcessed(static_cast<std::int64_t>(static_cast<double>(state.iterations()) * bytes));
}

constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto QU8 = OperandType::TENSOR_QUANT8_ASYMM;

void maxpool2x2s2_f32_112x112x64(benchmark::State& s) { pool(s, OperationType::MAX_POOL_2D, F32, 112, 112, 64, 2, 2); }
void avgpool2x2s2_f32_112x112x64(benchmark::State& s) {
  pool(s, OperationType::AVERAGE_POOL_2D, F32, 112, 112, 64, 2, 2);
}
void maxpool2x2s2_u8_112x112x64(benchmark::State& s) {
  pool(s, OperationType::MAX_POOL_2D, QU8, 112, 112, 64, 2, 2, nb::Quant{0.5f, 128});
}
void avgpool2x2s2_qu8_112x112x64(benchmark::State& s) {
  pool(s, OperationType::AVERAGE_POOL_2D, QU8, 112, 112, 64, 2, 2, nb::Quant{0.5f, 128});
}

}  // namespace

BENCHMARK(maxpool2x2s2_f32_112x112x64);
BENCHMARK(avgpool2x2s2_f32_112x112x64);
BENCHMARK(maxpool2x2s2_u8_112x112x64);
BENCHMARK(avgpool2x2s2_qu8_112x112x64);
